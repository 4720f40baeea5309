package ptxgen

import (
	"encoding/binary"
	"fmt"
)

// The kernel takes one parameter, a block of 64-bit words; param names the
// word at each offset.
const (
	prmBase          = 0   // global memory of the instances' locations
	prmResults       = 8   // the results buffer
	prmScratch       = 16  // the stress scratch buffer
	prmCounter       = 24  // the start barrier's counter, then one per cluster
	prmRows          = 32  // R: rows of testing clusters per column
	prmGroups        = 40  // G: instance groups per CTA
	prmRowMul        = 48  // row permutation: row' = (r*RowMul + u*RowOff) mod R
	prmRowInv        = 56  // RowMul's inverse mod R
	prmRowOff        = 64  //
	prmSlotMul       = 72  // slot permutation: s' = (s*SlotMul + u*SlotOff) mod 32G
	prmSlotInv       = 80  //
	prmSlotOff       = 88  //
	prmLocMul        = 96  // location permutation over instances*globals
	prmLocStride     = 104 // bytes between consecutive location slots
	prmClusterMul    = 112 // CTA shuffle: logical cluster = (c*ClusterMul + ClusterOff) mod Clusters
	prmClusterOff    = 120 //
	prmClusters      = 128 // clusters in the grid
	prmBarrierTarget = 136 // test threads that meet at the start barrier; 0: no barrier
	prmSpinBound     = 144 // iterations a test loop may take
	prmPreStress     = 152 // iterations of pre-stress by the test threads
	prmStress        = 160 // iterations of stress by the stressing CTAs
	prmPattern       = 168 // the stress pattern (0 st;st 1 st;ld 2 ld;st 3 ld;ld)
	prmLines         = 176 // scratch lines
	prmLineBytes     = 184 // bytes between scratch lines
	prmBarrierBound  = 192 // iterations a thread waits at the start barrier
	paramBytes       = 200
)

// Geometry is one launch's layout: how many instances run, where each
// one's threads and locations are, and what the kernel is told. The kernel
// computes the same from the parameter block (Params).
type Geometry struct {
	// Rows of testing clusters per test cluster; Groups of instances per
	// CTA (32 instances each, one per lane).
	Rows, Groups int
	// Stress is the number of stressing clusters.
	Stress int
	// The permutations, each x -> (x*Mul + k*Off) mod N with Mul
	// invertible mod N: rows of clusters, slots in a CTA, location slots,
	// and the shuffle of clusters.
	RowMul, RowOff, SlotMul, SlotOff, LocMul, ClusterMul, ClusterOff int
	// LocStride is the bytes between location slots (a multiple of the
	// plan's GlobalBytes: -mem-stride).
	LocStride int
	// The knobs of the stress and the start barrier.
	Barrier                     bool
	SpinBound, BarrierBound     int
	PreStress, StressIterations int
	Pattern, Lines, LineBytes   int
}

// Instances is the number of test instances per launch.
func (g Geometry) Instances() int { return g.Rows * 32 * g.Groups }

// Slots is the instances per CTA.
func (g Geometry) Slots() int { return 32 * g.Groups }

// Clusters is the clusters of the grid: testing and stressing.
func (g Geometry) Clusters(p *Plan) int { return g.Rows*len(p.Clusters) + g.Stress }

// Grid is the CTAs of the launch.
func (g Geometry) Grid(p *Plan) int { return g.Clusters(p) * p.ClusterSize }

// Block is the threads of each CTA.
func (g Geometry) Block(p *Plan) int { return 32 * g.Groups * p.WarpsPerGroup }

// Shared is each CTA's dynamic shared memory.
func (g Geometry) Shared(p *Plan) int { return g.Slots() * p.SharedBytes }

// TestingThreads is the number of threads that run a test thread.
func (g Geometry) TestingThreads(p *Plan) int { return g.Instances() * len(p.Roles) }

// LocationBytes is the size of the global memory of the locations.
func (g Geometry) LocationBytes(p *Plan) int {
	return g.Instances() * max(len(p.Globals), 1) * g.LocStride
}

// CounterBytes is the size of the counters: the start barrier's, then
// one per cluster of the grid.
func (g Geometry) CounterBytes(p *Plan) int { return 8 * (1 + g.Clusters(p)) }

// ResultBytes is the size of the results buffer.
func (g Geometry) ResultBytes(p *Plan) int { return g.Instances() * p.Results * 8 }

// Validate checks the permutations and sizes.
func (g Geometry) Validate(p *Plan) error {
	n := g.Instances() * max(len(p.Globals), 1)
	for _, c := range []struct {
		name   string
		mul, n int
	}{{"row", g.RowMul, g.Rows}, {"slot", g.SlotMul, g.Slots()}, {"location", g.LocMul, n}, {"cluster", g.ClusterMul, g.Clusters(p)}} {
		if c.name == "location" && len(p.Globals) == 0 {
			continue // no global locations to place
		}
		if gcd(c.mul, c.n) != 1 {
			return fmt.Errorf("the %s permutation's factor %d is not prime to %d", c.name, c.mul, c.n)
		}
	}
	switch {
	case g.Rows < 1 || g.Groups < 1:
		return fmt.Errorf("a launch needs at least one row and one group")
	case g.Block(p) > 1024:
		return fmt.Errorf("%d threads per CTA: at most 1024 (fewer groups)", g.Block(p))
	case g.LocStride < p.GlobalBytes || g.LocStride%16 != 0:
		return fmt.Errorf("a location stride of %d bytes: at least %d and a multiple of 16", g.LocStride, p.GlobalBytes)
	}
	return nil
}

