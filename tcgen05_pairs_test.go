package ptxmm_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/litmus"
)

// TestTcgen05Pipelines checks every pipelined pair of 9.7.16.6.2, the
// implicit pipelines of 9.7.16.6.2.1, and pairs that are not pipelined, for
// the ordering they must and must not give. Each case is one thread issuing
// two tcgen05 instructions; the condition holds exactly when the second
// sees tensor memory as it was before the first (or the first overwrites
// the second's effect), which the pipeline forbids; the accesses of an
// ordered pair are no data race, those of an unordered one are.
func TestTcgen05Pipelines(t *testing.T) {
	const decls = "t @ tmem = 1; d @ tmem = 0; a @ shared = 2; b @ shared = 3; s @ shared = 4; bar @ mbarrier 1;"
	cases := []struct {
		name    string
		code    []string
		cond    string
		ordered bool // the condition is then never met
	}{
		// 9.7.16.6.2, the five pipelined pairs (same N).
		{"mma -> mma, same N, accumulator, shape", []string{"tcgen05.mma d, a, b", "tcgen05.mma d, a, b, 1"}, "d != 10", true},
		{"cp -> mma", []string{"tcgen05.cp t, s", "tcgen05.mma d, t, a"}, "d != 6", true},
		{"shift -> mma", []string{"tcgen05.shift.down t", "tcgen05.mma t, a, b"}, "t == 1", true},
		{"shift -> cp.4x256b", []string{"tcgen05.shift.down t", "tcgen05.cp.4x256b t, s"}, "t == 1", true},
		{"mma -> shift", []string{"tcgen05.mma t, a, b", "tcgen05.shift.down t"}, "t == 1", true},
		// The same pairs without what pipelining requires.
		{"mma -> mma, different N", []string{"tcgen05.mma.cta_group::1 d, a, b", "tcgen05.mma.cta_group::2 d, a, b, 1"}, "d != 10", false},
		{"mma -> mma, different shape", []string{"tcgen05.mma.kind::f16 d, a, b", "tcgen05.mma.kind::tf32 d, a, b, 1"}, "d != 10", false},
		{"mma -> mma, different accumulator", []string{"tcgen05.mma d, a, b", "tcgen05.mma t, d, a"}, "t != 7", false},
		{"cp -> mma, different N", []string{"tcgen05.cp.cta_group::2 t, s", "tcgen05.mma d, t, a"}, "d != 6", false},
		{"shift -> cp with another shape", []string{"tcgen05.shift.down t", "tcgen05.cp.128x256b t, s"}, "t == 1", false},
		// Pairs that are no pipeline at all (9.7.16.6.1).
		{"st -> ld", []string{"tcgen05.st t, 7", "tcgen05.ld r0, t"}, "0:r0 != 7", false},
		{"ld -> st", []string{"tcgen05.ld r0, t", "tcgen05.st t, 7"}, "0:r0 == 7", false},
		{"st -> st", []string{"tcgen05.st t, 7", "tcgen05.st t, 8"}, "t == 7", false},
		{"mma -> cp", []string{"tcgen05.mma t, a, b", "tcgen05.cp t, s"}, "t == 5", false},
		{"ld -> mma", []string{"tcgen05.ld r0, t", "tcgen05.mma t, a, b"}, "0:r0 == 5", false},
		{"st -> mma", []string{"tcgen05.st t, 9", "tcgen05.mma d, t, a"}, "d != 11", false},
		// 9.7.16.6.2.1: the implicitly pipelined waits.
		{"st -> wait::st -> ld", []string{"tcgen05.st t, 7", "tcgen05.wait::st", "tcgen05.ld r0, t"}, "0:r0 != 7", true},
		{"ld -> wait::ld -> st", []string{"tcgen05.ld r0, t", "tcgen05.wait::ld", "tcgen05.st t, 7"}, "0:r0 == 7", true},
		{"wait::ld does not wait for st", []string{"tcgen05.st t, 7", "tcgen05.wait::ld", "tcgen05.ld r0, t"}, "0:r0 != 7", false},
		{"wait::st does not wait for mma", []string{"tcgen05.mma t, a, b", "tcgen05.wait::st", "tcgen05.ld r0, t"}, "0:r0 != 5", false},
		// 9.7.16.6.2.1.1: mma -> commit, completion observed through the mbarrier.
		{"mma -> commit -> wait", []string{"tcgen05.mma t, a, b", "tcgen05.commit.mbarrier::arrive::one bar", "L:",
			"mbarrier.try_wait.relaxed.cluster r1, bar", "bne r1, 1, L", "tcgen05.fence::after_thread_sync", "tcgen05.ld r0, t"}, "0:r0 != 5", true},
		{"commit of another N", []string{"tcgen05.mma.cta_group::2 t, a, b", "tcgen05.commit.mbarrier::arrive::one bar", "L:",
			"mbarrier.try_wait.relaxed.cluster r1, bar", "bne r1, 1, L", "tcgen05.fence::after_thread_sync", "tcgen05.ld r0, t"}, "0:r0 != 5", false},
	}
	pm, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := "PTX T\n{ " + decls + " }\n P0@cta 0,cluster 0,gpu 0 ;\n"
			for _, line := range c.code {
				src += " " + line + " ;\n"
			}
			src += "exists (" + c.cond + ")\n"
			test, err := litmus.ParseHerd("t.litmus", []byte(src))
			require.NoError(t, err, src)
			r := pm.Check(test)
			require.NoError(t, r.Err)
			want := "Ok"
			if c.ordered {
				want = "No"
			}
			require.Equal(t, want, r.Verdict, "%s\n%v", src, r.States)
			// Tensor-memory accesses the pair orders are no data race
			// (docs/model.md, "tcgen05"); unordered ones race.
			raced := false
			for _, f := range r.Flags {
				raced = raced || f.Name == "data_race"
			}
			require.Equal(t, !c.ordered, raced, "Flag data_race\n%s", src)
		})
	}
}
