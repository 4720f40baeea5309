package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestWarpSyncParse(t *testing.T) {
	src := "PTX W\n{ x=0; }\n P0@cta 0,gpu 0,warp 1,lane 0 | P1@cta 0,lane 2,gpu 0 ;\n st x, 1 | bar.warp.sync 0x5 ;\n bar.warp.sync 0x5 | ld r0, x ;\nexists (P1:r0 == 1)\n"
	test, err := ParseHerd("w.litmus", []byte(src))
	require.NoError(t, err)
	p0, p1 := test.Threads[0], test.Threads[1]
	assert.Equal(t, []int{1, 0}, []int{p0.Warp, p0.Lane})
	assert.Equal(t, []int{0, 2}, []int{p1.Warp, p1.Lane})
	assert.True(t, p0.LaneNamed && p1.LaneNamed)
	in := p0.Instrs[1]
	assert.Equal(t, OpBarrier, in.Op)
	assert.True(t, in.BarWarp)
	assert.Equal(t, BarSync, in.BarKind)
	assert.Equal(t, int64(5), in.Instance.Imm)
	assert.Equal(t, OperandNone, in.Count.Kind, "no count: the mask's threads that have not exited meet")
}

func TestWarpSyncNVLanes(t *testing.T) {
	src := ".global x;\nd0.b0.t33 {\n  st [x], 1;\n}\nd0.b0.t1 {\n  ld r0, [x];\n}\nassert (r0 == 0) as a;\n"
	tests, err := ParseNV("w.test", []byte(src))
	require.NoError(t, err)
	th := tests[0].Threads
	assert.Equal(t, []int{1, 1}, []int{th[0].Warp, th[0].Lane}, "t33 is lane 1 of warp 1")
	assert.Equal(t, []int{0, 1}, []int{th[1].Warp, th[1].Lane})
}

// Lanes change the hash only of tests that use bar.warp.sync: a test that
// names lanes and does not keeps the hash it has without them.
func TestWarpSyncHash(t *testing.T) {
	parse := func(src string) *Test {
		test, err := ParseHerd("h.litmus", []byte(src))
		require.NoError(t, err)
		return test
	}
	plain := parse("PTX H\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n st x, 1 | ld r0, x ;\nexists (P1:r0 == 1)\n")
	laned := parse("PTX H\n{ x=0; }\n P0@cta 0,gpu 0,lane 0 | P1@cta 0,gpu 0,lane 1 ;\n st x, 1 | ld r0, x ;\nexists (P1:r0 == 1)\n")
	assert.Equal(t, Hash(plain), Hash(laned))
	w01 := parse("PTX H\n{ x=0; }\n P0@cta 0,gpu 0,lane 0 | P1@cta 0,gpu 0,lane 1 ;\n bar.warp.sync 0x3 | bar.warp.sync 0x3 ;\nexists (x == 1)\n")
	w10 := parse("PTX H\n{ x=0; }\n P0@cta 0,gpu 0,lane 1 | P1@cta 0,gpu 0,lane 0 ;\n bar.warp.sync 0x3 | bar.warp.sync 0x3 ;\nexists (x == 1)\n")
	assert.NotEqual(t, Hash(w01), Hash(w10))
}
