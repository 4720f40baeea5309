package execution

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/oraclecases"
)

// A random single-location program of the shape of AlloyForwardProgress's
// tests: each thread a few blocks, each block one access (atom.exch, ld or
// st of x) followed by a conditional branch to any block or the end. It is
// run here by an interpreter of its own and judged by a search of its own,
// independent of FairTermination's.

type oracleOp struct {
	kind   string // "exch", "ld", "st", "streg", "xor", "add" (atom), "redxor", "redadd" (red)
	val    int64  // what exch and st write
	src    int    // the block whose register streg stores
	cmp    string // "beq", "bne", or "" for none (st only)
	cmpVal int64
	target int // block index; len(blocks) is the end
	loc    int // 0: x, 1: y
}

type oracleProg struct {
	init    int64
	locs    int // 1 (x) or 2 (x and y, which starts at 0)
	threads [][]oracleOp
	// keepRegs is set when some block stores another's register
	// (streg): the interpreter then keeps every block's register.
	keepRegs bool
}

// randomOracleProg draws a program over locs locations (1 or 2).
func randomOracleProg(r *rand.Rand, locs int) oracleProg {
	return randomOracleProgOf(r, locs, []string{"exch", "exch", "ld", "st"})
}

// randomOracleProgOf draws a program over locs locations whose accesses
// are of the kinds given (a kind listed twice is drawn twice as often).
// An xor or add adds 1 or 2.
func randomOracleProgOf(r *rand.Rand, locs int, kinds []string) oracleProg {
	p := oracleProg{init: int64(r.Intn(2)), locs: locs}
	for range 2 + r.Intn(2) {
		n := 1 + r.Intn(3)
		var th []oracleOp
		for range n {
			op := oracleOp{kind: kinds[r.Intn(len(kinds))], val: int64(r.Intn(2)), cmpVal: int64(r.Intn(2)), target: r.Intn(n + 1)}
			switch op.kind {
			case "xor", "add", "redxor", "redadd":
				op.val++
			}
			op.cmp = []string{"beq", "bne"}[r.Intn(2)]
			if (op.kind == "st" || op.kind == "streg") && r.Intn(2) == 0 {
				op.cmp = ""
			}
			if op.kind == "streg" {
				op.src = r.Intn(n)
				p.keepRegs = true
			}
			if locs > 1 {
				op.loc = r.Intn(locs)
			}
			th = append(th, op)
		}
		p.threads = append(p.threads, th)
	}
	return p
}

// litmus renders the program as a herd test.
func (p oracleProg) litmus() string {
	var threads []string
	for i, th := range p.threads {
		var lines []string
		for b, op := range th {
			lines = append(lines, fmt.Sprintf("B%d_%d:", i, b))
			reg := fmt.Sprintf("r%d", b)
			loc := []string{"x", "y"}[op.loc]
			switch op.kind {
			case "exch":
				lines = append(lines, fmt.Sprintf("atom.relaxed.gpu.exch %s, %s, %d", reg, loc, op.val))
			case "ld":
				lines = append(lines, fmt.Sprintf("ld.relaxed.gpu %s, %s", reg, loc))
			case "st":
				lines = append(lines, fmt.Sprintf("st.relaxed.gpu %s, %d", loc, op.val))
			case "streg":
				lines = append(lines, fmt.Sprintf("st.relaxed.gpu %s, r%d", loc, op.src))
			case "xor", "add":
				lines = append(lines, fmt.Sprintf("atom.relaxed.gpu.%s %s, %s, %d", op.kind, reg, loc, op.val))
			case "redxor", "redadd":
				lines = append(lines, fmt.Sprintf("red.relaxed.gpu.%s %s, %d", op.kind[3:], loc, op.val))
			}
			if op.cmp != "" {
				lines = append(lines, fmt.Sprintf("%s %s, %d, B%d_%d", op.cmp, reg, op.cmpVal, i, op.target))
			}
		}
		lines = append(lines, fmt.Sprintf("B%d_%d:", i, len(th)))
		threads = append(threads, strings.Join(lines, ";"))
	}
	init := fmt.Sprintf("x=%d;", p.init)
	if p.locs > 1 {
		init += " y=0;"
	}
	return fairTest(init, threads...)
}

// oracleState: the values of x and y, then each thread's block and last value
// read (a block's register is only read right after its access, so one
// register per thread is enough: the value its last access returned).
type oracleState struct {
	mem [2]int64
	pcs [3]int
	got [3]int64
	// regs holds each block's register, when the program stores
	// registers (keepRegs).
	regs [3][3]int64
}

