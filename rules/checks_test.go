package rules

import (
	"testing"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestChecks(t *testing.T) {
	src := `
.decl e(x, y)
.input e
.decl s(x)
.input s
.decl t3(x, y, z)
.input t3
.check acyc: acyclic(e)
.check acycExpr: acyclic(e ; e)
.check irr: irreflexive(e)
.check irrExpr: irreflexive(e ; e)
.check emptyRel: empty(e & e^-1)
.check emptySet: empty(s)
.check emptyExpr: empty(domain(e) \ s)
.check emptyT3: empty(t3)
`
	type want struct {
		holds   bool
		witness []string
	}
	tests := []struct {
		name       string
		e, s, t3   []string
		checks     map[string]want
		allHold    bool
		checkNames []string
	}{
		{
			name: "everything holds",
			e:    []string{"a,b", "b,c", "c,d"},
			s:    nil,
			checks: map[string]want{
				"acyc": {true, nil}, "acycExpr": {true, nil}, "irr": {true, nil}, "irrExpr": {true, nil},
				"emptyRel": {true, nil}, "emptySet": {true, nil}, "emptyT3": {true, nil},
				"emptyExpr": {false, []string{"a"}},
			},
		},
		{
			name: "shortest cycle is the witness",
			// A 4-cycle a b c d, a 3-cycle through the chord b -> d, and a
			// 2-cycle e <-> f: the 2-cycle is the shortest.
			e: []string{"a,b", "b,c", "c,d", "d,a", "b,d", "e,f", "f,e"},
			s: []string{"a", "b", "c", "d", "e", "f"},
			checks: map[string]want{
				"acyc":      {false, []string{"e", "f"}},
				"acycExpr":  {false, []string{"e"}}, // e;e has the self loop e -> f -> e
				"irr":       {true, nil},
				"irrExpr":   {false, []string{"e"}},
				"emptyRel":  {false, []string{"e,f"}},
				"emptySet":  {false, []string{"a"}},
				"emptyExpr": {true, nil},
				"emptyT3":   {true, nil},
			},
		},
		{
			name: "three-cycle",
			e:    []string{"a,b", "b,c", "c,d", "d,a", "b,d"},
			t3:   []string{"c,a,b", "b,c,a", "b,a,d"},
			checks: map[string]want{
				"acyc": {false, []string{"a", "b", "d"}},
				// e;e = {a->c, a->d, b->a, b->d, c->a, d->b}: two 2-cycles, the
				// one starting at the smallest atom wins.
				"acycExpr": {false, []string{"a", "c"}},
				"irr":      {true, nil},
				"irrExpr":  {true, nil},
				"emptyT3":  {false, []string{"b,a,d"}},
			},
		},
		{
			name: "self loop",
			e:    []string{"c,c", "b,b", "a,d"},
			checks: map[string]want{
				"acyc":     {false, []string{"b"}},
				"irr":      {false, []string{"b"}},
				"irrExpr":  {false, []string{"b"}},
				"emptyRel": {false, []string{"b,b"}},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			forModes(t, func(t *testing.T, opts []CompileOption) {
				p := compileSrc(t, src, opts...)
				in := newInst(t, p, "a", "b", "c", "d", "e", "f")
				setFacts(t, in, "e", tc.e...)
				setFacts(t, in, "s", tc.s...)
				setFacts(t, in, "t3", tc.t3...)
				results := in.Checks()
				require.Len(t, results, 8)
				allHold := true
				for i, r := range results {
					assert.Equal(t, p.Checks()[i].Name, r.Name, "checks come in source order")
					allHold = allHold && r.Holds
					w, ok := tc.checks[r.Name]
					if !ok {
						continue
					}
					assert.Equal(t, w.holds, r.Holds, r.Name)
					if r.Kind == datalog.CheckEmpty && len(w.witness) == 1 {
						assert.Equal(t, w.witness[0], fmtTuple(in.Domain(), r.Witness), r.Name)
					} else if w.witness != nil {
						assert.Equal(t, w.witness, names(in.Domain(), r.Witness), r.Name)
					} else {
						assert.Empty(t, r.Witness, r.Name)
					}
				}
				assert.Equal(t, allHold, in.AllHold())
			})
		})
	}
}

func TestCheckResultFields(t *testing.T) {
	p := compileSrc(t, `.decl e(x, y) .input e
.check named: irreflexive(e)
.check gen: empty(e ; e)
`)
	in := newInst(t, p, "a")
	setFacts(t, in, "e", "a,a")
	res := in.Checks()
	require.Len(t, res, 2)
	assert.Equal(t, CheckResult{Name: "named", Kind: datalog.CheckIrreflexive, Holds: false, Witness: []int{0}, Rel: "e"}, res[0])
	assert.Equal(t, "gen", res[1].Name)
	assert.Equal(t, datalog.CheckEmpty, res[1].Kind)
	assert.Equal(t, "check$gen", res[1].Rel)
	assert.Equal(t, []int{0, 0}, res[1].Witness)
	assert.False(t, in.AllHold())
	setFacts(t, in, "e")
	assert.True(t, in.AllHold(), "AllHold runs the dirty strata first")
	for _, r := range in.Checks() {
		assert.True(t, r.Holds)
		assert.Nil(t, r.Witness)
	}
}

// TestVerdictsFollowChanges changes a check's relation back and forth on
// one instance: violated keeps its answer only while the relation's
// version stays, so each change must show in AllHold.
func TestVerdictsFollowChanges(t *testing.T) {
	src := `
.decl e(x, y)
.input e
.decl f(x, y)
.input f
.check acyc: acyclic(e)
.check irr: irreflexive(e ; f)
.check none: empty(e & f)
`
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		in := newInst(t, p, "a", "b", "c")
		setFacts(t, in, "f", "b,a")
		steps := []struct {
			name  string
			e     []string
			holds bool
		}{
			{"a chain", []string{"a,c", "c,b"}, true},
			{"a cycle", []string{"a,c", "c,a"}, false},
			{"the chain again", []string{"a,c", "c,b"}, true},
			{"e ; f reflexive", []string{"a,b"}, false},
			{"nothing", nil, true},
			{"e meets f", []string{"b,a"}, false},
		}
		for _, st := range steps {
			setFacts(t, in, "e", st.e...)
			assert.Equal(t, st.holds, in.AllHold(), st.name)
			for _, r := range in.Checks() {
				if !r.Holds {
					assert.False(t, st.holds, "%s: %s fails", st.name, r.Name)
				}
			}
		}
	})
}