// Instance is the instance whose role runs in test cluster u at row'
// (the physical row) and slot s' (the physical slot).
func (g Geometry) Instance(u, row, slot int) int {
	r := mulMod(subMod(row, u*g.RowOff, g.Rows), modInverse(g.RowMul, g.Rows), g.Rows)
	s := mulMod(subMod(slot, u*g.SlotOff, g.Slots()), modInverse(g.SlotMul, g.Slots()), g.Slots())
	return r*g.Slots() + s
}

// Place is where instance i runs in test cluster u: the logical cluster
// (before the shuffle) and the slot.
func (g Geometry) Place(p *Plan, i, u int) (logical, slot int) {
	r, s := i/g.Slots(), i%g.Slots()
	row := (r*g.RowMul + u*g.RowOff) % g.Rows
	slot = (s*g.SlotMul + u*g.SlotOff) % g.Slots()
	return row*len(p.Clusters) + u, slot
}

// PhysicalCluster is the grid's cluster that runs logical cluster l.
func (g Geometry) PhysicalCluster(p *Plan, l int) int {
	n := g.Clusters(p)
	return mulMod(subMod(l, g.ClusterOff, n), modInverse(g.ClusterMul, n), n)
}

// LocationOffset is the byte offset of instance i's global location q.
func (g Geometry) LocationOffset(p *Plan, i, q int) int {
	n := g.Instances() * len(p.Globals)
	return mulMod(i*len(p.Globals)+q, g.LocMul, n) * g.LocStride
}

// ResultOffset is the byte offset of instance i's result k.
func (g Geometry) ResultOffset(p *Plan, i, k int) int { return (i*p.Results + k) * 8 }

// Params is the kernel's parameter block for buffers at the addresses
// given.
func (g Geometry) Params(p *Plan, base, results, scratch, counter uint64) []byte {
	b := make([]byte, paramBytes)
	put := func(off int, v uint64) { binary.LittleEndian.PutUint64(b[off:], v) }
	u := func(v int) uint64 { return uint64(v) }
	put(prmBase, base)
	put(prmResults, results)
	put(prmScratch, scratch)
	put(prmCounter, counter)
	put(prmRows, u(g.Rows))
	put(prmGroups, u(g.Groups))
	put(prmRowMul, u(g.RowMul%g.Rows))
	put(prmRowInv, u(modInverse(g.RowMul, g.Rows)))
	put(prmRowOff, u(g.RowOff%g.Rows))
	put(prmSlotMul, u(g.SlotMul%g.Slots()))
	put(prmSlotInv, u(modInverse(g.SlotMul, g.Slots())))
	put(prmSlotOff, u(g.SlotOff%g.Slots()))
	put(prmLocMul, u(g.LocMul%max(g.Instances()*len(p.Globals), 1)))
	put(prmLocStride, u(g.LocStride))
	put(prmClusterMul, u(g.ClusterMul%g.Clusters(p)))
	put(prmClusterOff, u(g.ClusterOff%g.Clusters(p)))
	put(prmClusters, u(g.Clusters(p)))
	if g.Barrier {
		put(prmBarrierTarget, u(g.TestingThreads(p)))
	}
	put(prmSpinBound, u(g.SpinBound))
	put(prmPreStress, u(g.PreStress))
	put(prmStress, u(g.StressIterations))
	put(prmPattern, u(g.Pattern))
	put(prmLines, u(max(g.Lines, 1)))
	put(prmLineBytes, u(g.LineBytes))
	put(prmBarrierBound, u(g.BarrierBound))
	return b
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	if a < 0 {
		return -a
	}
	return a
}

func mulMod(a, b, n int) int { return a * b % n }

func subMod(a, b, n int) int { return ((a-b)%n + n) % n }

// modInverse is x with a*x = 1 mod n (a prime to n); 0 for n = 1.
func modInverse(a, n int) int {
	if n == 1 {
		return 0
	}
	t, newT, r, newR := 0, 1, n, ((a%n)+n)%n
	for newR != 0 {
		q := r / newR
		t, newT = newT, t-q*newT
		r, newR = newR, r-q*newR
	}
	return ((t % n) + n) % n
}

// Buffers are the device addresses a parameter block names.
type Buffers struct {
	Base, Results, Scratch, Counter uint64
}

// ReadParams decodes a parameter block (what a fake driver playing the
// kernel needs): the launch's geometry and its buffers.
func ReadParams(p *Plan, b []byte) (Geometry, Buffers, error) {
	if len(b) != paramBytes {
		return Geometry{}, Buffers{}, fmt.Errorf("a parameter block of %d bytes, not %d", len(b), paramBytes)
	}
	get := func(off int) int { return int(binary.LittleEndian.Uint64(b[off:])) }
	g := Geometry{Rows: get(prmRows), Groups: get(prmGroups), RowMul: get(prmRowMul), RowOff: get(prmRowOff),
		SlotMul: get(prmSlotMul), SlotOff: get(prmSlotOff), LocMul: get(prmLocMul), LocStride: get(prmLocStride),
		ClusterMul: get(prmClusterMul), ClusterOff: get(prmClusterOff), Barrier: get(prmBarrierTarget) > 0,
		SpinBound: get(prmSpinBound), BarrierBound: get(prmBarrierBound), PreStress: get(prmPreStress),
		StressIterations: get(prmStress), Pattern: get(prmPattern), Lines: get(prmLines), LineBytes: get(prmLineBytes)}
	g.Stress = get(prmClusters) - g.Rows*len(p.Clusters)
	bufs := Buffers{Base: uint64(get(prmBase)), Results: uint64(get(prmResults)), Scratch: uint64(get(prmScratch)), Counter: uint64(get(prmCounter))}
	return g, bufs, g.Validate(p)
}
