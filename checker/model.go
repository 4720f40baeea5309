package checker

import (
	"fmt"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/rules"
	"github.com/ptxmm/ptxmm/source"
)

// Model is a compiled memory model ready to check tests. It is immutable
// and safe for concurrent use.
type Model struct {
	Name    string
	Syntax  *datalog.Model
	Program *rules.Program
	// Warnings are the diagnostics that did not stop loading.
	Warnings source.List
	// Show lists the relations pictures of executions draw unless told
	// otherwise: a .dl model's .show relations; for a cat model, those
	// herd7 draws in every picture and those the model shows (show,
	// unshow).
	Show []string
	// CheckGroups maps a name that stands for several checks of a cat
	// model (a test name two tests share, a procedure call's label) to
	// them, for -skipchecks; nil for other models.
	CheckGroups map[string][]string
	// notMonotone says why the search may not abandon partial candidates
	// for this model (search.go); empty when it may.
	notMonotone string
	// varying is the analysis of the flags over what changes between the
	// candidates of a combination of runs (catalog.ChoiceRelations).
	varying *rules.Varying
	// quietPlans keeps the program's dead strata per set of empty inputs
	// for the instances of every check (rules.QuietPlans).
	quietPlans *rules.QuietPlans
	// undefined names the model's .undefined tests, which make a
	// verdict Undef (deciding.go).
	undefined []string
	// Builtin is set when the model is the embedded spec.dl as shipped,
	// with nothing added or left out (loader.Source.Builtin): the
	// termination of loops that write is decided only for it, since the
	// argument rests on what docs/model.md shows of its axioms ("Loops
	// that write: termination under fair scheduling").
	Builtin bool
	// finals is the relation whose last writes are the final ones:
	// FinalsRelation when the model defines it, else CoherenceRelation.
	finals string
	// workers keeps the instances and fillers of finished checks for
	// the next ones (workers.go).
	workers *workerPool
	// flagDepth and flagsBounded are the program's flagDepth.
	flagDepth    int
	flagsBounded bool
}

// CoherenceRelation is the relation a model must define for tests that
// observe final memory values: a location's final value is the value of a
// write with no successor in it.
const CoherenceRelation = "co"

// FinalsRelation, when a model defines it, tells the final writes instead
// of CoherenceRelation: a location's final value is the value of a write
// with no successor in it. The cat front end defines it for a model that
// reads herd7's final writes (FW, co0, pco): herd7 chooses the final
// writes first and shows them to the model, whose coherence order need
// not end with them (docs/cat.md, "Final writes"). A model written in the
// modelling language cannot name it.
const FinalsRelation = "co$final"

// BuildModel checks and compiles a parsed program, with compile options.
// Models are read (a .dl or .cat file, from disk or a file system, with
// their includes) by package internal/loader, which calls it.
func BuildModel(name string, prog *datalog.Program, copts []rules.CompileOption) (*Model, error) {
	c, err := Compile(prog, copts)
	if err != nil {
		return nil, err
	}
	return c.Model(name), nil
}

// Compiled is what checking and compiling a program produces, which a
// Model is made of: the loader keeps it, compiled when ptxmm is built, for
// the embedded default model (internal/loader, Source.Compiled).
type Compiled struct {
	Syntax  *datalog.Model
	Program *rules.Program
	// Warnings are the compiler's (rules.Compile); the analysis's are
	// Syntax.Warnings.
	Warnings source.List
}

// Compile checks and compiles a parsed program, with compile options.
func Compile(prog *datalog.Program, copts []rules.CompileOption) (*Compiled, error) {
	m, errs := datalog.Analyze(prog)
	if errs.HasErrors() {
		return nil, errs
	}
	if cerrs := catalog.Validate(m); cerrs.HasErrors() {
		return nil, cerrs
	}
	p, cerrs := rules.Compile(m, copts...)
	if cerrs.HasErrors() {
		return nil, cerrs
	}
	return &Compiled{Syntax: m, Program: p, Warnings: cerrs.Warnings()}, nil
}

// Model makes a model named name of a compiled program. The model shares
// the program, which is immutable.
func (c *Compiled) Model(name string) *Model {
	m, p := c.Syntax, c.Program
	warnings := append(source.List{}, m.Warnings...)
	warnings = append(warnings, c.Warnings...)
	warnings = append(warnings, allowsEverything(name, m)...)
	why := pruneModel(p)
	if why != "" {
		warnings.Warn(source.Pos{File: name}, "%s, so a partial candidate the axioms reject may have consistent completions: ptxmm builds every candidate execution of a test in full for this model (slower)", why)
	}
	var undefined []string
	for _, c := range p.Flags() {
		if c.Mode == datalog.ModeUndefined {
			undefined = append(undefined, c.Name)
		}
	}
	finals := CoherenceRelation
	if _, err := p.Arity(FinalsRelation); err == nil {
		finals = FinalsRelation
	}
	model := &Model{Name: name, Syntax: m, Program: p, Warnings: warnings, Show: m.Show, notMonotone: why, finals: finals,
		varying: p.Varying(catalog.ChoiceRelations()...), quietPlans: p.QuietPlans(), undefined: undefined}
	model.flagDepth, model.flagsBounded = flagDepth(p)
	model.workers = newWorkerPool(model)
	return model
}

// hasCoherence reports whether the model defines the coherence order.
func (m *Model) hasCoherence() error {
	ar, err := m.Program.Arity(CoherenceRelation)
	if err != nil {
		return fmt.Errorf("the model defines no relation %s, which ptxmm needs to tell the final values of memory locations", CoherenceRelation)
	}
	if ar != 2 {
		return fmt.Errorf("the model's %s has %d column(s); the coherence order must be binary", CoherenceRelation, ar)
	}
	return nil
}

// ReadsHost reports whether the model reads a relation about host threads
// (catalog.HostInput): without one, it checks a test with host threads as
// if the CUDA API synchronization of 8.9.4 did not exist.
func (m *Model) ReadsHost() bool {
	for _, in := range m.Syntax.Inputs() {
		if catalog.HostInput(in) {
			return true
		}
	}
	return false
}
