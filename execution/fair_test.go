package execution

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fairTest builds a herd test of threads in one CTA from their columns.
func fairTest(init string, threads ...string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "PTX T\n{ %s }\n", init)
	var cols [][]string
	rows := 0
	for _, th := range threads {
		lines := strings.Split(th, ";")
		cols = append(cols, lines)
		rows = max(rows, len(lines))
	}
	for i := range threads {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "P%d@cta 0,gpu 0", i)
	}
	b.WriteString(" ;\n")
	for r := 0; r < rows; r++ {
		for i, c := range cols {
			if i > 0 {
				b.WriteString(" | ")
			}
			if r < len(c) {
				b.WriteString(strings.TrimSpace(c[r]))
			}
		}
		b.WriteString(" ;\n")
	}
	b.WriteString("exists (0==0)\n")
	return b.String()
}

// TestFairTermination decides small tests whose answer each case argues.
func TestFairTermination(t *testing.T) {
	cases := []struct {
		name    string
		init    string
		threads []string
		// spins: some thread can loop forever under a fair scheduler;
		// why: not decided, with this reason.
		spins bool
		where []string
		why   string
		max   int
	}{
		{
			// AlloyForwardProgress 2t2i/0: P0 swaps in 0 and loops while it
			// took a 1; P1 swaps in 1 and loops while it took a 0. The
			// schedule P1, P0, P1, P0, ... is fair and makes each take
			// what the other just wrote for ever: P1 takes 0, P0 takes 1.
			name: "exch-ping-pong", init: "x=0;",
			threads: []string{"L: ; atom.relaxed.gpu.exch r0, x, 0 ; beq r0, 1, L", "L: ; atom.relaxed.gpu.exch r1, x, 1 ; beq r1, 0, L"},
			spins:   true, where: []string{"P0: atom.relaxed.gpu.exch r0, x, 0", "P1: atom.relaxed.gpu.exch r1, x, 1"},
		},
		{
			// AlloyForwardProgress 2t2i/2: both loop while they take a 0,
			// P1 swapping in 1. Once P1 has stepped, x is 1 until P0 swaps
			// in 0, and that swap takes the 1 and ends P0's loop; P1 then
			// takes P0's 0 at most once more and its own 1 after that. So
			// every fair run ends.
			name: "exch-one-writes-1", init: "x=0;",
			threads: []string{"L: ; atom.relaxed.gpu.exch r0, x, 0 ; beq r0, 0, L", "L: ; atom.relaxed.gpu.exch r1, x, 1 ; beq r1, 0, L"},
		},
		{
			// A lock taken and never released: P1's CAS fails for ever
			// once P0 holds it, and P0 finishes; P1 alone keeps stepping.
			name: "cas-lock-never-released", init: "x=0;",
			threads: []string{"atom.acquire.gpu.cas r0, x, 0, 1", "L: ; atom.acquire.gpu.cas r1, x, 0, 1 ; bne r1, 0, L"},
			spins:   true, where: []string{"P1: atom.acquire.gpu.cas r1, x, 0, 1"},
		},
		{
			// The same lock released: whoever holds it releases it and
			// finishes, and the other's CAS then succeeds (the holder has
			// nothing left to take it again).
			name: "cas-lock-released", init: "x=0;",
			threads: []string{"L: ; atom.acquire.gpu.cas r0, x, 0, 1 ; bne r0, 0, L ; st.release.gpu x, 0",
				"M: ; atom.acquire.gpu.cas r1, x, 0, 1 ; bne r1, 0, M ; st.release.gpu x, 0"},
		},
		{
			// P0 stores and reads back until it reads its own 1; P1's one
			// store of 2 can come between at most once, so P0's second
			// iteration after P1 finished reads 1.
			name: "store-read-back", init: "x=0;",
			threads: []string{"L: ; st.relaxed.gpu x, 1 ; ld.relaxed.gpu r0, x ; bne r0, 1, L", "st.relaxed.gpu x, 2"},
		},
		{
			// A loop with no exit runs for ever whatever the others do.
			name: "store-forever", init: "x=0;",
			threads: []string{"L: ; st.relaxed.gpu x, 1 ; goto L", "ld.relaxed.gpu r0, x"},
			spins:   true, where: []string{"P0: st.relaxed.gpu x, 1"},
		},
		{
			// Guards: P0 swaps in 1 and, when it took 0, jumps back
			// (@p bra). P1 swaps in 0 while its guard !p holds, i.e. once,
			// as p starts 0 and is set by setp to 1. P0 takes 0 first
			// (init) and loops, then takes its own 1 unless P1's single
			// swap came between: every fair run ends.
			name: "guards", init: "x=0;",
			threads: []string{"L: ; atom.relaxed.gpu.exch r0, x, 1 ; setp.eq.s32 p, r0, 0 ; @p bra L",
				"@!p atom.relaxed.gpu.exch r1, x, 0 ; setp.eq.s32 p, 0, 0"},
		},
		{
			// P0's guard negated: it loops while it took a 1. x starts at
			// 1 and P0 itself writes 1 (P1 only reads), so every swap
			// takes a 1 and P0 loops for ever.
			name: "guards-negated", init: "x=1;",
			threads: []string{"L: ; atom.relaxed.gpu.exch r0, x, 1 ; setp.eq.s32 p, r0, 0 ; @!p bra L", "ld.relaxed.gpu r1, x"},
			spins:   true, where: []string{"P0: atom.relaxed.gpu.exch r0, x, 1"},
		},
		{
			name: "two-locations", init: "x=0; y=0;",
			threads: []string{"L: ; atom.relaxed.gpu.exch r0, x, 0 ; beq r0, 1, L", "st.relaxed.gpu y, 1"},
			why:     "two locations, x and y",
		},
		{
			name: "fence", init: "x=0;",
			threads: []string{"L: ; atom.relaxed.gpu.exch r0, x, 0 ; fence.sc.gpu ; beq r0, 1, L", "st.relaxed.gpu x, 1"},
			why:     `P0's "fence.sc.gpu" is outside the fragment`,
		},
		{
			name: "weak", init: "x=0;",
			threads: []string{"L: ; atom.relaxed.gpu.exch r0, x, 0 ; beq r0, 1, L", "st.weak x, 1"},
			why:     "is .weak",
		},
		{
			// A counter loop: untyped atom.add wraps at 32 bits, so the
			// states are finite but many more than the bound.
			name: "counter", init: "x=0;",
			threads: []string{"L: ; atom.relaxed.gpu.add r0, x, 1 ; bne r0, -1, L", "st.relaxed.gpu x, 5"},
			why:     "more than 1000 states", max: 1000,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc := herd(t, fairTest(c.init, c.threads...))
			require.NotNil(t, WritingLoop(tc))
			got := FairTermination(tc, c.max)
			if c.why != "" {
				assert.False(t, got.Decided)
				assert.Contains(t, got.Why, c.why)
				return
			}
			require.True(t, got.Decided, got.Why)
			assert.Equal(t, c.spins, got.Spins)
			assert.Equal(t, c.where, got.Where)
			assert.Positive(t, got.States)
		})
	}
}

// TestWritingLoop: only a loop with an instruction that writes on its
// cycle counts; an await and a store after a loop do not.
func TestWritingLoop(t *testing.T) {
	await := herd(t, fairTest("x=0;", "L: ; ld.relaxed.gpu r0, x ; beq r0, 0, L ; st.relaxed.gpu x, 2", "st.relaxed.gpu x, 1"))
	assert.Nil(t, WritingLoop(await))
	exch := herd(t, fairTest("x=0;", "L: ; atom.relaxed.gpu.exch r0, x, 0 ; beq r0, 0, L", "st.relaxed.gpu x, 1"))
	require.NotNil(t, WritingLoop(exch))
	assert.Equal(t, "atom.relaxed.gpu.exch r0, x, 0", WritingLoop(exch).Text)
}
