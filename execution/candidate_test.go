package execution

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

const mpSrc = `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  ;
 st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`

// TestEnumerateMP: message passing has one combination of runs and one
// candidate per choice of reads-from: each load reads the initial write or
// P0's store, 2 x 2.
func TestEnumerateMP(t *testing.T) {
	a := prepare(t, herd(t, mpSrc), opts(2, true))
	xs := collect(t, a)
	require.Len(t, xs, 4)
	var got [][]string
	for _, x := range xs {
		got = append(got, rfText(x))
		// Events: two initial writes (x, y in location order), then P0's, then P1's.
		assert.Equal(t, []int{2, 4}, x.ThreadStart)
		assert.Equal(t, "init:x=0", x.Label(0))
		assert.Equal(t, "init:y=0", x.Label(1))
		assert.False(t, x.Undetermined)
		assert.Equal(t, []int{0, 0}, x.Combo)
	}
	assert.ElementsMatch(t, [][]string{
		{"P1:ld.weak r0, y =0 <- init:y=0", "P1:ld.weak r1, x =0 <- init:x=0"},
		{"P1:ld.weak r0, y =0 <- init:y=0", "P1:ld.weak r1, x =1 <- P0:st.weak x, 1"},
		{"P1:ld.weak r0, y =1 <- P0:st.weak y, 1", "P1:ld.weak r1, x =0 <- init:x=0"},
		{"P1:ld.weak r0, y =1 <- P0:st.weak y, 1", "P1:ld.weak r1, x =1 <- P0:st.weak x, 1"},
	}, got)
	assert.Equal(t, []string{
		"P1:r0=0 P1:r1=0", "P1:r0=0 P1:r1=1", "P1:r0=1 P1:r1=0", "P1:r0=1 P1:r1=1",
	}, outcomes(xs, "P1:r0", "P1:r1"))

	st, err := a.Enumerate(0, func(*Execution) bool { return true })
	require.NoError(t, err)
	assert.Equal(t, Stats{Combinations: 1, Candidates: 4}, st)
}

// TestEnumerateCounts checks the number of candidates of small tests.
func TestEnumerateCounts(t *testing.T) {
	cases := []struct {
		name         string
		src          string
		combinations int
		candidates   int
	}{
		{"MP", mpSrc, 1, 4},
		{"SB", `PTX SB
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak y, 1   ;
 ld.weak r0, y  | ld.weak r1, x  ;
exists (P0:r0 == 0 /\ P1:r1 == 0)
`, 1, 4},
		{"CoRR with two writers", `PTX CoRR2
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 | P2@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   | ld.weak r0, x  ;
                |                | ld.weak r1, x  ;
exists (P2:r0 == 1)
`, 1, 9},
		{
			// Each cas succeeds only by reading 0: both succeed reading the
			// initial write, or one fails reading the other's 1; both
			// failing needs a read of something else than 0 with no write of it.
			"two cas", `PTX CAS
{ x=0; }
 P0@cta 0,gpu 0                    | P1@cta 1,gpu 0                    ;
 atom.relaxed.gpu.cas r0, x, 0, 1  | atom.relaxed.gpu.cas r1, x, 0, 1  ;
exists (P0:r0 == 0)
`, 4, 3},
		{
			// A branch assuming x == 1 when no write writes 1: that run has
			// no candidate.
			"branch on an unwritten value", `PTX BR
{ x=0; y=0; }
 P0@cta 0,gpu 0  | P1@cta 1,gpu 0 ;
 ld.weak r0, x   | st.weak x, 2   ;
 beq r0, 1, L    |                ;
 st.weak y, 1    |                ;
 L:              |                ;
exists (P0:r0 == 0)
`, 2, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := prepare(t, herd(t, c.src), opts(2, true))
			st, err := a.Enumerate(0, func(*Execution) bool { return true })
			require.NoError(t, err)
			assert.Equal(t, c.combinations, st.Combinations, "combinations")
			assert.Equal(t, c.candidates, st.Candidates, "candidates")
		})
	}
}

