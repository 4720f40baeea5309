package harness

import (
	"fmt"
	"math/rand/v2"

	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
)

// shape is what every launch of a test may use on the device: the most
// rows of testing clusters, the instance groups per CTA and the stressing
// clusters. All the CTAs of a launch must fit on the device at once, or
// the start barrier and the tests' spin loops would wait for CTAs that
// cannot start; notes say what was reduced to fit.
type shape struct {
	rows, groups, stress int
	notes                []string
}

// fitShape fits the parameters to the device.
func fitShape(par Params, plan *ptxgen.Plan, k gpu.Kernel) (shape, error) {
	s := shape{groups: par.Groups}
	per := len(plan.Clusters) * plan.ClusterSize // testing CTAs per row
	s.rows = max(1, par.CTAs/per)
	if w := plan.WarpsPerGroup; 32*w*s.groups > 1024 {
		s.groups = max(1, 32/w)
		s.notes = append(s.notes, fmt.Sprintf("-groups %d: a CTA holds at most %d groups of %d warps", par.Groups, s.groups, w))
	}
	s.stress = (par.StressCTAs + plan.ClusterSize - 1) / plan.ClusterSize
	g := ptxgen.Geometry{Groups: s.groups}
	capacity, err := k.MaxActiveBlocks(g.Block(plan), g.Shared(plan), plan.ClusterSize)
	if err != nil {
		return s, err
	}
	if capacity < per {
		return s, fmt.Errorf("the device cannot hold the %d CTAs of one instance row at once (it holds %d of %d threads and %d bytes of shared memory)", per, capacity, g.Block(plan), g.Shared(plan))
	}
	total := func() int { return s.rows*per + s.stress*plan.ClusterSize }
	if total() > capacity {
		old := s.stress
		s.stress = max(0, (capacity-s.rows*per)/plan.ClusterSize)
		if s.stress != old {
			s.notes = append(s.notes, fmt.Sprintf("stressing CTAs cut from %d to %d: the device holds %d CTAs of this kernel at once", old*plan.ClusterSize, s.stress*plan.ClusterSize, capacity))
		}
	}
	if total() > capacity {
		old := s.rows
		s.rows = capacity / per
		s.notes = append(s.notes, fmt.Sprintf("testing CTAs cut from %d to %d: the device holds %d CTAs of this kernel at once", old*per, s.rows*per, capacity))
	}
	return s, nil
}

// launch draws one launch's geometry.
func (s shape) launch(rng *rand.Rand, par Params, plan *ptxgen.Plan) ptxgen.Geometry {
	g := ptxgen.Geometry{Rows: s.rows, Groups: s.groups, Stress: s.stress, RowMul: 1, SlotMul: 1, LocMul: 1, ClusterMul: 1,
		LocStride: par.MemStride * plan.GlobalBytes, Barrier: par.Barrier, SpinBound: par.SpinBound, BarrierBound: par.BarrierBound,
		PreStress: par.PreStress, StressIterations: par.StressIterations, Lines: par.Lines, LineBytes: par.LineBytes}
	if par.RandomGrid && s.rows > 1 {
		g.Rows = s.rows/2 + rng.IntN(s.rows-s.rows/2+1)
	}
	if par.PermuteThreads {
		g.RowMul, g.RowOff = coprime(rng, g.Rows), rng.IntN(g.Rows)
		g.SlotMul, g.SlotOff = coprime(rng, g.Slots()), rng.IntN(g.Slots())
	}
	if par.PermuteLocations {
		g.LocMul = coprime(rng, g.Instances()*len(plan.Globals))
	}
	if par.Shuffle {
		n := g.Clusters(plan)
		g.ClusterMul, g.ClusterOff = coprime(rng, n), rng.IntN(n)
	}
	g.Pattern = patternIndex(par.Pattern)
	if g.Pattern < 0 {
		g.Pattern = rng.IntN(len(patterns))
	}
	return g
}

// coprime draws a factor prime to n in [1, n).
func coprime(rng *rand.Rand, n int) int {
	if n <= 2 {
		return 1
	}
	for {
		if m := 1 + rng.IntN(n-1); gcdInt(m, n) == 1 {
			return m
		}
	}
}

func gcdInt(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}
