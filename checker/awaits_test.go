package checker

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// spinMP is message passing where the reader spins on the flag: an await.
const spinMP = `PTX MP+spin
{ x=0; y=0; }
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0       ;
 st.weak x, 1         | L:                   ;
 st.release.gpu y, 1  | ld.acquire.gpu r0, y ;
                      | beq r0, 0, L         ;
                      | ld.weak r1, x        ;
exists (P1:r1 == 0)
`

// TestAwaitsNote: an await is decided as one iteration under the PTX
// model, with no note; a model that is not event-monotone gets its failed
// iterations unrolled, and one without a coherence order no termination,
// each with a note that says why.
func TestAwaitsNote(t *testing.T) {
	cases := []struct {
		name  string
		model *Model
		note  string
		loop  bool
	}{
		{name: "PTX model", model: spec(t)},
		{name: "not event-monotone", model: loadModel(t, "testdata", "reads-followed.dl"), loop: true,
			note: "failed iterations of awaits are unrolled (-unroll), not left out: in the model, lonely reads followed through a negation"},
		{name: "no coherence order", model: loadModel(t, "testdata", "po-rf.dl"),
			note: "whether an await polling memory waits for ever is not decided: the model defines no relation co"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := c.model.Check(herd(t, spinMP), DefaultOptions())
			require.NoError(t, r.Err)
			assert.Equal(t, c.loop, r.Loop, "Loop")
			if c.note == "" {
				assert.Empty(t, r.Awaits)
				return
			}
			assert.Contains(t, r.Awaits, c.note)
		})
	}
	// A test without awaits has no note, whatever the model.
	r := loadModel(t, "testdata", "po-rf.dl").Check(herd(t, "PTX W\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n"), DefaultOptions())
	require.NoError(t, r.Err)
	assert.Empty(t, r.Awaits)
}

// TestSpecFlagsPersist: every flag of the PTX model keeps its witnesses
// when events are removed, so that the flags a failed await iteration may
// raise are looked for with at most two failed iterations (probes.go).
func TestSpecFlagsPersist(t *testing.T) {
	p := spec(t).Program
	for _, c := range p.Flags() {
		assert.True(t, p.FlagPersists(c.Name), c.Name)
	}
	assert.Equal(t, 2, probeDepth([]*modelRun{{m: spec(t)}}))
}

// tmaRemoteLoop is a spin loop on an mbarrier that another CTA's bulk copy
// completes, its destination and mbarrier reached through mapa registers
// (examples/async/TMA-remote-loop-*); POLL, EXIT and MBAR are replaced by
// the case's poll, the value it exits on and the copy's mbarrier operand.
const tmaRemoteLoop = `PTX TMA-remote-loop
{ g = 7; s @ shared = 0; full @ mbarrier 1; }
 P0@cta 0,cluster 0,gpu 0           | P1@cta 1,cluster 0,gpu 0 ;
 mbarrier.arrive.expect_tx full, 16 | mapa.shared::cluster r1, s, 0 ;
 L:                                 | mapa.shared::cluster r2, full, 0 ;
 POLL                               | cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [r1], g, 16, MBAR ;
 bne r0, EXIT, L                    | ;
 ld.shared r3, s                    | ;
exists (P0:r3 != 7)
`

// TestAwaitThroughMapa: a copy whose destination is a mapa register
// reaches that register's address only, so a loop polling an mbarrier is
// an await (decided as one iteration, its hang reported) while a loop
// polling the copy's destination is not (unrolled, to show its race).
func TestAwaitThroughMapa(t *testing.T) {
	cases := []struct {
		name, poll, exit string
		mbar             string
		verdict          string
		loop             bool
		hangs            int
	}{
		{name: "remote mbarrier", poll: "mbarrier.try_wait r0, full", exit: "1", mbar: "[r2]", verdict: "Undef"},
		{name: "cluster wait", poll: "mbarrier.try_wait.acquire.cluster r0, full", exit: "1", mbar: "[r2]", verdict: "No"},
		{name: "issuer's mbarrier", poll: "mbarrier.try_wait r0, full", exit: "1", mbar: "full", verdict: "No", hangs: 1},
		{name: "polls the destination", poll: "ld.shared r0, s", exit: "7", mbar: "[r2]", verdict: "Undef", loop: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := strings.NewReplacer("POLL", c.poll, "EXIT", c.exit, "MBAR", c.mbar).Replace(tmaRemoteLoop)
			r := spec(t).Check(herd(t, src), DefaultOptions())
			require.NoError(t, r.Err)
			assert.Equal(t, c.verdict, r.Verdict)
			assert.Equal(t, c.loop, r.Loop, "Loop")
			assert.Equal(t, c.loop, r.Cut > 0, "Cut")
			assert.Equal(t, c.hangs, r.Hangs, "Hangs")
			if c.hangs > 0 {
				assert.Equal(t, []string{"P0: mbarrier.try_wait r0, full"}, r.Stuck)
			}
		})
	}
}