// TestEnumeratePrunesContradictedBranch: each direction of a branch on a
// loaded value keeps only the reads-from choices whose write's value agrees
// with it.
func TestEnumeratePrunesContradictedBranch(t *testing.T) {
	a := prepare(t, herd(t, `PTX BR
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, x  | st.weak x, 1   ;
 beq r0, 1, L   |                ;
 st.weak y, 1   |                ;
 L:             |                ;
exists (P0:r0 == 0)
`), opts(2, true))
	require.Len(t, a.Runs[0], 2)
	var got []string
	for _, x := range collect(t, a) {
		stores := len(x.Runs[0].Events) - 1
		got = append(got, fmt.Sprintf("%s, %d store(s)", strings.Join(rfText(x), ""), stores))
	}
	assert.ElementsMatch(t, []string{
		"P0:ld.weak r0, x =1 <- P1:st.weak x, 1, 0 store(s)",
		"P0:ld.weak r0, x =0 <- init:x=0, 1 store(s)",
	}, got)
}

// TestEnumerateCASOutcomes: which cas succeeds in each candidate, and the
// values the registers get.
func TestEnumerateCASOutcomes(t *testing.T) {
	a := prepare(t, herd(t, `PTX CAS
{ x=0; }
 P0@cta 0,gpu 0                    | P1@cta 1,gpu 0                    ;
 atom.relaxed.gpu.cas r0, x, 0, 1  | atom.relaxed.gpu.cas r1, x, 0, 1  ;
exists (P0:r0 == 0)
`), opts(2, true))
	xs := collect(t, a)
	var got []string
	for _, x := range xs {
		s := regs(x, "P0:r0", "P1:r1")
		for t := range x.Runs {
			if len(x.Runs[t].RMW) > 0 {
				s += " " + x.Test.Threads[t].Name + "-writes"
			}
		}
		got = append(got, s)
	}
	assert.ElementsMatch(t, []string{
		"P0:r0=0 P1:r1=0 P0-writes P1-writes",
		"P0:r0=0 P1:r1=1 P0-writes",
		"P0:r0=1 P1:r1=0 P1-writes",
	}, got)
}

// TestEnumerateDataFlow: a store of a loaded register writes the value the
// load read, through any number of threads and register operations.
func TestEnumerateDataFlow(t *testing.T) {
	a := prepare(t, herd(t, `PTX DF
{ x=0; y=0; z=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0  | P2@cta 1,gpu 0 ;
 st.weak x, 5   | ld.weak r0, x   | ld.weak r2, y  ;
                | add r1, r0, 10  | st.weak z, r2  ;
                | st.weak y, r1   | ld.weak r3, z  ;
exists (P2:r3 == 15)
`), opts(2, true))
	xs := collect(t, a)
	got := outcomes(xs, "P1:r0", "P2:r2", "P2:r3")
	// r2 reads y: 0 initially or r0+10; r3 reads z: 0 initially or r2.
	assert.Equal(t, []string{
		"P1:r0=0 P2:r2=0 P2:r3=0",
		"P1:r0=0 P2:r2=10 P2:r3=0",
		"P1:r0=0 P2:r2=10 P2:r3=10",
		"P1:r0=5 P2:r2=0 P2:r3=0",
		"P1:r0=5 P2:r2=15 P2:r3=0",
		"P1:r0=5 P2:r2=15 P2:r3=15",
	}, got)
	for _, x := range xs {
		// Every write event carries its resolved value, and every read the
		// value of the write it reads from.
		for r, w := range x.RF {
			if w >= 0 {
				assert.Equal(t, x.Events[w].Value, x.Events[r].Value, "%s", x.Label(r))
			}
		}
		r0, _ := x.Reg(1, "r0")
		st := x.Events[x.ThreadStart[1]+1]
		assert.Equal(t, Int(r0.N+10), st.Value, "st.weak y, r1 writes r0+10")
		assert.False(t, x.Undetermined)
	}
	// Data dependencies are global event pairs: P1's load to its store, P2's
	// load to its store.
	x := xs[0]
	assert.ElementsMatch(t, [][2]int{
		{x.ThreadStart[1], x.ThreadStart[1] + 1},
		{x.ThreadStart[2], x.ThreadStart[2] + 1},
	}, x.Data)
}

