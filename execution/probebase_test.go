package execution

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBases: each probe run's bases are the runs of its path that pass
// each await at once: its events without the failed iterations', and its
// status (a probe that spins after failing is based on the run spinning
// at once).
func TestBases(t *testing.T) {
	tc := herd(t, `PTX spin-two-loads
{ x=0; y=0; }
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;
 st.relaxed.gpu y, 1  | L:                   ;
                      | ld.relaxed.gpu r1, x ;
                      | ld.relaxed.gpu r0, y ;
                      | bne r0, 1, L         ;
exists (P1:r1 == 0)
`)
	o := opts(2, true)
	o.Probes, o.PlainSpins, o.ProbeDepth = true, true, 2
	a := prepare(t, tc, o)
	require.Empty(t, a.Probes[0], "P0 has no await")
	require.NotEmpty(t, a.Probes[1])
	bases := a.Bases()
	require.Len(t, bases[1], len(a.Probes[1]))
	for i, p := range a.Probes[1] {
		require.Len(t, bases[1][i], 1, "probe %d", i)
		base := a.Runs[1][bases[1][i][0]]
		assert.Equal(t, p.Status, base.Status, "probe %d", i)
		assert.False(t, base.Probe)
		// Two events per iteration (the two loads): the probe has as many
		// more as its failed iterations.
		assert.Len(t, p.Events, len(base.Events)+2*p.FailedIters, "probe %d", i)
		assert.Len(t, p.Failed, 2*p.FailedIters, "probe %d", i)
	}
	// Both kinds of probe are there, each based on a run of its status.
	statuses := map[RunStatus]bool{}
	for _, p := range a.Probes[1] {
		statuses[p.Status] = true
	}
	assert.Equal(t, map[RunStatus]bool{Finished: true, Spinning: true}, statuses)
}

// TestFailedOncePerEvent: a read-only loop around an await fails with
// its inner await's failed iterations inside its own; a probe lists each
// failed event once, in order, and every one is an event of the probe.
func TestFailedOncePerEvent(t *testing.T) {
	tc := herd(t, `PTX nested-awaits
{ x=0; y=0; }
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;
 st.relaxed.gpu x, 1  | O:                   ;
 st.relaxed.gpu y, 1  | I:                   ;
                      | ld.relaxed.gpu r0, x ;
                      | beq r0, 0, I         ;
                      | ld.relaxed.gpu r1, y ;
                      | beq r1, 0, O         ;
exists (P1:r1 == 1)
`)
	o := opts(3, true)
	o.Probes, o.PlainSpins, o.ProbeDepth = true, true, 3
	a := prepare(t, tc, o)
	nested := 0
	for i, p := range a.Probes[1] {
		for j, e := range p.Failed {
			require.Less(t, e, len(p.Events), "probe %d", i)
			if j > 0 {
				require.Less(t, p.Failed[j-1], e, "probe %d lists its failed events out of order or twice: %v", i, p.Failed)
			}
		}
		// An outer failure after an inner one: the inner iteration's
		// read of x is in both, listed once.
		if p.FailedIters >= 2 && len(p.Failed) < 2*p.FailedIters {
			nested++
		}
	}
	require.NotZero(t, nested, "no probe fails the outer loop after failing the inner one")
}
