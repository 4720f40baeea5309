package fill

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// TestFillPartial checks what a partial candidate of the reads-from search
// gets: the reads-from pairs chosen so far, no barrier groups, cluster
// phases or uninitialized mbarrier reads (they depend on what is not
// chosen yet), and every relation of the runs; and that a complete fill
// afterwards gets them all back.
func TestFillPartial(t *testing.T) {
	x := firstCandidate(t, `PTX T
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 bar.cta.sync 0 | bar.cta.sync 0 ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1)
`)
	prog, errs := datalog.LoadSource("m.dl", `.decl rf(w, r) .input rf
.decl bar(a, b) .input bar
.decl cbar(a, b) .input cbar
.decl po(a, b) .input po
.decl MBAR_UNINIT(e) .input MBAR_UNINIT
.check ax: acyclic(rf | bar | cbar | po)
.check un: empty(MBAR_UNINIT)
`)
	require.False(t, errs.HasErrors(), errs.Quoted())
	m, errs := datalog.Analyze(prog)
	require.False(t, errs.HasErrors(), errs.Quoted())
	p, errs := rules.Compile(m)
	require.False(t, errs.HasErrors(), errs.Quoted())
	dom := rules.NewDomain()
	for i := range x.Events {
		dom.Intern(rules.Value{Kind: rules.KindHost, Str: fmt.Sprintf("e%d", i)})
	}
	inst := p.NewInstance(dom)
	f := New(m)
	size := func(name string) int {
		n, err := inst.Size(name)
		require.NoError(t, err)
		return n
	}

	require.NoError(t, f.Fill(inst, x))
	require.Equal(t, 2, size("rf"))
	require.Positive(t, size("bar"), "the two threads meet at the barrier")
	po := size("po")

	partial := x.Clone()
	reads := 0
	for i, w := range partial.RF {
		if w >= 0 {
			reads++
			if reads == 2 {
				partial.RF[i] = -1 // the second read is not chosen yet
			}
		}
	}
	require.NoError(t, f.FillPartial(inst, partial))
	assert.Equal(t, 1, size("rf"), "only the pair chosen so far")
	assert.Zero(t, size("bar"), "barrier groups depend on values")
	assert.Zero(t, size("cbar"))
	assert.Zero(t, size("MBAR_UNINIT"))
	assert.Equal(t, po, size("po"), "the runs' relations are whole")

	require.NoError(t, f.Fill(inst, x))
	assert.Equal(t, 2, size("rf"))
	assert.Positive(t, size("bar"))
	assert.ElementsMatch(t, []string{"rf", "bar", "cbar", "MBAR_UNINIT", "NOCOMPLETE_COMPLETES", "MBAR_PENDING_OVER"}, catalog.ChoiceRelations())
	assert.False(t, PartialIsWhole(x), "its barrier group is left out of a partial fill")
	assert.True(t, PartialIsWhole(firstCandidate(t, `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1)
`)), "nothing depends on values")
}

// TestChoiceRelationMatchesTheList: the test Fill applies to every input
// names exactly the relations of ChoiceRelations.
func TestChoiceRelationMatchesTheList(t *testing.T) {
	list := catalog.ChoiceRelations()
	for _, e := range catalog.Entries() {
		assert.Equal(t, slices.Contains(list, e.Name), choiceRelation(e.Name), e.Name)
	}
	for _, name := range list {
		_, ok := catalog.Lookup(name)
		assert.True(t, ok, "%s is a catalog relation", name)
	}
}

// TestChoicesVarying: ChoicesVarying names the choice relations a test's
// combination of runs may fill, and every candidate leaves the others
// empty.
func TestChoicesVarying(t *testing.T) {
	tests := []struct {
		name, src string
		want      []string
	}{
		{"reads only", `PTX MP
{ x=0; y=0; }
P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
st.weak x, 1   | ld.weak r0, y  ;
st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1)
`, []string{"rf"}},
		{"no reads", `PTX W
{ x=0; }
P0@cta 0,gpu 0 ;
st.weak x, 1   ;
exists (x == 1)
`, nil},
		{"a barrier", `PTX Bar
{ x=0; }
P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
st.weak x, 1   | bar.cta.sync 0 ;
bar.cta.sync 0 | ld.weak r0, x  ;
exists (P1:r0 == 1)
`, []string{"rf", "bar", "cbar"}},
		{"an mbarrier", `PTX MBar
{ x @ shared = 0; b @ mbarrier 1; }
P0@cta 0,gpu 0    | P1@cta 0,gpu 0          ;
st.shared x, 1    | mbarrier.try_wait r0, b ;
mbarrier.arrive b | ld.shared r1, x         ;
exists (P1:r1 == 1)
`, []string{"rf"}}, // every write of b holds an mbarrier state
		{"an mbarrier it inits", `PTX MBarInit
{ x @ shared = 0; b @ shared = 0; }
P0@cta 0,gpu 0    | P1@cta 0,gpu 0          ;
mbarrier.init b, 1 | mbarrier.try_wait r0, b ;
mbarrier.arrive b | ld.shared r1, x         ;
exists (P1:r1 == 1)
`, []string{"rf", "MBAR_UNINIT"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			test, err := litmus.ParseHerd("t.litmus", []byte(tc.src))
			require.NoError(t, err)
			a, err := execution.Prepare(test, execution.DefaultOptions())
			require.NoError(t, err)
			n := 0
			_, err = a.Enumerate(0, func(x *execution.Execution) bool {
				n++
				got := ChoicesVarying(x)
				assert.Equal(t, tc.want, got)
				if !slices.Contains(got, "bar") {
					for _, g := range x.BarGroups {
						assert.Less(t, len(g), 2, "bar")
					}
				}
				if !slices.Contains(got, "cbar") {
					for _, ph := range x.ClusterPhases {
						assert.False(t, len(ph.Arrives) > 0 && len(ph.Waits) > 0, "cbar")
					}
				}
				if !slices.Contains(got, "MBAR_UNINIT") {
					for i := range x.Events {
						assert.False(t, readsUninitMBar(&x.Events[i]), "MBAR_UNINIT")
					}
				}
				return true
			})
			require.NoError(t, err)
			require.Positive(t, n)
		})
	}
}
