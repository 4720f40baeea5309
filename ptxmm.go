// Package ptxmm is the embedding API of ptxmm, an executable PTX memory
// consistency model. Load the default model (PTX ISA chapter 8 as Datalog,
// embedded from spec.dl), a variant of it, or a model of your own (.dl or
// herd7's .cat, from disk or any fs.FS); check litmus tests against it; or
// hand in an execution built by your own tool (ExecutionBuilder derives its
// structural relations from per-event attributes) and get each axiom's
// verdict with a witness, the flags and undefined behaviour it raises, and
// every derived relation.
//
// A Model is immutable and safe for concurrent use by any number of
// goroutines.
package ptxmm

import (
	"context"
	"embed"
	"io/fs"
	"slices"
	"sync"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

//go:embed spec.dl
var models embed.FS

// DefaultModelName is the name the embedded default model is known by.
const DefaultModelName = "spec.dl"

// DefaultModelFS returns the file system holding the embedded spec.dl.
func DefaultModelFS() fs.FS { return models }

// Model is a compiled memory model.
type Model struct {
	m *checker.Model
	// fixed holds the programs in which some of the model's .order
	// relations are inputs, compiled on first use by an evaluation that
	// gives those orders (evaluate_orders.go), keyed by their names.
	mu    sync.Mutex
	fixed map[string]*rules.Program
	// pool keeps the instances of closed evaluations (instances.go).
	pool instancePool
}

func newModel(m *checker.Model) *Model { return &Model{m: m} }

// Name is the model's name: the file it was read from.
func (m *Model) Name() string { return m.m.Name }

// Files lists the files the model was read from: its own (unless it was
// given as text) and each it includes.
func (m *Model) Files() []string { return slices.Clone(m.m.Syntax.Program.Files) }

// Warnings are the diagnostics that did not stop the model from loading,
// each quoting its line ("spec.dl:12:5: warning: ...").
func (m *Model) Warnings() []string {
	var out []string
	for _, w := range m.m.Warnings {
		out = append(out, w.Quoted())
	}
	return out
}

// Checks lists the names of the model's checks (its axioms).
func (m *Model) Checks() []string {
	var out []string
	for _, c := range m.m.Program.Checks() {
		out = append(out, c.Name)
	}
	return out
}

// Flags lists the model's .flag and .undefined tests, in source order.
func (m *Model) Flags() []FlagTest {
	var out []FlagTest
	for _, c := range m.m.Program.Flags() {
		out = append(out, FlagTest{Name: c.Name, Undefined: c.Mode == datalog.ModeUndefined})
	}
	return out
}

// FlagTest is one .flag or .undefined test of a model.
type FlagTest struct {
	Name string `json:"name"`
	// Undefined marks an .undefined test: an execution raising it has
	// undefined behaviour (a litmus test's verdict is Undef).
	Undefined bool `json:"undefined,omitempty"`
}

// Order is one run-time order of a model (.order): a relation the model
// does not derive but chooses, relating each pair of Over one way or the
// other (or neither, when Partial) as a strict partial order. Evaluate
// searches for a choice that makes the checks hold, unless the execution
// gives the order.
type Order struct {
	Name    string `json:"name"`
	Over    string `json:"over"`
	Partial bool   `json:"partial,omitempty"`
	Doc     string `json:"doc,omitempty"`
}

// Orders lists the model's run-time orders (for spec.dl, the coherence
// directions co_ms and the Fence-SC order fence_sc).
func (m *Model) Orders() []Order {
	var out []Order
	for _, o := range m.m.Syntax.Orders {
		out = append(out, Order{Name: o.Name, Over: o.Over, Partial: o.Partial, Doc: o.Doc})
	}
	return out
}

// Inputs lists the base relations the model reads (its .input relations,
// docs/catalog.md), in declaration order: an Execution must give each.
func (m *Model) Inputs() []string { return m.m.Syntax.Inputs() }

// Relations lists the names of every relation of the model a caller may
// read with Evaluation.Relation (generated helper relations excluded).
func (m *Model) Relations() []string {
	var out []string
	for _, name := range m.m.Syntax.Names {
		if r := m.m.Syntax.Relations[name]; !r.Generated && r.Kind != datalog.RelUniverse {
			out = append(out, name)
		}
	}
	return out
}

// Option configures checking and evaluation.
type Option func(*checker.Options)

// WithUnroll sets how many backward branches a thread may take.
func WithUnroll(n int) Option { return func(o *checker.Options) { o.Exec.Unroll = n } }

// WithMaxCandidates bounds the candidate executions of one test.
func WithMaxCandidates(n int) Option { return func(o *checker.Options) { o.MaxCandidates = n } }

// WithTimeout bounds the time spent on one test or evaluation (5 minutes
// unless set; 0 means no bound).
func WithTimeout(d time.Duration) Option { return func(o *checker.Options) { o.Timeout = d } }

// WithMaxMemory bounds the estimated memory of checking one test or
// evaluating one execution, in bytes; a test or execution whose relations
// would not fit is refused at once (0, the default of the embedding API,
// means no bound).
func WithMaxMemory(bytes int64) Option { return func(o *checker.Options) { o.MaxMemory = bytes } }

// WithExplain records why each forbidden outcome is forbidden.
func WithExplain() Option { return func(o *checker.Options) { o.Explain = true } }

// WithSpeedcheck checks only the executions that may decide the test's
// condition (herd7's -speedcheck true), and with stop ends at the first
// that does (-speedcheck fast). The verdict is that of the full check; the
// states and counts are those of the executions checked.
func WithSpeedcheck(stop bool) Option {
	return func(o *checker.Options) { o.OnlyDeciding, o.StopAtWitness = true, stop }
}

func options(opts []Option) checker.Options {
	o := checker.DefaultOptions()
	for _, f := range opts {
		f(&o)
	}
	return o
}

// ParseTests parses a litmus file's text (.litmus or .test, by the name's
// extension) into tests; a .test template yields one test per row.
func ParseTests(name string, src []byte) ([]*litmus.Test, error) {
	f, err := litmus.FormatForPath(name)
	if err != nil {
		return nil, err
	}
	return litmus.Parse(name, src, f)
}

// Check checks one test. A test that cannot be checked (a resource limit,
// a malformed execution) reports it in Result.Err.
func (m *Model) Check(t *litmus.Test, opts ...Option) *Result {
	return m.CheckContext(context.Background(), t, opts...)
}

// CheckContext is Check under a context: cancelling it stops the check,
// whose Result.Err then says so.
func (m *Model) CheckContext(ctx context.Context, t *litmus.Test, opts ...Option) *Result {
	return newResult(m.m.CheckContext(ctx, t, options(opts)))
}

// CheckFile parses and checks every test of a litmus file.
func (m *Model) CheckFile(path string, opts ...Option) ([]*Result, error) {
	return m.CheckFileContext(context.Background(), path, opts...)
}

// CheckFileContext is CheckFile under a context.
func (m *Model) CheckFileContext(ctx context.Context, path string, opts ...Option) ([]*Result, error) {
	tests, err := litmus.ParseFile(path)
	if err != nil {
		return nil, err
	}
	o := options(opts)
	var out []*Result
	for _, t := range tests {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		out = append(out, newResult(m.m.CheckContext(ctx, t, o)))
	}
	return out, nil
}
