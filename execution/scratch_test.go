package execution

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus/families"
)

// TestScratchReusedAcrossTests searches tests of different sizes one
// after the other with one Scratch, as a checker's worker does, whole and
// split into parts: each yields the candidates a search without it
// yields, the events array is the one the last search gave back when it
// is big enough, and what it gives back points to nothing.
func TestScratchReusedAcrossTests(t *testing.T) {
	srcs := []string{families.MPPayload(3), mpSrc, families.CoWRThreads(3), mpSrc, families.MPPayload(3)}
	var sc Scratch
	for i, src := range srcs {
		a := prepare(t, herd(t, src), DefaultOptions())
		want := collect(t, a)
		require.NotEmpty(t, want)
		lent := sc.events
		var got []*Execution
		reused := false
		_, err := a.Search(Search{Scratch: &sc}, func(x *Execution) bool {
			if cap(lent) >= len(x.Events) && len(x.Events) > 0 {
				reused = reused || unsafe.SliceData(x.Events) == unsafe.SliceData(lent)
			}
			got = append(got, x.Clone())
			return true
		})
		require.NoError(t, err)
		require.Equal(t, want, got, "test %d, whole", i)
		if cap(lent) >= len(want[0].Events) {
			require.True(t, reused, "test %d: the lent array was used", i)
		}
		for _, e := range sc.events[:cap(sc.events)] {
			require.Zero(t, e, "test %d: the array given back keeps nothing", i)
		}
		got = got[:0]
		for _, p := range a.Split(2) {
			_, err := a.Search(Search{Part: &p, Scratch: &sc}, func(x *Execution) bool { got = append(got, x.Clone()); return true })
			require.NoError(t, err)
		}
		require.Equal(t, want, got, "test %d, in parts", i)
	}
}
