package fill

import (
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/relations"
)

// setMembers lists the events of a filled catalog set by their labels
// (without the thread).
func setMembers(x *execution.Execution, name string) []string {
	s := relations.NewSet(len(x.Events))
	fillSet(s, name, x)
	var out []string
	for i := range x.Events {
		if s.Has(i) {
			l := x.Label(i)
			out = append(out, l[strings.Index(l, ":")+1:])
		}
	}
	return out
}

// TestFillMultimem checks a multimem instruction's events: one per
// location, through the multimem address, in no program order among
// themselves but in program order with the thread's other instructions;
// and the sets that make misuse undefined.
func TestFillMultimem(t *testing.T) {
	x := firstCandidate(t, `PTX T
{ x = 1; y = 2; m @ multimem x, y; }
 P0@cta 0,gpu 0 ;
 st m, 5 ;
 multimem.st m, 3 ;
 multimem.red.add m, 1 ;
exists (x == 1)
`)
	r := relations.NewRel(len(x.Events))
	fillRel(r, "po", x)
	po := withoutValues(pairs(x, r))
	st, red := "multimem.st m, 3", "multimem.red.add m, 1"
	require.Contains(t, po, "st m, 5 -> "+st+" [write x]")
	require.Contains(t, po, "st m, 5 -> "+st+" [write y]")
	require.Contains(t, po, st+" [write y] -> "+red+" [read x]")
	require.Contains(t, po, red+" [read x] -> "+red+" [write x]", "a location's red keeps its read before its write")
	for _, unordered := range []string{
		st + " [write x] -> " + st + " [write y]",
		red + " [read x] -> " + red + " [read y]",
		red + " [write x] -> " + red + " [read y]",
	} {
		require.NotContains(t, po, unordered)
	}
	require.Len(t, po, 7*6/2-5, "7 events; the multimem instructions leave 1 + 4 pairs unordered")

	loc := relations.NewRel(len(x.Events))
	fillRel(loc, "vaddr", x)
	vaddr := withoutValues(pairs(x, loc))
	require.Contains(t, vaddr, st+" [write x] -> "+red+" [read x]", "the same virtual address m and location x")
	require.NotContains(t, vaddr, "x -> "+st+" [write x]", "the initial write uses x's own address")

	require.Equal(t, []string{st + " [write x]", st + " [write y]", red + " [read x]", red + " [write x]", red + " [read y]", red + " [write y]"}, withoutValues(setMembers(x, "MULTIMEM")))
	require.Equal(t, append([]string{"st m, 5"}, setMembers(x, "MULTIMEM")...), setMembers(x, "MULTIMEM_ADDR"))
	require.Contains(t, withoutValues(setMembers(x, "RED")), red+" [write y]")
}

// withoutValues drops the values from event labels, which depend on the
// candidate: "[write x =3]" becomes "[write x]", "x=1" becomes "x".
func withoutValues(labels []string) []string {
	out := make([]string, len(labels))
	for i, l := range labels {
		out[i] = valueRE.ReplaceAllString(l, "")
	}
	return out
}

var valueRE = regexp.MustCompile(` ?=-?[0-9]+`)

// TestFillOutsideSpace checks which accesses through registers fall
// outside the window of the state space they name.
func TestFillOutsideSpace(t *testing.T) {
	x := firstCandidate(t, `PTX T
{ g = 0; s @ shared = 0; P0:rg = g; P0:rs = s; }
 P0@cta 0,cluster 0,gpu 0        | P1@cta 1,cluster 0,gpu 0 ;
 ld.shared r0, [rg]              | ld r9, s                 ;
 ld.global r1, [rs]              |                          ;
 ld.shared::cta r2, [rs]         |                          ;
 mapa.shared::cluster r3, s, 1   |                          ;
 ld.shared::cta r4, [r3]         |                          ;
 ld.shared::cluster r5, [r3]     |                          ;
 ld r6, [r3]                     |                          ;
 ld.global r7, [rg]              |                          ;
exists (g == 0)
`)
	require.Equal(t, []string{"ld.shared r0, [rg] =0", "ld.global r1, [rs] =0", "ld.shared::cta r4, [r3] =0"}, setMembers(x, "OUTSIDE_SPACE"))
}

