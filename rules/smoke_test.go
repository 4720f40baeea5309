package rules

import (
	"testing"

	"github.com/ptxmm/ptxmm/datalog"
)

func compileSrc(t *testing.T, src string, opts ...CompileOption) *Program {
	t.Helper()
	prog, errs := datalog.LoadSource("t.dl", src)
	if errs.HasErrors() {
		t.Fatalf("parse: %s", errs.Quoted())
	}
	m, errs := datalog.Analyze(prog)
	if errs.HasErrors() {
		t.Fatalf("analyze: %s", errs.Quoted())
	}
	p, errs := Compile(m, opts...)
	if errs.HasErrors() {
		t.Fatalf("compile: %s", errs.Quoted())
	}
	return p
}

func TestSmoke(t *testing.T) {
	p := compileSrc(t, `
.decl edge(a, b)
edge("a","b"). edge("b","c"). edge("c","d").
.decl tc(a, b)
tc(X,Y) :- edge(X,Y).
tc(X,Y) :- tc(X,Z), edge(Z,Y).
let reach = edge+
let node = domain(edge) | range(edge)
.decl notreach(a,b)
notreach(X,Y) :- node(X), node(Y), !tc(X,Y), X != Y.
.check acyc: acyclic(edge)
.check irr: irreflexive(tc ; edge^-1)
`)
	dom := NewDomain()
	in := p.NewInstance(dom)
	in.Run()
	for _, name := range []string{"tc", "reach", "node", "notreach"} {
		tu, _ := in.Tuples(name)
		t.Logf("%s = %d tuples", name, tu.Len())
	}
	for _, c := range in.Checks() {
		t.Logf("check %s holds=%v witness=%v", c.Name, c.Holds, c.Witness)
	}
}
