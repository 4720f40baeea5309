package synth

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/program"
)

// outcomes is what two models allow of one program: the final states each
// model's consistent executions reach (over every register and every
// location written twice or more), and the consistent executions of each
// that have no final state (out of thin air).
type outcomes struct {
	a, b         map[string]bool
	thinA, thinB int
	err          error
}

// separates reports whether the models disagree on some outcome.
func (o *outcomes) separates() bool { return !sameSet(o.a, o.b) }

// sameAs reports whether two programs' outcomes agree model by model and
// with each other.
func (o *outcomes) allSame(p *outcomes) bool {
	return sameSet(o.a, o.b) && sameSet(o.a, p.a) && sameSet(p.a, p.b)
}

func sameSet(x, y map[string]bool) bool {
	if len(x) != len(y) {
		return false
	}
	for k := range x {
		if !y[k] {
			return false
		}
	}
	return true
}

// evaluator checks programs with both models, once each.
type evaluator struct {
	ctx    context.Context
	models []*checker.Model
	opts   checker.Options
	cache  map[string]*outcomes
	// evals counts the programs checked, for the progress line (shared by
	// the workers).
	evals *atomic.Int64
	// why, when set, counts the programs checked by the reason they were
	// checked first (shared by the workers); purpose is the reason of the
	// checks asked now.
	why     *[numPurposes]atomic.Int64
	purpose purpose
	// thin, when set, counts the programs on which the models disagree
	// about executions out of thin air (shared by the workers).
	thin *atomic.Int64
	// agree, when set, reports that the models surely agree on every
	// execution of a program (screen.agree): it is checked with the
	// first model only, whose outcomes stand for both.
	agree func(*program.Test) bool
	// pair, when set, checks a program with both models through their
	// merged program, which evaluates each candidate once for both
	// (checker.CheckPair): the outcomes are the same.
	pair func() *checker.Pair
}

// purpose is why the search checks a program: a program checked for
// several is counted once, under the first.
type purpose int

const (
	// forCorner: the weakest or strongest point of a box of a skeleton's
	// lattice (lattice.go).
	forCorner purpose = iota
	// forProbe: a point next to a corner, checked to choose the dimension
	// a box is split on (latticeSearch.pick).
	forProbe
	// forRemoval: a separating program with one instruction removed, to
	// tell whether it is minimal (searcher.eventMinimal).
	forRemoval
	numPurposes
)

// withPurpose checks programs for a purpose and restores the previous.
func (e *evaluator) withPurpose(p purpose, f func()) {
	prev := e.purpose
	e.purpose = p
	defer func() { e.purpose = prev }()
	f()
}

// parse reads a program back as package litmus does.
func parse(t *program.Test) (*litmus.Test, error) {
	lt, err := t.Parse()
	if err != nil {
		return nil, fmt.Errorf("internal error: a synthesized test does not parse: %v\n%s", err, t.Litmus())
	}
	return lt, nil
}

// outcomes checks a program with both models (or recalls its outcomes).
func (e *evaluator) outcomes(t *program.Test) *outcomes {
	text := t.Litmus()
	if o, ok := e.cache[text]; ok {
		return o
	}
	o := &outcomes{}
	e.cache[text] = o
	lt, err := parse(t)
	if err != nil {
		o.err = err
		return o
	}
	e.evals.Add(1)
	if e.why != nil {
		e.why[e.purpose].Add(1)
	}
	models := e.models
	if e.agree != nil && e.agree(t) {
		models = models[:1]
	}
	var rs []*checker.Result
	if len(models) == 2 && e.pair != nil {
		rs = checker.CheckPair(e.ctx, e.pair(), lt, e.opts)
	} else {
		rs = checker.CheckAllContext(e.ctx, models, lt, e.opts)
	}
	for _, r := range rs {
		if r.Err != nil {
			o.err = r.Err
			return o
		}
	}
	rb := rs[len(rs)-1]
	o.a, o.b = stateSet(rs[0]), stateSet(rb)
	o.thinA, o.thinB = rs[0].ThinAir, rb.ThinAir
	if o.thinA != o.thinB && e.thin != nil {
		e.thin.Add(1)
	}
	return o
}

// stateSet keys a result's final states.
func stateSet(r *checker.Result) map[string]bool {
	out := map[string]bool{}
	for _, s := range r.States {
		out[checker.FormatState(r.Test, r.Layout, r.Observables, s)] = true
	}
	return out
}
