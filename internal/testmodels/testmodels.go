// Package testmodels holds the small models that the tests of the test
// generators (gen, synth) hold ptxmm's search against: one that allows every
// candidate execution and one that adds sequential consistency. They are
// written here once so that both packages test against the same pair.
package testmodels

import (
	"testing"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
)

// Candidates allows every candidate execution whose coherence order starts
// with the initial writes.
const Candidates = `
.decl W(e: event)
.decl IW(e: event)
.decl loc(a: event, b: event)
.decl rf(w: event, r: event)
.decl po(a: event, b: event)
.decl rmw(r: event, w: event)
.decl E(e: event)
.input E, W, IW, loc, rf, po, rmw
let id = [E]
let co_pairs = ((W * W) & loc) \ id
.order co over co_pairs
let fr = ((rf^-1 ; co) & loc) \ id
.check init_first: empty(co ; [IW])
`

// SC is Candidates with sequential consistency and the atomicity of
// read-modify-writes. The two differ on the smallest test there is: a
// thread that writes x and then reads its initial value.
const SC = Candidates + `
.check sc: acyclic(po | rf | co | fr)
.check atomic: empty(rmw & (fr ; co))
`

// Load compiles the model text src, named name, failing t on any error.
func Load(t testing.TB, name, src string) *checker.Model {
	t.Helper()
	prog, errs := datalog.LoadSource(name, src)
	if errs.HasErrors() {
		t.Fatalf("%s: %v", name, errs)
	}
	m, err := checker.BuildModel(name, prog, nil)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return m
}