// TestFillProxyFenceWindow checks which memory events each proxy fence's
// state space reaches: .shared::cta its own CTA's copy only,
// .shared::cluster every copy of its cluster, .global global memory, and
// a fence without a space every memory event.
func TestFillProxyFenceWindow(t *testing.T) {
	x := firstCandidate(t, `PTX T
{ g = 0; s @ shared = 0; }
 P0@cta 0,cluster 0,gpu 0          | P1@cta 1,cluster 0,gpu 0 ;
 mapa.shared::cluster r1, s, 1     | st.shared s, 2           ;
 st.shared::cluster [r1], 1        |                          ;
 st.shared s, 3                    |                          ;
 st g, 4                           |                          ;
 fence.proxy.async.shared::cta     |                          ;
 fence.proxy.async.shared::cluster |                          ;
 fence.proxy.async.global          |                          ;
 fence.proxy.async                 |                          ;
exists (g == 0)
`)
	r := relations.NewRel(len(x.Events))
	fillRel(r, "pf_window", x)
	reached := map[string][]string{}
	for i := range x.Events {
		for j := range x.Events {
			if r.Has(i, j) {
				f := x.Label(i)
				reached[f] = append(reached[f], x.Label(j))
			}
		}
	}
	own := []string{"P0:st.shared s, 3"}
	remote := []string{"P0:st.shared::cluster [r1], 1", "P1:st.shared s, 2"}
	global := []string{"P0:st g, 4"}
	for fence, want := range map[string][]string{
		"P0:fence.proxy.async.shared::cta":     own,
		"P0:fence.proxy.async.shared::cluster": append(append([]string{}, own...), remote...),
		"P0:fence.proxy.async.global":          global,
		"P0:fence.proxy.async":                 append(append(append([]string{}, own...), remote...), global...),
	} {
		var got []string
		for _, l := range reached[fence] {
			if !strings.Contains(l, "init") && strings.Contains(l, ":") {
				got = append(got, l)
			}
		}
		require.ElementsMatch(t, want, withoutValues(got), fence)
	}
	require.Len(t, reached, 4, "only proxy fences reach anything")
}

// TestFillOutsideSpaceAsync checks the asynchronous instructions whose
// pages make an address outside the executing CTA's shared memory
// undefined: the mbarrier of cp.async.mbarrier.arrive and the destination
// of cp.async (a copy's source read and a .shared::cluster destination are
// not checked by these sentences).
func TestFillOutsideSpaceAsync(t *testing.T) {
	x := firstCandidate(t, `PTX T
{ g = 1; s @ shared = 0; u @ shared = 0; b @ mbarrier 1; }
 P0@cta 0,cluster 0,gpu 0             | P1@cta 1,cluster 0,gpu 0 ;
 mapa.shared::cluster r1, s, 1        | ld r9, s                 ;
 mapa.shared::cluster r2, b, 1        |                          ;
 cp.async.ca.shared.global [r1], g, 4 |                          ;
 cp.async.ca.shared.global u, g, 4    |                          ;
 cp.async.mbarrier.arrive.noinc [r2]  |                          ;
 cp.async.mbarrier.arrive.noinc b     |                          ;
exists (g == 1)
`)
	require.Equal(t, []string{
		"cp.async.ca.shared.global [r1], g, 4 [write s@gpu0.cta1]",
		"cp.async.mbarrier.arrive.noinc [r2] [arrive-on b@gpu0.cta1: reads mbar(phase,pending,tx)]",
		"cp.async.mbarrier.arrive.noinc [r2] [arrive-on b@gpu0.cta1: writes mbar(phase,pending,tx)]",
	}, withoutValues(setMembers(x, "OUTSIDE_SPACE")))
}
