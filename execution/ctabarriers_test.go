package execution

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/oraclecases"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// candidateTrace enumerates every candidate of a and describes each (its
// runs, reads-from and barrier groups) in enumeration order, with the
// search's statistics.
func candidateTrace(t *testing.T, a *Analysis) ([]string, Stats) {
	t.Helper()
	var out []string
	st, err := a.Enumerate(0, func(x *Execution) bool {
		out = append(out, fmt.Sprint(x.Combo, x.RF, x.BarGroups, x.ClusterPhases))
		return true
	})
	require.NoError(t, err)
	return out, st
}

// TestCTABarriersSkipExactly: the combinations of runs skipped for their
// CTAs' barriers are exactly some of those without a candidate: the
// candidates, in order, are those of the search building every
// combination, and the grid barrier's combinations without a grouping
// are skipped.
func TestCTABarriersSkipExactly(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		skipped bool // some combination must be skipped
	}{
		{"grid barrier of 2 CTAs of 2", `PTX GB
{ count=0; gen=0; d0=0; d1=0; d2=0; d3=0; }
 P0@cta 0,gpu 0                    | P1@cta 0,gpu 0 | P2@cta 1,gpu 0                    | P3@cta 1,gpu 0 ;
 st.weak d0, 1                     | st.weak d1, 1  | st.weak d2, 1                     | st.weak d3, 1  ;
 bar.sync 0                        | bar.sync 0     | bar.sync 0                        | bar.sync 0     ;
 atom.acq_rel.gpu.add r0, count, 1 |                | atom.acq_rel.gpu.add r0, count, 1 |                ;
 bne r0, 1, W0                     |                | bne r0, 1, W1                     |                ;
 st.release.gpu gen, 1             |                | st.release.gpu gen, 1             |                ;
 goto B0                           |                | goto B1                           |                ;
 W0:                               |                | W1:                               |                ;
 ld.acquire.gpu r1, gen            |                | ld.acquire.gpu r1, gen            |                ;
 beq r1, 0, W0                     |                | beq r1, 0, W1                     |                ;
 B0:                               |                | B1:                               |                ;
 bar.sync 0                        | bar.sync 0     | bar.sync 0                        | bar.sync 0     ;
 ld.weak r2, d2                    | ld.weak r2, d3 | ld.weak r2, d0                    | ld.weak r2, d1 ;
exists (P0:r2 == 0)
`, true},
		{"barrier count read from memory", `PTX BC
{ n=2; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 | P3@cta 1,gpu 0 ;
 ld.weak r0, n  | ld.weak r0, n  | bar.sync 0     | bar.sync 0     ;
 bar.sync 0, r0 | bar.sync 0, r0 |                |                ;
exists (P0:r0 == 2)
`, false},
		{"one CTA", `PTX ONE
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 ld.weak r0, x  | st.weak x, 1   ;
 beq r0, 1, L   | bar.sync 0     ;
 bar.sync 0     |                ;
 L:             |                ;
exists (P0:r0 == 0)
`, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc := herd(t, c.src)
			a := prepare(t, tc, opts(2, true))
			got, gotSt := candidateTrace(t, a)
			a.wholeCombos = true
			want, wantSt := candidateTrace(t, a)
			require.Equal(t, want, got)
			require.Equal(t, wantSt.Candidates, gotSt.Candidates)
			if c.skipped {
				require.Less(t, gotSt.Combinations, wantSt.Combinations, "no combination was skipped")
			} else {
				require.Equal(t, wantSt.Combinations, gotSt.Combinations)
			}
		})
	}
}

// TestCTABarriersMatchWholeCombos: on random tests with barriers over
// several CTAs (PTXMM_ORACLE_CASES of each shape), the skip leaves the
// candidates and their order as they are, with the probe runs too.
func TestCTABarriersMatchWholeCombos(t *testing.T) {
	n := oraclecases.Count(t, 200)
	if testing.Short() {
		n /= 10
	}
	shapes := []families.RandomShape{
		{Threads: 4, Locations: 2, Instrs: 3, CTAs: 2, Barriers: true, BarriersEveryCTA: true},
		{Threads: 4, Locations: 2, Instrs: 3, CTAs: 2, Barriers: true, BarriersEveryCTA: true, Spins: true},
		{Threads: 5, Locations: 2, Instrs: 2, CTAs: 3, Barriers: true, BarriersEveryCTA: true, Spins: true},
	}
	skipped := 0
	oraclecases.EachRandom(t, 7_000_000, n, shapes, func(c oraclecases.Random) {
		a, err := Prepare(c.Test, opts(2, true))
		if err != nil {
			return // an enumeration error, the same either way
		}
		for _, an := range []*Analysis{a, a.WithProbes()} {
			if an.Choices(1<<14) >= 1<<14 {
				continue // too big to compare quickly
			}
			got, gotSt := candidateTrace(t, an)
			an.wholeCombos = true
			want, wantSt := candidateTrace(t, an)
			require.Equal(t, want, got, "seed %d:\n%s", c.Seed, c.Src)
			require.Equal(t, wantSt.Candidates, gotSt.Candidates, "seed %d", c.Seed)
			if gotSt.Combinations < wantSt.Combinations {
				skipped++
			}
		}
	})
	t.Logf("%d tests, %d searches with combinations skipped", len(shapes)*n, skipped)
	if n >= 100 {
		require.NotZero(t, skipped, "no random test had a combination skipped")
	}
}
