package repl

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/defaultmodel"
	"github.com/ptxmm/ptxmm/internal/explore"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// ModelSource says where the session's model comes from.
type ModelSource struct {
	// Path is the model file; empty means the embedded default, read from
	// FS under the name Name.
	Path string
	FS   fs.FS
	Name string
	// Options say how the model's includes are found (and, for a cat
	// model, which of herd7's variants are set); the session's own
	// additions are its Extra.
	Options loader.Options
}

// Session is the state of one REPL: the model (with the rules and checks
// typed in the session), the test, its candidates and the selected one.
type Session struct {
	src    ModelSource
	extra  []string // items typed in the session, replayed on :reload
	model  *checker.Model
	opts   checker.Options
	test   *litmus.Test
	cands  []checker.Candidate
	result *checker.Result
	cur    int // index into cands, -1 when none is selected
	inst   *rules.Instance
	filled int // the candidate inst holds, -1 when none
}

// DefaultMaxCandidates is the candidate bound ptxmm repl uses unless told
// otherwise: a session keeps every candidate in memory, so a test with more
// fails with the limit's error (naming -max-candidates) rather than being
// listed in part.
const DefaultMaxCandidates = 100_000

// New returns a session over the given model, with no test loaded.
func New(src ModelSource, opts checker.Options) (*Session, error) {
	s := &Session{src: src, opts: opts, cur: -1, filled: -1}
	if err := s.loadModel(); err != nil {
		return nil, err
	}
	return s, nil
}

// loadModel (re)reads the model, applies the session's additions and makes
// the result the session's model.
func (s *Session) loadModel() error {
	m, err := s.buildModel()
	if err != nil {
		return err
	}
	s.useModel(m)
	return nil
}

// useModel makes m the session's model; the instance built for the old one
// is dropped.
func (s *Session) useModel(m *loader.Model) {
	s.model = m.Model
	s.inst = nil
	s.filled = -1
}

// buildModel reads the model and applies the session's additions, leaving
// the session as it is. A cat model is lowered onto the modelling language,
// so the session's queries and additions use the lowered relations.
func (s *Session) buildModel() (*loader.Model, error) {
	src := loader.Source{Name: s.src.Path, Label: s.modelName()}
	if s.src.Path == "" {
		src.Name, src.FS = s.src.Name, s.src.FS
		if s.src.Name == defaultmodel.Name {
			// The embedded default, as ptxmm check reads it: from the
			// build's compiled snapshot when that matches the file, and
			// marked as the embedded model (what the termination of
			// loops that write needs) while the session adds nothing.
			d := defaultmodel.Source(s.src.FS)
			src.Builtin, src.Compiled = d.Builtin, d.Compiled
		}
	}
	opts := s.src.Options
	opts.Extra = append(append([]string(nil), opts.Extra...), s.extra...)
	return loader.Load(src, opts)
}

func (s *Session) modelName() string {
	if s.src.Path == "" {
		return "embedded " + s.src.Name
	}
	return s.src.Path
}

// LoadTest reads a test file (instance k of a .test template, from 1; 0 for
// the first test of the file) and enumerates its candidates.
func (s *Session) LoadTest(path string, k int) error {
	tests, err := litmus.ParseFileLimits(path, litmus.ParseLimits{Timeout: s.opts.Timeout, MaxMemory: s.opts.MaxMemory})
	if err != nil {
		return err
	}
	i := 0
	if k > 0 {
		i = k - 1
	}
	if i >= len(tests) {
		return fmt.Errorf("%s has %d test(s); there is no instance %d", path, len(tests), k)
	}
	s.test = tests[i]
	return s.run()
}

// run enumerates the current test's candidates with the current model.
func (s *Session) run() error {
	if s.test == nil {
		return nil
	}
	cands, res := s.model.Candidates(s.test, s.opts, 0)
	if res.Err != nil {
		return res.Err
	}
	// Re-running the same test enumerates the same candidates in the same
	// order, so the selection survives a model change.
	keep := s.cur >= 0 && len(cands) == len(s.cands)
	s.cands, s.result = cands, res
	s.filled = -1
	if keep {
		return nil
	}
	s.cur = -1
	for i, c := range cands {
		if c.Consistent && c.NoFinalState() == "" {
			s.cur = i
			break
		}
	}
	if s.cur < 0 && len(cands) > 0 {
		s.cur = 0
	}
	return nil
}

// view returns the selected candidate evaluated with provenance.
func (s *Session) view() (*explore.View, error) {
	inst, err := s.instance()
	if err != nil {
		return nil, err
	}
	return &explore.View{Model: s.model, Cand: s.cands[s.cur], Inst: inst}, nil
}

// instance returns an instance holding the selected candidate, evaluated
// with the orders that make it consistent (or the last tried).
func (s *Session) instance() (*rules.Instance, error) {
	if s.cur < 0 {
		return nil, fmt.Errorf("no execution selected: load a test with :test FILE")
	}
	if s.inst != nil && s.filled == s.cur {
		return s.inst, nil
	}
	ctx, cancel := s.limited("evaluating the execution")
	defer cancel()
	inst, err := s.model.InstanceContext(ctx, s.cands[s.cur], s.opts.MaxMemory)
	if err != nil {
		if ctx.Err() != nil {
			return nil, context.Cause(ctx)
		}
		return nil, err
	}
	s.inst, s.filled = inst, s.cur
	return inst, nil
}

// limited is a context under the session's time limit (-timeout), whose
// end is the error the limit's message: what names what took the time.
func (s *Session) limited(what string) (context.Context, context.CancelFunc) {
	if s.opts.Timeout <= 0 {
		return context.WithCancel(context.Background())
	}
	return context.WithTimeoutCause(context.Background(), s.opts.Timeout,
		fmt.Errorf("%s took longer than the time limit of %s; raise it with -timeout", what, s.opts.Timeout))
}

// stateText prints a candidate's final state.
func (s *Session) stateText(c checker.Candidate) string {
	r := s.result
	text := checker.FormatState(s.test, r.Layout, r.Observables, c.State)
	if why := c.NoFinalState(); why != "" {
		return text + " (not final: " + why + ")"
	}
	return text
}

// relationNames lists the relations a user can name (for completion).
func (s *Session) relationNames() []string {
	var out []string
	for _, n := range s.model.Syntax.Names {
		if !strings.ContainsRune(n, '$') {
			out = append(out, n)
		}
	}
	return out
}
