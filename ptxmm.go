// Package ptxmm is the embedding API of ptxmm, an executable PTX memory
// consistency model. Load the default model (PTX ISA chapter 8 as Datalog,
// embedded from spec.dl) or a model of your own; check litmus tests against
// it; or hand in an execution built by your own tool and get every derived
// relation and each axiom's verdict with a witness.
//
// A Model is immutable and safe for concurrent use by any number of
// goroutines.
package ptxmm

import (
	"embed"
	"io/fs"
	"time"

	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/litmus"
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
}

// DefaultModel loads the embedded PTX model.
func DefaultModel() (*Model, error) {
	m, err := checker.LoadModel(DefaultModelName, datalog.WithFS(models))
	if err != nil {
		return nil, err
	}
	return &Model{m: m}, nil
}

// LoadOption configures LoadModel.
type LoadOption func(*cat.Options)

// WithIncludeDirs adds directories searched for the files a cat model
// includes (herd7's -I), after the directory of the including file.
func WithIncludeDirs(dirs ...string) LoadOption {
	return func(o *cat.Options) { o.IncludeDirs = append(o.IncludeDirs, dirs...) }
}

// WithLibDir sets herd7's library folder (its -set-libdir): a cat model's
// includes, and a model named by its file name alone, are searched there
// last.
func WithLibDir(dir string) LoadOption { return func(o *cat.Options) { o.LibDir = dir } }

// WithEnvLibDir sets the folder herd7's environment variable HERDLIB
// names, searched before the library folder.
func WithEnvLibDir(dir string) LoadOption { return func(o *cat.Options) { o.EnvLibDir = dir } }

// WithVariants sets herd7's variants, which a cat model tests with if
// variant "name".
func WithVariants(names ...string) LoadOption {
	return func(o *cat.Options) { o.Variants = append(o.Variants, names...) }
}

// CatOptions returns the cat options the load options set.
func CatOptions(opts ...LoadOption) cat.Options {
	var co cat.Options
	for _, o := range opts {
		o(&co)
	}
	return co
}

// LoadModel loads a model from a file on disk: a herd7 cat model when the
// name ends in .cat, a .dl model otherwise. Includes are resolved relative
// to the including file (and for a cat model in the folders the options
// give).
func LoadModel(path string, opts ...LoadOption) (*Model, error) {
	var m *checker.Model
	var err error
	if cat.IsCatFile(path) {
		m, err = checker.LoadCatModel(path, CatOptions(opts...))
	} else {
		m, err = checker.LoadModel(path)
	}
	if err != nil {
		return nil, err
	}
	return &Model{m: m}, nil
}

// LoadModelSource loads a model from text; name is used in error messages
// and includes are resolved relative to it.
func LoadModelSource(name string, src []byte) (*Model, error) {
	return loadSource(name, string(src))
}

// loadSource loads and compiles a .dl model from text.
func loadSource(name, src string, opts ...datalog.Option) (*Model, error) {
	prog, errs := datalog.LoadSource(name, src, opts...)
	if errs.HasErrors() {
		return nil, errs
	}
	m, err := checker.BuildModel(name, prog, nil)
	if err != nil {
		return nil, err
	}
	return &Model{m: m}, nil
}

// Checker returns the underlying checker model (for ptxmm's own commands).
func (m *Model) Checker() *checker.Model { return m.m }

// Checks lists the names of the model's checks (its axioms).
func (m *Model) Checks() []string {
	var out []string
	for _, c := range m.m.Program.Checks() {
		out = append(out, c.Name)
	}
	return out
}

// Option configures checking.
type Option func(*checker.Options)

// WithUnroll sets how many backward branches a thread may take.
func WithUnroll(n int) Option { return func(o *checker.Options) { o.Exec.Unroll = n } }

// WithMaxCandidates bounds the candidate executions of one test.
func WithMaxCandidates(n int) Option { return func(o *checker.Options) { o.MaxCandidates = n } }

// WithTimeout bounds the time spent on one test.
func WithTimeout(d time.Duration) Option { return func(o *checker.Options) { o.Timeout = d } }

// WithMaxMemory bounds the estimated memory of checking one test, in
// bytes; a test whose relations would not fit is refused at once (0, the
// default of the embedding API, means no bound).
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

// Result is the outcome of checking one test.
type Result = checker.Result

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
	return m.m.Check(t, options(opts))
}

// CheckFile parses and checks every test of a litmus file.
func (m *Model) CheckFile(path string, opts ...Option) ([]*Result, error) {
	tests, err := litmus.ParseFile(path)
	if err != nil {
		return nil, err
	}
	o := options(opts)
	var out []*Result
	for _, t := range tests {
		out = append(out, m.m.Check(t, o))
	}
	return out, nil
}
