package ptxgen

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

// TestGeometryPlacesEachInstanceOnce: for every test cluster, the
// permutations place each instance in exactly one (row, slot), and the
// kernel's inverse (Instance) finds it there; the location slots of the
// instances are distinct.
func TestGeometryPlacesEachInstanceOnce(t *testing.T) {
	tests, err := litmus.Parse("c.litmus", []byte(`PTX C
{ x = 0; y = 0; s @ shared = 0; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 | P2@cta 2,gpu 0 ;
 st x, 1                  | ld r0, x                 | ld r1, y       ;
 st.shared s, 1           |                          | st y, 1        ;
exists (P1:r0 == 0)
`), litmus.FormatHerd)
	require.NoError(t, err)
	p, err := NewPlan(tests[0])
	require.NoError(t, err)
	require.Equal(t, 2, p.ClusterSize)
	require.Len(t, p.Clusters, 2)
	for _, g := range []Geometry{
		{Rows: 7, Groups: 2, RowMul: 3, RowOff: 5, SlotMul: 5, SlotOff: 9, LocMul: 11, ClusterMul: 3, ClusterOff: 4, Stress: 2, LocStride: 32},
		{Rows: 1, Groups: 1, RowMul: 1, SlotMul: 1, LocMul: 1, ClusterMul: 1, LocStride: 16},
	} {
		require.NoError(t, g.Validate(p))
		for u := range p.Clusters {
			seen := map[[2]int]bool{}
			for i := 0; i < g.Instances(); i++ {
				logical, slot := g.Place(p, i, u)
				require.Equal(t, u, logical%len(p.Clusters))
				row := logical / len(p.Clusters)
				require.False(t, seen[[2]int{row, slot}], "two instances at row %d slot %d", row, slot)
				seen[[2]int{row, slot}] = true
				require.Equal(t, i, g.Instance(u, row, slot))
				pc := g.PhysicalCluster(p, logical)
				require.Equal(t, logical, (pc*g.ClusterMul+g.ClusterOff)%g.Clusters(p))
			}
		}
		offsets := map[int]bool{}
		for i := 0; i < g.Instances(); i++ {
			for q := range p.Globals {
				off := g.LocationOffset(p, i, q)
				require.False(t, offsets[off])
				require.Less(t, off, g.LocationBytes(p))
				offsets[off] = true
			}
		}
		got, bufs, err := ReadParams(p, g.Params(p, 1, 2, 3, 4))
		require.NoError(t, err)
		require.Equal(t, Buffers{1, 2, 3, 4}, bufs)
		require.Equal(t, g.Instances(), got.Instances())
		require.Equal(t, g.Stress, got.Stress)
	}
	bad := Geometry{Rows: 4, Groups: 1, RowMul: 2, SlotMul: 1, LocMul: 1, ClusterMul: 1, LocStride: 16}
	require.ErrorContains(t, bad.Validate(p), "row permutation")
}

// TestPlacement: threads of one CTA share a CTA in different warps, CTAs
// of one cluster share a cluster, and the results hold every register.
func TestPlacement(t *testing.T) {
	tests, err := litmus.Parse("p.litmus", []byte(`PTX P
{ x = 0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;
 st x, 1        | ld r0, x       | ld r1, x       ;
                | add r2, r0, 1  |                ;
exists (P1:r0 == 1)
`), litmus.FormatHerd)
	require.NoError(t, err)
	p, err := NewPlan(tests[0])
	require.NoError(t, err)
	require.Equal(t, 1, p.ClusterSize)
	require.Equal(t, 2, p.WarpsPerGroup)
	require.Equal(t, []int{0, 1}, p.CTAs[0].Roles)
	require.Equal(t, 0, p.Roles[0].Warp)
	require.Equal(t, 1, p.Roles[1].Warp)
	require.Equal(t, 1, p.Roles[2].CTA)
	require.Equal(t, []string{"r0", "r2"}, p.Roles[1].Regs)
	require.Equal(t, p.Roles[1].RegSlots["r0"], p.Observables[0].Result)
	require.Equal(t, 3+3, p.Results) // r0, r2, r1 and three statuses
	g := Geometry{Rows: 3, Groups: 4}
	require.Equal(t, 2, g.Grid(p)/g.Rows) // two test CTAs per row
	require.Equal(t, 4*2*32, g.Block(p))
}

// TestRefusedStructures: what the harness cannot replicate is refused at
// the instruction.
func TestRefusedStructures(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"PTX B\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n L: | bar.sync 0 ;\n bar.sync 0 | ;\n bne 0, 1, L | ;\nexists (x == 0)\n", "is in a loop"},
		{"PTX C\n{ x = 0; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.sync 0, 0, 3 | bar.sync 0, 0, 3 ;\nexists (x == 0)\n", "expects 3 threads, but 2"},
		{"PTX S\n{ x = 0; P1:r2 = 1; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.sync 0 | beq r2, 1, L ;\n | bar.sync 0 ;\n | L: ;\nexists (x == 0)\n", "\"bar.sync 0\" can be skipped by the branch on line 4"},
		{"PTX G\n{ x = 0; P1:r2 = 1; }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n bar.sync 0 | @r2 bar.sync 0 ;\nexists (x == 0)\n", "is guarded"},
		{"PTX A\n{ x = 0; P0:r1 = x; }\n P0@cta 0,gpu 0 ;\n ld r0, [r1] ;\nexists (P0:r1 == 0)\n", "holds an address"},
	} {
		tests, err := litmus.Parse("t.litmus", []byte(tc.src), litmus.FormatHerd)
		require.NoError(t, err, tc.src)
		_, err = NewPlan(tests[0])
		require.ErrorContains(t, err, tc.want)
	}
}