func (p oracleProg) done(s oracleState, i int) bool { return s.pcs[i] >= len(p.threads[i]) }

// step runs thread i's whole block: its access and its branch (an
// instruction at a time or a block at a time give the same infinite
// behaviours, since a block's branch only looks at the thread's own
// register).
func (p oracleProg) step(s oracleState, i int) oracleState {
	op := p.threads[i][s.pcs[i]]
	var got int64
	switch op.kind {
	case "exch":
		got, s.mem[op.loc] = s.mem[op.loc], op.val
	case "ld":
		got = s.mem[op.loc]
	case "st":
		s.mem[op.loc] = op.val
	case "streg":
		s.mem[op.loc] = s.regs[i][op.src]
	case "xor":
		got, s.mem[op.loc] = s.mem[op.loc], s.mem[op.loc]^op.val
	case "add":
		got, s.mem[op.loc] = s.mem[op.loc], s.mem[op.loc]+op.val
	case "redxor":
		s.mem[op.loc] ^= op.val
	case "redadd":
		s.mem[op.loc] += op.val
	}
	s.got[i] = got
	writesReg := op.kind != "st" && op.kind != "streg" && op.kind != "redxor" && op.kind != "redadd"
	if p.keepRegs && writesReg {
		s.regs[i][s.pcs[i]] = got
	}
	taken := op.cmp == "beq" && got == op.cmpVal || op.cmp == "bne" && got != op.cmpVal
	if !writesReg && op.cmp != "" {
		// A st or red writes no register: its branch compares the
		// register it left alone, r<block>, which is 0 (never written by
		// anything else in the generated programs).
		taken = op.cmp == "beq" && op.cmpVal == 0 || op.cmp == "bne" && op.cmpVal != 0
	}
	if taken {
		s.pcs[i] = op.target
	} else {
		s.pcs[i]++
	}
	return s
}

// countsInLoop reports whether an add may run again and again (some
// branch at or after its block jumps back to or before it): its location
// may then hold ever more values, and the brute-force search would not
// end.
func (p oracleProg) countsInLoop() bool {
	for _, th := range p.threads {
		for b, op := range th {
			if op.kind != "add" && op.kind != "redadd" {
				continue
			}
			for c := b; c < len(th); c++ {
				if th[c].cmp != "" && th[c].target <= b {
					return true
				}
			}
		}
	}
	return false
}

// spins answers by brute force: some reachable state s lets the program
// come back to s after a non-empty run in which every thread unfinished
// at s steps (searched over pairs of a state and the set of threads that
// stepped since s).
func (p oracleProg) spins() bool {
	start := oracleState{mem: [2]int64{p.init}}
	reach := map[oracleState]bool{start: true}
	queue := []oracleState{start}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for i := range p.threads {
			if !p.done(s, i) {
				if n := p.step(s, i); !reach[n] {
					reach[n] = true
					queue = append(queue, n)
				}
			}
		}
	}
	for s := range reach {
		want := 0
		for i := range p.threads {
			if !p.done(s, i) {
				want |= 1 << i
			}
		}
		if want == 0 {
			continue
		}
		type node struct {
			s    oracleState
			mask int
		}
		seen := map[node]bool{}
		stack := []node{{s, 0}}
		for len(stack) > 0 {
			n := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for i := range p.threads {
				if p.done(n.s, i) {
					continue
				}
				m := node{p.step(n.s, i), n.mask | 1<<i}
				if m.s == s && m.mask == want {
					return true
				}
				if !seen[m] {
					seen[m] = true
					stack = append(stack, m)
				}
			}
		}
	}
	return false
}

// TestFairTerminationMatchesBruteForce checks FairTermination against the
// brute-force search on random programs (PTXMM_ORACLE_CASES of them, 300
// by default).
func TestFairTerminationMatchesBruteForce(t *testing.T) {
	n := casesOr(t, 300)
	r := rand.New(rand.NewSource(33))
	spinning := 0
	for k := range n {
		p := randomOracleProg(r, 1)
		src := p.litmus()
		tc := herd(t, src)
		got := FairTermination(tc, 0)
		require.True(t, got.Decided, "case %d: %s\n%s", k, got.Why, src)
		want := p.spins()
		require.Equal(t, want, got.Spins, "case %d:\n%s", k, src)
		if want {
			spinning++
		}
	}
	// The generator must give both answers often, or the test says little.
	require.Greater(t, spinning, n/10)
	require.Less(t, spinning, n-n/10)
}