// TestEnumerateThinAir: load buffering with data dependencies; the
// candidate in which each load reads the other thread's store has values
// determined by nothing: it is marked Undetermined, its reads left at 0.
func TestEnumerateThinAir(t *testing.T) {
	a := prepare(t, herd(t, `PTX LB+data
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, x  | ld.weak r1, y  ;
 st.weak y, r0  | st.weak x, r1  ;
exists (P0:r0 == 1)
`), opts(2, true))
	xs := collect(t, a)
	require.Len(t, xs, 4)
	undetermined := 0
	for _, x := range xs {
		cyclic := x.RF[x.ThreadStart[0]] == x.ThreadStart[1]+1 && x.RF[x.ThreadStart[1]] == x.ThreadStart[0]+1
		assert.Equal(t, cyclic, x.Undetermined, "%v", rfText(x))
		if x.Undetermined {
			undetermined++
			assert.Equal(t, Int(0), x.Events[x.ThreadStart[0]].Value)
			assert.Equal(t, Int(0), x.Events[x.ThreadStart[1]].Value)
		}
	}
	assert.Equal(t, 1, undetermined)
}

// TestEnumerateExchCycleDetermined: exch and cas write an operand whatever
// they read, so a reads-from cycle through them determines every value; it
// is not thin air. (Regression: their write values used to wait for the
// read's value, which made such cycles Undetermined and kept cas
// candidates whose assumption the values contradict.)
func TestEnumerateExchCycleDetermined(t *testing.T) {
	a := prepare(t, herd(t, `PTX EXCH
{ x=0; }
 P0@cta 0,gpu 0                 | P1@cta 1,gpu 0                 ;
 atom.relaxed.gpu.exch r0, x, 1 | atom.relaxed.gpu.exch r1, x, 2 ;
exists (P0:r0 == 2)
`), opts(2, true))
	xs := collect(t, a)
	// Each read: the initial write, the other's write, or its own.
	require.Len(t, xs, 9)
	var got []string
	for _, x := range xs {
		assert.False(t, x.Undetermined, "%v", rfText(x))
		got = append(got, regs(x, "P0:r0", "P1:r1"))
	}
	assert.Contains(t, got, "P0:r0=2 P1:r1=1", "each reads the other's write")
	assert.Contains(t, got, "P0:r0=1 P1:r1=2", "each reads its own write")
}

// TestEnumerateThinAirConstraint: an undecidable branch assumption on a
// thin-air value is accepted, so both directions give a candidate; the
// model decides about them.
func TestEnumerateThinAirConstraint(t *testing.T) {
	a := prepare(t, herd(t, `PTX LB+data+ctrl
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, x  | ld.weak r1, y  ;
 beq r0, 7, L   | st.weak x, r1  ;
 L:             |                ;
 st.weak y, r0  |                ;
exists (P0:r0 == 7)
`), opts(2, true))
	n := 0
	for _, x := range collect(t, a) {
		if x.Undetermined {
			n++
		}
	}
	assert.Equal(t, 2, n, "one undetermined candidate per direction of the branch")
}

// TestEnumerateFilters: a "== v" restriction in an NV test keeps only the
// candidates in which the load returns v.
func TestEnumerateFilters(t *testing.T) {
	src := func(filter string) string {
		return ".global x;\n.global y;\n" +
			"d0.b0.t0 { st [x], 1; st [x], 2; st [y], 3; }\n" +
			"d0.b1.t0 { ld r0, [x]" + filter + "; ld r1, [y]; }\n" +
			"assert (r1 == 3) as a;\n"
	}
	cases := []struct {
		filter string
		want   []string
	}{
		{"", []string{
			"d0.b1.t0:r0=0 d0.b1.t0:r1=0", "d0.b1.t0:r0=0 d0.b1.t0:r1=3",
			"d0.b1.t0:r0=1 d0.b1.t0:r1=0", "d0.b1.t0:r0=1 d0.b1.t0:r1=3",
			"d0.b1.t0:r0=2 d0.b1.t0:r1=0", "d0.b1.t0:r0=2 d0.b1.t0:r1=3",
		}},
		{" == 2", []string{"d0.b1.t0:r0=2 d0.b1.t0:r1=0", "d0.b1.t0:r0=2 d0.b1.t0:r1=3"}},
		{" == 0", []string{"d0.b1.t0:r0=0 d0.b1.t0:r1=0", "d0.b1.t0:r0=0 d0.b1.t0:r1=3"}},
		{" == 9", nil},
	}
	for _, c := range cases {
		t.Run("filter"+c.filter, func(t *testing.T) {
			tc := nv(t, src(c.filter))
			a := prepare(t, tc, opts(2, true))
			xs := collect(t, a)
			assert.Equal(t, c.want, outcomes(xs, "d0.b1.t0:r0", "d0.b1.t0:r1"))
			assert.Len(t, xs, len(c.want))
		})
	}
}

