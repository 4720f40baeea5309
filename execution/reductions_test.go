package execution

import (
	"sort"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// barRedOutcomes enumerates the candidates of a test built by barrierTest
// and lists each as its barrier groups and the given registers.
func barRedOutcomes(t *testing.T, a *Analysis, names ...string) []string {
	t.Helper()
	seen := map[string]bool{}
	var out []string
	for _, x := range collect(t, a) {
		s := barrierText(x) + " " + regs(x, names...)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return sortedCopy(out)
}

// TestBarRedResults: bar.red writes the reduction of the predicates of
// the arrivals its barrier completes with (PTX ISA 9.7.13.1), so the
// register's value follows the grouping the enumeration chooses. Before,
// bar.red was rejected.
func TestBarRedResults(t *testing.T) {
	cases := []struct {
		name  string
		cols  [][]string
		names []string
		want  []string
	}{
		{
			name: "popc counts the true predicates of the whole CTA",
			cols: [][]string{
				{"cta 0", "mov p, 1", "bar.red.popc.u32 r1, 0, p"},
				{"cta 0", "mov p, 0", "bar.red.popc.u32 r1, 0, p"},
				{"cta 0", "mov p, 5", "bar.red.popc.u32 r1, 0, p"},
			},
			names: []string{"P0:r1", "P1:r1", "P2:r1"},
			want:  []string{"groups [P0.0+P1.0+P2.0] blocked [] P0:r1=2 P1:r1=2 P2:r1=2"},
		},
		{
			name: "and, or and a negated predicate",
			cols: [][]string{
				{"cta 0", "mov p, 1", "bar.red.and.pred r1, 0, p", "bar.red.or.pred r2, 0, !p"},
				{"cta 0", "mov p, 0", "bar.red.and.pred r1, 0, !p", "bar.red.or.pred r2, 0, p"},
			},
			names: []string{"P0:r1", "P1:r1", "P0:r2", "P1:r2"},
			want:  []string{"groups [P0.0+P1.0 P0.1+P1.1] blocked [] P0:r1=1 P1:r1=1 P0:r2=0 P1:r2=0"},
		},
		{
			name: "each thread gets its own reduction over the group's predicates",
			cols: [][]string{
				{"cta 0", "mov p, 1", "bar.red.and.pred r1, 0, p"},
				{"cta 0", "mov p, 0", "bar.red.or.pred r1, 0, p"},
				{"cta 0", "mov p, 0", "bar.red.popc.u32 r1, 0, !p"},
			},
			names: []string{"P0:r1", "P1:r1", "P2:r1"},
			want:  []string{"groups [P0.0+P1.0+P2.0] blocked [] P0:r1=0 P1:r1=1 P2:r1=2"},
		},
		{
			name: "with a count, the result depends on who is in the group",
			cols: [][]string{
				{"cta 0", "mov p, 1", "bar.red.popc.u32 r1, 0, 0, 2, p"},
				{"cta 0", "mov p, 1", "bar.red.popc.u32 r1, 0, 0, 2, p"},
				{"cta 0", "mov p, 0", "bar.red.popc.u32 r1, 0, 0, 2, p"},
			},
			names: []string{"P0:r1", "P1:r1", "P2:r1"},
			// The thread left out waits forever at its last instruction,
			// without a result: its register keeps its initial 0.
			want: []string{
				"groups [P0.0+P1.0] blocked [P2] P0:r1=2 P1:r1=2 P2:r1=0",
				"groups [P0.0+P2.0] blocked [P1] P0:r1=1 P1:r1=0 P2:r1=1",
				"groups [P1.0+P2.0] blocked [P0] P0:r1=0 P1:r1=1 P2:r1=1",
			},
		},
		{
			name: "the predicate may come from memory, the result may be stored",
			cols: [][]string{
				{"cta 0", "st.weak x, 1", "bar.red.popc.u32 r1, 0, 0, 2, r1", "st.weak y, r1"},
				{"cta 0", "ld.weak r0, x", "bar.red.popc.u32 r1, 0, 0, 2, r0", "ld.weak r2, y"},
			},
			names: []string{"P1:r0", "P1:r1", "P1:r2"},
			// P0's predicate is its r1, still 0: the count is P1's
			// predicate, the value P1 read; P0 stores it for P1 to read.
			want: []string{
				"groups [P0.1+P1.1] blocked [] P1:r0=0 P1:r1=0 P1:r2=0",
				"groups [P0.1+P1.1] blocked [] P1:r0=1 P1:r1=1 P1:r2=0",
				"groups [P0.1+P1.1] blocked [] P1:r0=1 P1:r1=1 P1:r2=1",
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := barrierTest(t, c.cols...)
			assert.Equal(t, sortedCopy(c.want), barRedOutcomes(t, a, c.names...))
		})
	}
}

// TestBarRedBranchOnResult: a thread may branch on a bar.red result; the
// path it takes follows the group's predicates.
func TestBarRedBranchOnResult(t *testing.T) {
	a := barrierTest(t,
		[]string{"cta 0", "ld.weak r0, x", "bar.red.or.pred p, 0, r0", "beq p, 0, L", "mov r5, 7", "L:"},
		[]string{"cta 0", "st.weak x, 1", "mov q, 0", "bar.red.or.pred p, 0, q"},
	)
	assert.Equal(t, []string{
		"groups [P0.1+P1.1] blocked [] P0:r0=0 P0:p=0 P0:r5=0",
		"groups [P0.1+P1.1] blocked [] P0:r0=1 P0:p=1 P0:r5=7",
	}, barRedOutcomes(t, a, "P0:r0", "P0:p", "P0:r5"))
}

// TestSetpComparisons: setp compares the low bits of its type's width,
// signed for .sN and unsigned for .uN and .bN (PTX ISA 9.7.6.2).
func TestSetpComparisons(t *testing.T) {
	cases := []struct {
		instr string
		want  string
	}{
		{"setp.eq.u32 r0, 5, 5", "1"},
		{"setp.ne.b32 r0, 5, 5", "0"},
		{"setp.lt.s32 r0, -1, 0", "1"},
		{"setp.lt.u32 r0, -1, 0", "0"}, // 0xffffffff is not below 0
		{"setp.lo.u32 r0, 0, -1", "1"},
		{"setp.ls.u16 r0, 65536, 0", "1"}, // the low 16 bits are 0
		{"setp.hi.u64 r0, -1, 1", "1"},
		{"setp.hs.u32 r0, 3, 3", "1"},
		{"setp.gt.s16 r0, 32768, 0", "0"}, // 0x8000 is -32768
		{"setp.ge.s64 r0, 2, 3", "0"},
		{"setp.le.s32 r0, 3, 3", "1"},
	}
	for _, c := range cases {
		t.Run(c.instr, func(t *testing.T) {
			a := prepare(t, thread0(t, "mov r1, 0", c.instr), opts(2, true))
			xs := collect(t, a)
			require.Len(t, xs, 1)
			assert.Equal(t, "P0:r0="+c.want, regs(xs[0], "P0:r0"))
		})
	}
}

func sortedCopy(s []string) []string {
	out := append([]string(nil), s...)
	sort.Strings(out)
	return out
}

// TestGuardPredicates: "@p INSTR" executes INSTR only when p is not 0,
// "@!p INSTR" only when it is 0; "@p bra L" is a conditional branch. A
// guard on a value read splits the run as a branch does.
func TestGuardPredicates(t *testing.T) {
	cases := []struct {
		name  string
		lines []string
		regs  []string
		want  []string
	}{
		{
			name:  "constant guards",
			lines: []string{"mov p, 1", "@p mov r0, 5", "@!p mov r1, 6", "mov q, 0", "@q mov r2, 7", "@!q mov r3, 8"},
			regs:  []string{"P0:r0", "P0:r1", "P0:r2", "P0:r3"},
			want:  []string{"P0:r0=5 P0:r1=0 P0:r2=0 P0:r3=8"},
		},
		{
			name:  "a guard on a read value splits the run",
			lines: []string{"ld.weak r1, x", "setp.eq.u32 p, r1, 0", "@p st.weak y, 1", "@!p mov r2, 9", "ld.weak r3, y"},
			regs:  []string{"P0:r1", "P0:r2", "P0:r3"},
			// Only the initial write of x exists, so x reads 0: p holds.
			want: []string{"P0:r1=0 P0:r2=0 P0:r3=0", "P0:r1=0 P0:r2=0 P0:r3=1"},
		},
		{
			name:  "@p bra is a conditional branch",
			lines: []string{"mov r0, 0", "L:", "add r0, r0, 1", "setp.lt.s32 p, r0, 3", "@p bra L", "mov r1, r0"},
			regs:  []string{"P0:r1"},
			want:  []string{"P0:r1=3"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := prepare(t, thread0(t, c.lines...), opts(4, false))
			assert.Equal(t, sortedCopy(c.want), outcomes(collect(t, a), c.regs...))
		})
	}
}

// TestGuardedDestinationStaysLive: a guarded instruction that may not
// execute keeps its destination's old value live, so a failed spin-loop
// iteration that only might overwrite it is not left out.
func TestGuardedDestinationStaysLive(t *testing.T) {
	th := thread0(t, "mov r2, 4", "L:", "ld.weak r1, x", "setp.eq.u32 p, r1, 1", "@p mov r2, 1", "@!p bra L")
	live := liveRegisters(th.Threads[0])
	assert.True(t, live[4]["r2"], "r2 is live before the guarded mov")
}