// TestFairTerminationSeveralLocations checks FairTermination on random
// programs over two locations (PTXMM_ORACLE_CASES of them, 300 by
// default) against the brute-force search of their interleavings: a
// livelock it reports is one of theirs, and when it says every run
// finishes, so do theirs (the interleavings are executions of the model,
// docs/model.md). When it does not decide, the interleavings all finish
// (it reports their livelocks first) and the reason names the limit left
// open.
func TestFairTerminationSeveralLocations(t *testing.T) {
	compareTwoLocations(t, casesOr(t, 300), 36, []string{"exch", "exch", "ld", "st"}, "")
}

// compareTwoLocations draws n programs over two locations of the given
// access kinds from seed and checks FairTermination against the
// brute-force search of their interleavings: a decided answer is theirs,
// and an undecided one names the limit left open while the
// interleavings all finish.
func compareTwoLocations(t *testing.T, n int, seed int64, kinds []string, what string) {
	r := rand.New(rand.NewSource(seed))
	count := map[string]int{}
	for k := range n {
		p := randomOracleProgOf(r, 2, kinds)
		src := p.litmus()
		got := FairTermination(herd(t, src), 0)
		want := p.spins()
		if !got.Decided {
			require.False(t, want, "case %d: not decided (%s) but an interleaving loops for ever:\n%s", k, got.Why, src)
			require.Contains(t, got.Why, "leave open an execution in which", "case %d:\n%s", k, src)
			count["not decided"]++
			continue
		}
		require.Equal(t, want, got.Spins, "case %d:\n%s", k, src)
		count[got.Verdict()]++
	}
	t.Logf("%d programs over two locations%s: %v", n, what, count)
	// Each answer must be frequent, or the test says little.
	for _, v := range []string{"livelock", "terminates"} {
		require.Greater(t, count[v], n/20, v)
	}
}

// TestFairTerminationReadModifyWrites checks FairTermination against the
// brute-force search of the interleavings, as
// TestFairTerminationSeveralLocations does, on random programs over two
// locations that also update them with atom.xor, atom.add, red.xor and
// red.add of a constant (PTXMM_ORACLE_CASES of them, 200 by default; an
// add that may run again and again is left out, as the search over its
// values would not end). Their values are found by closing the constants
// under those updates (closeValues); a program whose values are more than
// the limits decide stays not decided and says so.
func TestFairTerminationReadModifyWrites(t *testing.T) {
	n := casesOr(t, 200)
	r := rand.New(rand.NewSource(40))
	count := map[string]int{}
	kinds := []string{"exch", "ld", "st", "xor", "add", "redxor", "redadd"}
	for k := 0; k < n; {
		p := randomOracleProgOf(r, 2, kinds)
		if p.countsInLoop() {
			continue
		}
		k++
		src := p.litmus()
		// Registers holding up to four values each make some programs'
		// interleavings many; those past a smaller bound than the
		// default are counted and left out.
		got := FairTermination(herd(t, src), 20_000)
		if !got.Decided && strings.Contains(got.Why, "states") {
			count["not decided (states)"]++
			continue
		}
		want := p.spins()
		if !got.Decided {
			require.False(t, want, "case %d: not decided (%s) but an interleaving loops for ever:\n%s", k, got.Why, src)
			reason := "limit"
			if !strings.Contains(got.Why, "leave open an execution in which") {
				require.Contains(t, got.Why, "values the limits decide", "case %d:\n%s", k, src)
				reason = "values"
			}
			count["not decided ("+reason+")"]++
			continue
		}
		require.Equal(t, want, got.Spins, "case %d:\n%s", k, src)
		count[got.Verdict()]++
	}
	t.Logf("%d programs over two locations with read-modify-writes: %v", n, count)
	for _, v := range []string{"livelock", "terminates"} {
		require.Greater(t, count[v], n/20, v)
	}
}

// TestFairTerminationCopiedValues checks FairTermination against the
// brute-force search of the interleavings, as
// TestFairTerminationSeveralLocations does, on random programs over two
// locations that also store registers (st x, r0): values copied from what
// a thread read, which the limits find by a fixed point over the values
// the program's writes make (PTXMM_ORACLE_CASES programs, 200 by
// default).
func TestFairTerminationCopiedValues(t *testing.T) {
	compareTwoLocations(t, casesOr(t, 200), 42, []string{"exch", "ld", "st", "streg", "streg"}, " storing registers")
}

// casesOr is the number of random programs a property test draws:
// PTXMM_ORACLE_CASES when it is set, def otherwise.
func casesOr(t *testing.T, def int) int {
	return oraclecases.Count(t, def)
}
