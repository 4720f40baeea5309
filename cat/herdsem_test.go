package cat_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
)

// states checks a PTX test with cat text and returns its verdict and
// final states, each written "k=v; ..." and sorted.
func states(t *testing.T, src, test string) (string, []string) {
	t.Helper()
	low, errs := cat.LoadSource("t.cat", src, cat.Options{})
	require.False(t, errs.HasErrors(), "%s\n%s", src, errs.Error())
	m, err := checker.BuildModel("t.cat", low.Program, nil)
	require.NoError(t, err, src)
	tc := herd(t, test)
	r := m.Check(tc, checker.DefaultOptions())
	require.NoError(t, r.Err, src)
	var out []string
	for _, s := range r.States {
		out = append(out, strings.TrimSpace(checker.FormatState(tc, r.Layout, r.Observables, s)))
	}
	sort.Strings(out)
	return r.Verdict, out
}

// lbRMW is load buffering through an atomic increment: P1's atom reads
// P0's store and P2 reads the atom's write.
const lbRMW = `PTX LB+RMW
{ x=0; y=0; }
 P0@cta 0,gpu 0          | P1@cta 1,gpu 0                   | P2@cta 2,gpu 0           ;
 ld.acquire.gpu r0, y    | atom.relaxed.gpu.add r1, x, 1    | ld.relaxed.gpu r2, x     ;
 st.weak x, 1            |                                  | st.release.gpu y, 1      ;
exists (P0:r0 == 1 /\ P1:r1 == 1 /\ P2:r2 == 2)`

// TestHerdProgramOrder: herd7's po relates events of different
// instructions only, so under a model without an atomicity axiom the
// read and write of an atom may sit apart in a cycle of po, rf, co and fr
// (herd7 7.57 allows LB+RMW's outcome under sc.cat's order axiom). A model
// whose first line names PTX reads the catalog's po, which orders them,
// as Dartagnan's models expect.
func TestHerdProgramOrder(t *testing.T) {
	const order = "let fr = rf^-1 ; co\nacyclic po | rf | co | fr as sc\n"
	v, _ := states(t, "\"herd\"\n"+order, lbRMW)
	require.Equal(t, "Ok", v, "herd7's po leaves the atom's read and write unordered")
	v, _ = states(t, "PTX\n"+order, lbRMW)
	require.Equal(t, "No", v, "the catalog's po orders them")
}

// coww: two writes of one thread to x.
const coww = `PTX CoWW
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.weak x, 1   ;
 st.weak x, 2   ;
exists (x == 1)`

// TestHerdFinalWrites: herd7 chooses a location's final write (FW)
// before the model runs, and co0 puts every other write before it; a
// model that computes its own, partial, coherence from co0 (as
// herd7's coscat.cat does) and checks nothing allows either write to be
// the last (herd7 7.57 gives x=1 and x=2 for CoWW under coscat.cat),
// while uniproc's check keeps x=2 only.
func TestHerdFinalWrites(t *testing.T) {
	const partial = "let rec u = po-loc | rf | co0 | (u ; u)\nlet co = u & (W * W)\n"
	v, st := states(t, partial, coww)
	require.Equal(t, "Ok", v)
	require.Equal(t, []string{"x=1;", "x=2;"}, st)
	_, st = states(t, partial+"acyclic po-loc | rf | co | (rf^-1 ; co) as uniproc\n", coww)
	require.Equal(t, []string{"x=2;"}, st)
	// FW is one write per location: the initial write when there is no
	// other.
	v, _ = states(t, "empty (FW * FW) & loc & ~id as one-final\nempty FW & IW as init-not-final\n", coww)
	require.Equal(t, "Ok", v)
}