// TestEnumerateLimit: more candidates than maxCandidates is a LimitError
// naming -max-candidates; the first maxCandidates are still yielded.
func TestEnumerateLimit(t *testing.T) {
	a := prepare(t, herd(t, mpSrc), opts(2, true))
	for _, max := range []int{1, 3} {
		yielded := 0
		st, err := a.Enumerate(max, func(*Execution) bool { yielded++; return true })
		var le *LimitError
		require.ErrorAs(t, err, &le)
		assert.Equal(t, "-max-candidates", le.Flag)
		assert.Equal(t, max, le.Value)
		assert.Contains(t, err.Error(), "test MP: limit of")
		assert.Contains(t, err.Error(), "raise it with -max-candidates")
		assert.Equal(t, max, yielded)
		assert.Equal(t, max+1, st.Candidates)
	}
	// Exactly at the limit is fine.
	_, err := a.Enumerate(4, func(*Execution) bool { return true })
	require.NoError(t, err)
}

// TestEnumerateStops: yield returning false stops the enumeration without
// an error.
func TestEnumerateStops(t *testing.T) {
	a := prepare(t, herd(t, mpSrc), opts(2, true))
	n := 0
	st, err := a.Enumerate(0, func(*Execution) bool { n++; return n < 2 })
	require.NoError(t, err)
	assert.Equal(t, 2, n)
	assert.Equal(t, 2, st.Candidates)
}

// TestExecutionClone: Enumerate reuses one Execution value for every
// candidate; a clone keeps the candidate it was taken from.
func TestExecutionClone(t *testing.T) {
	a := prepare(t, herd(t, mpSrc), opts(2, true))
	var kept, seen []*Execution
	var snapshots [][]string
	_, err := a.Enumerate(0, func(x *Execution) bool {
		seen = append(seen, x)
		kept = append(kept, x.Clone())
		snapshots = append(snapshots, rfText(x))
		return true
	})
	require.NoError(t, err)
	require.Len(t, seen, 4)
	for i, x := range kept {
		assert.Same(t, seen[0], seen[i], "the yielded value is reused")
		assert.NotSame(t, seen[i], x)
		assert.Equal(t, snapshots[i], rfText(x))
	}
	assert.Len(t, uniqueStrings(snapshots), 4)
}

func uniqueStrings(ss [][]string) map[string]bool {
	m := map[string]bool{}
	for _, s := range ss {
		m[strings.Join(s, "\n")] = true
	}
	return m
}

// TestEnumerateNoRuns: a thread without any run gives no candidate: a
// loop that never exits is cut at the bound, or, as a failed spin loop,
// left out.
func TestEnumerateNoRuns(t *testing.T) {
	for _, spin := range []bool{false, true} {
		a := prepare(t, thread0(t, "L:", "goto L"), opts(1, spin))
		assert.Empty(t, a.Runs[0])
		if spin {
			assert.Equal(t, []int{1}, a.Spins)
			assert.Zero(t, a.CutRuns())
		} else {
			assert.Equal(t, []int{0}, a.Spins)
			assert.Equal(t, 1, a.CutRuns())
		}
		st, err := a.Enumerate(0, func(*Execution) bool { return true })
		require.NoError(t, err)
		assert.Zero(t, st.Candidates)
	}
}
