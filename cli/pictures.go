package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/graph"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// ShowMode says which executions pictures show (herd7's -show).
type ShowMode int

const (
	// ShowNone draws nothing.
	ShowNone ShowMode = iota
	// ShowProp draws the executions satisfying the condition's proposition.
	ShowProp
	// ShowNeg draws those not satisfying it.
	ShowNeg
	// ShowCond draws those that make the condition true: satisfying the
	// proposition of exists and forall, not satisfying that of ~exists.
	ShowCond
	// ShowWit draws the witnesses: executions satisfying the proposition of
	// exists and ~exists, contradicting that of forall.
	ShowWit
	// ShowAll draws every consistent execution.
	ShowAll
)

// ParseShow reads herd7's -show values.
func ParseShow(s string) (ShowMode, error) {
	m, ok := map[string]ShowMode{"none": ShowNone, "prop": ShowProp, "neg": ShowNeg, "cond": ShowCond,
		"wit": ShowWit, "all": ShowAll}[strings.ToLower(s)]
	if !ok {
		return ShowNone, fmt.Errorf("-show %s: expected prop, neg, cond, wit, all or none", s)
	}
	return m, nil
}

// Pictures asks for one DOT file per test, herd-style: DIR/NAME.dot with
// one graph per selected consistent execution (a test with none gets no
// file).
type Pictures struct {
	Mode ShowMode
	Dir  string
	// Max bounds the executions drawn per test (herd7's -nshow); 0: no
	// bound. Unlike herd7, checking goes on after the last picture.
	Max int
}

// selects reports whether a picture shows a consistent candidate. A .test
// file whose commands give no single condition shows its executions only
// under -show all.
func (p Pictures) selects(t *litmus.Test, c checker.Candidate, obs []checker.Observable) bool {
	if !c.Consistent || p.Mode == ShowNone {
		return false
	}
	if c.NoFinalState() != "" {
		// Not an outcome: no condition is judged on it.
		return p.Mode == ShowAll
	}
	if p.Mode == ShowAll {
		return true
	}
	kind, prop, ok := report.Condition(t)
	if !ok {
		return false
	}
	holds := checker.Satisfies(prop, obs, c.State)
	switch p.Mode {
	case ShowProp:
		return holds
	case ShowNeg:
		return !holds
	case ShowCond:
		return holds == (kind != litmus.CondNotExists)
	case ShowWit:
		return holds == (kind != litmus.CondForall)
	}
	return false
}

// checkWithPictures checks a test and writes its picture.
func checkWithPictures(ctx context.Context, m *checker.Model, t *litmus.Test, opts checker.Options, p Pictures) (*checker.Result, error) {
	cands, res := m.CheckKeepContext(ctx, t, opts, func(c checker.Candidate, obs []checker.Observable) bool { return p.selects(t, c, obs) }, p.Max)
	if res.Err != nil {
		return res, nil
	}
	var b strings.Builder
	for i, c := range cands {
		inst, err := m.Instance(c)
		if err != nil {
			return res, fmt.Errorf("%s: %w", t.Name, err)
		}
		title := fmt.Sprintf("%s, execution %d of %d shown: %s", report.LogName(t), i+1, len(cands),
			checker.FormatState(t, res.Layout, res.Observables, c.State))
		dot, err := graph.DOT(c.Execution, inst, graph.Options{Title: title, Show: pictureRelations(m, t)})
		if err != nil {
			return res, fmt.Errorf("%s: %w", t.Name, err)
		}
		b.WriteString(dot)
	}
	if len(cands) == 0 {
		return res, nil
	}
	path := filepath.Join(p.Dir, report.LogName(t)+".dot")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		return res, fmt.Errorf("-o %s: %w", p.Dir, err)
	}
	return res, nil
}

// apiRelations are the rules of spec.dl for the CUDA API synchronization
// items (8.9.4), which pictures of tests with host threads draw.
var apiRelations = []string{"sync_stream", "sync_event", "sync_legacy", "sync_kernel", "sync_graph", "sync_enqueue", "sync_return", "sync_query"}

// pictureRelations are the relations pictures of t draw: po, rf, co and fr
// when the model has them, those a cat model shows and, for a test with
// host threads, the API synchronization rules the model has.
func pictureRelations(m *checker.Model, t *litmus.Test) []string {
	names := append([]string{"po", "rf", "co", "fr"}, m.Show...)
	for _, th := range t.Threads {
		if th.Host {
			names = append(names, apiRelations...)
			break
		}
	}
	var out []string
	for _, r := range names {
		if ar, err := m.Program.Arity(r); err == nil && ar == 2 && !contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
