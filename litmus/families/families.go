// Package families generates parameterised PTX litmus tests in the herd
// format: the shapes whose candidate executions explode under brute-force
// enumeration, used by ptxmm's benchmarks and available to anyone who wants
// bigger tests than the hand-written ones.
package families

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

func header(n int, cta func(int) int) []string {
	h := make([]string, n)
	for i := range h {
		h[i] = fmt.Sprintf("P%d@cta %d,gpu 0", i, cta(i))
	}
	return h
}

func ownCTA(i int) int { return i }

func locs(names []string) string {
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + "=0; ")
	}
	return strings.TrimSpace(b.String())
}

// IRIW returns independent reads of independent writes: writers threads
// each store 1 to their own location, and two readers load every location,
// in opposite orders, with fence.sc between consecutive loads. The
// condition asks whether the readers see two writes in opposite orders.
func IRIW(writers int) string {
	var names []string
	var cols [][]string
	for i := 0; i < writers; i++ {
		names = append(names, fmt.Sprintf("x%d", i))
		cols = append(cols, []string{fmt.Sprintf("st.relaxed.gpu x%d, 1", i)})
	}
	for r := 0; r < 2; r++ {
		var col []string
		for k := 0; k < writers; k++ {
			loc := k
			if r == 1 {
				loc = writers - 1 - k
			}
			if k > 0 {
				col = append(col, "fence.sc.gpu")
			}
			col = append(col, fmt.Sprintf("ld.relaxed.gpu r%d, x%d", k, loc))
		}
		cols = append(cols, col)
	}
	a, b := writers, writers+1
	last := writers - 1
	cond := fmt.Sprintf("P%d:r0 == 1 /\\ P%d:r%d == 0 /\\ P%d:r0 == 1 /\\ P%d:r%d == 0", a, a, last, b, b, last)
	return fmt.Sprintf("PTX IRIW-%dW\n{\n%s\n}\n%sexists (%s)\n", writers, locs(names), program.Table(header(writers+2, ownCTA), cols), cond)
}

// SBRing returns store buffering around a ring of n threads: thread i
// stores to x_i, runs fence.sc, and loads x_{i+1}. The condition asks
// whether every load returns 0, which the Fence-SC order forbids.
func SBRing(n int) string {
	var names []string
	var cols [][]string
	var conj []string
	for i := 0; i < n; i++ {
		names = append(names, fmt.Sprintf("x%d", i))
		cols = append(cols, []string{fmt.Sprintf("st.weak x%d, 1", i), "fence.sc.gpu", fmt.Sprintf("ld.weak r0, x%d", (i+1)%n)})
		conj = append(conj, fmt.Sprintf("P%d:r0 == 0", i))
	}
	return fmt.Sprintf("PTX SB-ring-%d\n{\n%s\n}\n%sexists (%s)\n", n, locs(names), program.Table(header(n, ownCTA), cols), strings.Join(conj, " /\\ "))
}

// CoWRThreads returns n threads that each store a distinct value to one
// location and then load it, all relaxed at GPU scope: coherence,
// sequential consistency per location and atomicity decide every outcome.
// The condition asks whether every thread reads its own store.
func CoWRThreads(n int) string {
	var cols [][]string
	var conj []string
	for i := 0; i < n; i++ {
		cols = append(cols, []string{fmt.Sprintf("st.relaxed.gpu x, %d", i+1), "ld.relaxed.gpu r0, x"})
		conj = append(conj, fmt.Sprintf("P%d:r0 == %d", i, i+1))
	}
	return fmt.Sprintf("PTX CoWR-%d\n{\nx=0;\n}\n%sexists (%s)\n", n, program.Table(header(n, ownCTA), cols), strings.Join(conj, " /\\ "))
}

// MPPayload returns message passing with n payload locations: the producer
// stores each payload and then releases a flag; the consumer acquires the
// flag and loads every payload. The condition asks whether the consumer can
// see the flag but a stale payload, which release/acquire forbids.
func MPPayload(n int) string {
	names := []string{"flag"}
	var prod, cons []string
	var stale []string
	cons = append(cons, "ld.acquire.gpu r0, flag")
	for i := 0; i < n; i++ {
		names = append(names, fmt.Sprintf("d%d", i))
		prod = append(prod, fmt.Sprintf("st.weak d%d, 1", i))
		cons = append(cons, fmt.Sprintf("ld.weak r%d, d%d", i+1, i))
		stale = append(stale, fmt.Sprintf("P1:r%d == 0", i+1))
	}
	prod = append(prod, "st.release.gpu flag, 1")
	return fmt.Sprintf("PTX MP-%dpayload\n{\n%s\n}\n%sexists (P1:r0 == 1 /\\ (%s))\n", n, locs(names),
		program.Table(header(2, ownCTA), [][]string{prod, cons}), strings.Join(stale, " \\/ "))
}

// StoreColumn returns one thread that stores 1 to n to one location and
// then loads it: one read with n+1 writes to choose from, of which
// coherence allows only the last, in a candidate of n+2 events.
func StoreColumn(n int) string {
	col := make([]string, 0, n+1)
	for i := 1; i <= n; i++ {
		col = append(col, fmt.Sprintf("st.relaxed.gpu x, %d", i))
	}
	col = append(col, "ld.relaxed.gpu r0, x")
	return fmt.Sprintf("PTX Stores-%d\n{\nx=0;\n}\n%sexists (P0:r0 == %d)\n", n, program.Table(header(1, ownCTA), [][]string{col}), n)
}
