package execution

import (
	"fmt"
	"math/rand"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// A random single-location program of the shape of AlloyForwardProgress's
// tests: each thread a few blocks, each block one access (atom.exch, ld or
// st of x) followed by a conditional branch to any block or the end. It is
// run here by an interpreter of its own and judged by a search of its own,
// independent of FairTermination's.

type oracleOp struct {
	kind   string // "exch", "ld", "st"
	val    int64  // what exch and st write
	cmp    string // "beq", "bne", or "" for none (st only)
	cmpVal int64
	target int // block index; len(blocks) is the end
}

type oracleProg struct {
	init    int64
	threads [][]oracleOp
}

func randomOracleProg(r *rand.Rand) oracleProg {
	p := oracleProg{init: int64(r.Intn(2))}
	for range 2 + r.Intn(2) {
		n := 1 + r.Intn(3)
		var th []oracleOp
		for range n {
			op := oracleOp{kind: []string{"exch", "exch", "ld", "st"}[r.Intn(4)], val: int64(r.Intn(2)), cmpVal: int64(r.Intn(2)), target: r.Intn(n + 1)}
			op.cmp = []string{"beq", "bne"}[r.Intn(2)]
			if op.kind == "st" && r.Intn(2) == 0 {
				op.cmp = ""
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
			switch op.kind {
			case "exch":
				lines = append(lines, fmt.Sprintf("atom.relaxed.gpu.exch %s, x, %d", reg, op.val))
			case "ld":
				lines = append(lines, fmt.Sprintf("ld.relaxed.gpu %s, x", reg))
			case "st":
				lines = append(lines, fmt.Sprintf("st.relaxed.gpu x, %d", op.val))
			}
			if op.cmp != "" {
				lines = append(lines, fmt.Sprintf("%s %s, %d, B%d_%d", op.cmp, reg, op.cmpVal, i, op.target))
			}
		}
		lines = append(lines, fmt.Sprintf("B%d_%d:", i, len(th)))
		threads = append(threads, strings.Join(lines, ";"))
	}
	return fairTest(fmt.Sprintf("x=%d;", p.init), threads...)
}

// oracleState: the value of x, then each thread's block and last value
// read (a block's register is only read right after its access, so one
// register per thread is enough: the value its last access returned).
type oracleState struct {
	x   int64
	pcs [3]int
	got [3]int64
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
		got, s.x = s.x, op.val
	case "ld":
		got = s.x
	case "st":
		s.x = op.val
	}
	s.got[i] = got
	taken := op.cmp == "beq" && got == op.cmpVal || op.cmp == "bne" && got != op.cmpVal
	if op.kind == "st" && op.cmp != "" {
		// A st writes no register: its branch compares the register it
		// left alone, r<block>, which is 0 (never written by anything
		// else in the generated programs).
		taken = op.cmp == "beq" && op.cmpVal == 0 || op.cmp == "bne" && op.cmpVal != 0
	}
	if taken {
		s.pcs[i] = op.target
	} else {
		s.pcs[i]++
	}
	return s
}

// spins answers by brute force: some reachable state s lets the program
// come back to s after a non-empty run in which every thread unfinished
// at s steps (searched over pairs of a state and the set of threads that
// stepped since s).
func (p oracleProg) spins() bool {
	start := oracleState{x: p.init}
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
	n := 300
	if s := os.Getenv("PTXMM_ORACLE_CASES"); s != "" {
		var err error
		n, err = strconv.Atoi(s)
		require.NoError(t, err)
	}
	r := rand.New(rand.NewSource(33))
	spinning := 0
	for k := range n {
		p := randomOracleProg(r)
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
