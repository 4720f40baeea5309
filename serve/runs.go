package serve

import (
	"crypto/sha256"
	"fmt"
	"net/http"
	"path"
	"strings"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// runEntry is a test checked against a model, kept in the result cache:
// the result and every candidate execution with its verdict. It is never
// modified once made, so requests share it freely. It does not hold the
// compiled model, which the model cache holds (and may drop) on its own:
// every request carries its model, compiled again when it was dropped.
type runEntry struct {
	test      *litmus.Test
	instances int
	cands     []checker.Candidate
	result    *checker.Result
	// conditions are the herd condition or the assertions, and
	// satisfies[k][i] whether candidate k's final state satisfies
	// conditions[i].
	conditions []litmus.Expr
	satisfies  [][]bool
	byKey      map[string]int
}

// validateTest checks a test source's fields before it is parsed.
func validateTest(src TestSource) error {
	ext := path.Ext(src.Name)
	if src.Name == "" || strings.ContainsAny(src.Name, "/\\") || len(src.Name) > 128 || (ext != ".litmus" && ext != ".test") {
		return badRequest("test name %q must be a file name ending in .litmus (herd format) or .test (NVIDIA's format)", src.Name)
	}
	if src.Instance < 0 {
		return badRequest("instance must be 0 or a template row from 1, not %d", src.Instance)
	}
	return nil
}

// runKey is the content hash of a test checked against a model under the
// server's limits.
func (s *Server) runKey(m *compiled, src TestSource) string {
	h := sha256.New()
	h.Write([]byte(m.key))
	o := s.cfg.Options
	// The limits a result depends on; not the budget, whose use changes.
	fmt.Fprintf(h, "%d:%s%d:%s#%d|%+v|%d|%d|%s", len(src.Name), src.Name, len(src.Text), src.Text, src.Instance,
		o.Exec, o.MaxCandidates, o.MaxKept, o.Timeout)
	return string(h.Sum(nil))
}

// parseTest parses the test and picks its instance.
func parseTest(src TestSource) (*litmus.Test, int, error) {
	tests, err := ptxmm.ParseTests(src.Name, []byte(src.Text))
	if err != nil {
		return nil, 0, err
	}
	if len(tests) == 0 {
		return nil, 0, fmt.Errorf("%s holds no test", src.Name)
	}
	k := max(src.Instance, 1)
	if k > len(tests) {
		return nil, 0, &apiError{status: 422, msg: fmt.Sprintf("%s has %d template row(s); there is no instance %d", src.Name, len(tests), k)}
	}
	return tests[k-1], len(tests), nil
}

// checkSize refuses a test larger than MaxTestSize before any relation is
// allocated: a model's relations over n events take about n²/8 bytes each,
// so one request with thousands of instructions could take gigabytes.
func (s *Server) checkSize(t *litmus.Test) error {
	l, err := execution.NewLayout(t)
	if err != nil {
		return nil // reported, with its place, by the check itself
	}
	size := len(l.Locs)
	for _, th := range t.Threads {
		size += len(th.Instrs)
	}
	if size > s.cfg.MaxTestSize {
		return &apiError{status: http.StatusUnprocessableEntity, msg: fmt.Sprintf(
			"test: %s has %d instructions and memory locations, more than the limit of %d of ptxmm serve; raise it with -max-test-size",
			t.Name, size, s.cfg.MaxTestSize)}
	}
	return nil
}

// run checks a test against a model, from the result cache when the same
// test was checked against the same model before; otherwise in a checking
// slot, under the request's context and limits.
func (s *Server) run(c *apiCall, m *compiled, src TestSource) (*runEntry, bool, error) {
	key := s.runKey(m, src)
	if e, ok := s.runs.Get(key); ok {
		return e, true, nil
	}
	t, n, err := parseTest(src)
	if err != nil {
		return nil, false, err
	}
	if err := s.checkSize(t); err != nil {
		return nil, false, err
	}
	if err := c.heavy(); err != nil {
		return nil, false, err
	}
	if e, ok := s.runs.Get(key); ok {
		// Checked by another request while this one waited.
		return e, true, nil
	}
	opts := s.cfg.Options
	opts.Explain = true
	cands, res := m.model.CandidatesContext(c.ctx, t, opts, 0)
	if res.Err != nil {
		return nil, false, res.Err
	}
	e := &runEntry{test: t, instances: n, cands: cands, result: res, byKey: map[string]int{}}
	if t.Condition != nil {
		e.conditions = append(e.conditions, t.Condition.Expr)
	}
	for _, a := range t.Assertions {
		e.conditions = append(e.conditions, a.Expr)
	}
	for i, cand := range cands {
		sat := make([]bool, len(e.conditions))
		for k, cond := range e.conditions {
			sat[k] = checker.Satisfies(cond, res.Observables, cand.State)
		}
		e.satisfies = append(e.satisfies, sat)
		e.byKey[candidateKey(cand)] = i
	}
	s.runs.Set(key, e, e.bytes(len(src.Text)))
	return e, false, nil
}

// candidateKey identifies a candidate independently of the model: the runs
// of the threads, what each read reads, the barrier groups and the final
// writes. Two models' candidate lists of one test are matched by it.
func candidateKey(c checker.Candidate) string {
	x := c.Execution
	return fmt.Sprint(x.Combo, x.RF, x.BarGroups, c.Finals)
}

// state prints a candidate's final state.
func (e *runEntry) state(c checker.Candidate) string {
	return checker.FormatState(e.test, e.result.Layout, e.result.Observables, c.State)
}

// candidate returns execution k (from 1).
func (e *runEntry) candidate(k int) (checker.Candidate, error) {
	if k < 1 || k > len(e.cands) {
		return checker.Candidate{}, badRequest("exec %d: the test has %d candidate execution(s), numbered from 1", k, len(e.cands))
	}
	return e.cands[k-1], nil
}

func failureNames(c checker.Candidate) []string {
	out := []string{}
	for _, f := range c.Failures {
		out = append(out, f.Name)
	}
	return out
}

// testBytesPerByte estimates the memory a parsed test keeps per byte of
// its text (its parse allocates about 220, most of it garbage).
const testBytesPerByte = 64

// bytes estimates the memory the entry keeps, the size the result cache
// counts it at: its candidates, the runs they share, their verdicts on
// the conditions and keys, the result, and the parsed test of textLen
// bytes.
func (e *runEntry) bytes(textLen int) int64 {
	b := int64(48<<10) + testBytesPerByte*int64(textLen)
	runs := map[*execution.Run]bool{}
	for _, c := range e.cands {
		b += c.Bytes() + 24 + int64(len(e.conditions))
		for _, r := range c.Execution.Runs {
			if !runs[r] {
				runs[r] = true
				b += r.Bytes()
			}
		}
	}
	for k := range e.byKey {
		b += int64(len(k)) + 48
	}
	r := e.result
	b += 256 * int64(len(r.States)+len(r.Forbidden)+len(r.Assertions))
	return b
}
