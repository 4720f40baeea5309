package execution

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// barrierText describes a candidate's barrier outcome: its groups, each as
// the arrivals "THREAD.K" (the K-th event of the thread's run), and the
// threads left blocked, e.g. "groups [P0.0+P1.0] blocked [P2]".
func barrierText(x *Execution) string {
	name := func(ev int) string {
		for t := len(x.ThreadStart) - 1; t >= 0; t-- {
			if ev >= x.ThreadStart[t] {
				return fmt.Sprintf("%s.%d", x.Test.Threads[t].Name, ev-x.ThreadStart[t])
			}
		}
		return "init"
	}
	var groups []string
	for _, g := range x.BarGroups {
		var members []string
		for _, ev := range g {
			members = append(members, name(ev))
		}
		sort.Strings(members)
		groups = append(groups, strings.Join(members, "+"))
	}
	sort.Strings(groups)
	var blocked []string
	for t := range x.Runs {
		if x.Blocked(t) {
			blocked = append(blocked, x.Test.Threads[t].Name)
		}
	}
	return fmt.Sprintf("groups [%s] blocked [%s]", strings.Join(groups, " "), strings.Join(blocked, " "))
}

// barrierTest builds a herd test from thread columns: each column is the
// thread's placement ("cta 0") followed by its instructions.
func barrierTest(t *testing.T, cols ...[]string) *Analysis {
	t.Helper()
	rows := 0
	for _, c := range cols {
		rows = max(rows, len(c))
	}
	var b strings.Builder
	b.WriteString("PTX B\n{ x=0; }\n")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(" | ")
		}
		fmt.Fprintf(&b, "P%d@%s,gpu 0", i, c[0])
	}
	b.WriteString(" ;\n")
	for r := 1; r < rows; r++ {
		for i, c := range cols {
			if i > 0 {
				b.WriteString(" | ")
			}
			if r < len(c) {
				b.WriteString(c[r])
			}
		}
		b.WriteString(" ;\n")
	}
	b.WriteString("exists (x == 0)\n")
	return prepare(t, herd(t, b.String()), opts(2, true))
}

// barrierOutcomes enumerates a test's candidates and describes each with
// barrierText, sorted.
func barrierOutcomes(t *testing.T, a *Analysis) []string {
	t.Helper()
	var out []string
	for _, x := range collect(t, a) {
		out = append(out, barrierText(x))
	}
	sort.Strings(out)
	return out
}

// TestBarrierGroupings checks barrier semantics through the candidates
// Enumerate yields (docs/model.md, "Barriers").
func TestBarrierGroupings(t *testing.T) {
	cases := []struct {
		name string
		cols [][]string
		want []string
	}{
		{
			name: "without count, every arrival of the instance completes together",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0"},
				{"cta 0", "bar.cta.sync 0"},
				{"cta 0", "bar.cta.sync 0"},
			},
			// The runs blocked at the barrier cannot be executions: the
			// barrier completes once all three arrive.
			want: []string{"groups [P0.0+P1.0+P2.0] blocked []"},
		},
		{
			name: "without count, the k-th arrivals form the k-th group",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0", "bar.cta.sync 0"},
				{"cta 0", "bar.cta.sync 0", "bar.cta.sync 0"},
			},
			want: []string{"groups [P0.0+P1.0 P0.1+P1.1] blocked []"},
		},
		{
			name: "a thread that skips the barrier and exits is not waited for",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0"},
				{"cta 0", "ld.weak r0, x", "beq r0, 0, L", "bar.cta.sync 0", "L:"},
				{"cta 0", "st.weak x, 1"},
			},
			// P1 arrives when it reads x=1 (from P2); when it reads 0 it
			// skips the barrier and exits, and P0's barrier completes
			// without it (PTX ISA 9.7.13.1: "non-exited threads").
			want: []string{
				"groups [P0.0+P1.1] blocked []",
				"groups [P0.0] blocked []",
			},
		},
		{
			name: "a thread that skips the barrier and then waits forever blocks the others",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0"},
				{"cta 0", "ld.weak r0, x", "beq r0, 0, L", "bar.cta.sync 0", "L:", "bar.cta.sync 1, 0, 2"},
				{"cta 0", "st.weak x, 1"},
			},
			// When P1 reads 0 it skips barrier 0 and waits at a barrier of
			// two that nobody else joins: it has not exited, so P0 waits
			// for it forever.
			want: []string{
				"groups [P0.0+P1.1] blocked [P1]",
				"groups [] blocked [P0 P1]",
			},
		},
		{
			name: "a barrier that skips an exited thread completes after its exit",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0", "bar.cta.sync 1"},
				{"cta 0", "bar.cta.sync 1", "beq r2, 0, L", "bar.cta.sync 0", "L:"},
			},
			// P1 (r2 = 0) waits at barrier 1 and then exits without
			// arriving at barrier 0; barrier 0 completes only after that
			// exit, barrier 1 only after P0 passed barrier 0: a deadlock,
			// left only as the hang in which both wait.
			want: []string{"groups [] blocked [P0 P1]"},
		},
		{
			name: "logical ids that differ do not meet",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0, 1"},
				{"cta 0", "bar.cta.sync 0, 2"},
			},
			want: []string{"groups [P0.0 P1.0] blocked []"},
		},
		{
			name: "instances that differ do not meet",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0"},
				{"cta 0", "bar.cta.sync 1"},
			},
			want: []string{"groups [P0.0 P1.0] blocked []"},
		},
		{
			name: "a register id equal to the other's meets it",
			cols: [][]string{
				{"cta 0", "mov r1, 1", "bar.cta.sync 0, r1"},
				{"cta 0", "bar.cta.sync 0, 1"},
			},
			want: []string{"groups [P0.0+P1.0] blocked []"},
		},
		{
			name: "a register id that differs: the thread waits elsewhere",
			cols: [][]string{
				{"cta 0", "mov r1, 2", "bar.cta.sync 0, r1"},
				{"cta 0", "bar.cta.sync 0, 1"},
			},
			want: []string{"groups [P0.0 P1.0] blocked []"},
		},
		{
			name: "count 2 with 3 arrivals: every pair, the third blocked",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
			},
			want: []string{
				"groups [P0.0+P1.0] blocked [P2]",
				"groups [P0.0+P2.0] blocked [P1]",
				"groups [P1.0+P2.0] blocked [P0]",
			},
		},
		{
			name: "count 2 with 4 arrivals: every partition into pairs",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
			},
			want: []string{
				"groups [P0.0+P1.0 P2.0+P3.0] blocked []",
				"groups [P0.0+P2.0 P1.0+P3.0] blocked []",
				"groups [P0.0+P3.0 P1.0+P2.0] blocked []",
			},
		},
		{
			name: "count larger than the arrivals: all blocked",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0, 0, 3"},
				{"cta 0", "bar.cta.sync 0, 0, 3"},
			},
			want: []string{"groups [] blocked [P0 P1]"},
		},
		{
			name: "count 2: one thread's two arrivals never form a group",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0, 0, 2", "bar.cta.sync 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
			},
			// P0's first arrival pairs with P1's; P0's second is left over.
			want: []string{"groups [P0.0+P1.0] blocked [P0]"},
		},
		{
			// Regression: a thread arriving twice at a barrier of 2 that
			// nobody joins had no execution at all.
			name: "count 2: one thread arriving twice alone, never blocking",
			cols: [][]string{
				{"cta 0", "bar.cta.arrive 0, 0, 2", "bar.cta.arrive 0, 0, 2"},
			},
			want: []string{"groups [] blocked []"},
		},
		{
			name: "count 2: a sync meets any one of three arrives of a thread",
			cols: [][]string{
				{"cta 0", "bar.cta.arrive 0, 0, 2", "bar.cta.arrive 0, 0, 2", "bar.cta.arrive 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
			},
			want: []string{
				"groups [P0.0+P1.0] blocked []",
				"groups [P0.1+P1.0] blocked []",
				"groups [P0.2+P1.0] blocked []",
			},
		},
		{
			name: "count 2: arrivals of one thread left over do not stop others meeting",
			cols: [][]string{
				{"cta 0", "bar.cta.arrive 0, 0, 2", "bar.cta.arrive 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
			},
			// A sync left over with an arrive of P0 would form a group with
			// it, so nobody is blocked; both of P0's arrives may be left.
			want: []string{
				"groups [P0.0+P1.0 P0.1+P2.0] blocked []",
				"groups [P0.0+P2.0 P0.1+P1.0] blocked []",
				"groups [P1.0+P2.0] blocked []",
			},
		},
		{
			name: "arrive never blocks and completes the barrier",
			cols: [][]string{
				{"cta 0", "bar.cta.arrive 0"},
				{"cta 0", "bar.cta.sync 0"},
			},
			want: []string{"groups [P0.0+P1.0] blocked []"},
		},
		{
			name: "arrive alone with a count: left over, not blocked",
			cols: [][]string{
				{"cta 0", "bar.cta.arrive 0, 0, 2"},
			},
			want: []string{"groups [] blocked []"},
		},
		{
			name: "arrive with count 2 and 2 syncs: either sync pairs with it",
			cols: [][]string{
				{"cta 0", "bar.cta.arrive 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
				{"cta 0", "bar.cta.sync 0, 0, 2"},
			},
			want: []string{
				"groups [P0.0+P1.0] blocked [P2]",
				"groups [P0.0+P2.0] blocked [P1]",
				"groups [P1.0+P2.0] blocked []",
			},
		},
		{
			name: "groups waiting for each other are no execution; both blocked is",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0", "bar.cta.sync 1"},
				{"cta 0", "bar.cta.sync 1", "bar.cta.sync 0"},
			},
			want: []string{"groups [] blocked [P0 P1]"},
		},
		{
			name: "the same barriers in the same order complete",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0", "bar.cta.sync 1"},
				{"cta 0", "bar.cta.sync 0", "bar.cta.sync 1"},
			},
			want: []string{"groups [P0.0+P1.0 P0.1+P1.1] blocked []"},
		},
		{
			name: "different CTAs never meet (without count)",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0"},
				{"cta 1", "bar.cta.sync 0"},
			},
			want: []string{"groups [P0.0 P1.0] blocked []"},
		},
		{
			name: "different CTAs never meet (count 2)",
			cols: [][]string{
				{"cta 0", "bar.cta.sync 0, 0, 2"},
				{"cta 1", "bar.cta.sync 0, 0, 2"},
			},
			want: []string{"groups [] blocked [P0 P1]"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := barrierTest(t, c.cols...)
			assert.Equal(t, c.want, barrierOutcomes(t, a))
		})
	}
}

// TestBarrierGroupingErrors: one barrier used with different thread counts,
// or with and without a count, is an error; so is a count that is not
// positive.
func TestBarrierGroupingErrors(t *testing.T) {
	cases := []struct {
		name string
		cols [][]string
		want string
	}{
		{
			name: "two counts",
			cols: [][]string{{"cta 0", "bar.cta.sync 0, 0, 2"}, {"cta 0", "bar.cta.sync 0, 0, 3"}},
			want: "barrier instance 0, id 0 in CTA 0 is used with different thread counts",
		},
		{
			name: "count and no count",
			cols: [][]string{{"cta 0", "bar.cta.sync 0"}, {"cta 0", "bar.cta.sync 0, 0, 2"}},
			want: "barrier instance 0, id 0 in CTA 0 is used with different thread counts",
		},
		{
			name: "count zero in a register",
			cols: [][]string{{"cta 0", "mov r1, 0", "bar.cta.sync 0, 0, r1"}},
			want: "barrier thread count 0 is not positive",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := barrierTest(t, c.cols...)
			_, err := a.Enumerate(0, func(*Execution) bool { return true })
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.want)
		})
	}
}

// TestBarrierGroupingsDirect exercises barrierGroupings on hand-made
// arrivals: the statuses of the runs decide which groupings are valid.
func TestBarrierGroupingsDirect(t *testing.T) {
	tc := barrierTest(t, []string{"cta 0", "bar.cta.sync 0"}, []string{"cta 0", "bar.cta.sync 0"}).Test
	arr := func(ev, thread int, blocked bool) barrierArrival {
		return barrierArrival{ev: ev, thread: thread, warp: -1, inst: 0, id: 0, count: -1, sync: true, blocked: blocked}
	}
	// P1's run: waiting forever elsewhere (Spinning) or exited (Finished).
	cases := []struct {
		name     string
		arrivals []barrierArrival
		p1       RunStatus
		want     [][][]int
	}{
		{"no barriers: one empty grouping", nil, Finished, [][][]int{nil}},
		{"both passed", []barrierArrival{arr(1, 0, false), arr(2, 1, false)}, Finished, [][][]int{{{1, 2}}}},
		{"one blocked although the barrier completes", []barrierArrival{arr(1, 0, true), arr(2, 1, false)}, Finished, nil},
		{"one passed although the other never arrives", []barrierArrival{arr(1, 0, false)}, Spinning, nil},
		{"blocked, the other never arrives", []barrierArrival{arr(1, 0, true)}, Spinning, [][][]int{nil}},
		{"one passed, the other exited", []barrierArrival{arr(1, 0, false)}, Finished, [][][]int{{{1}}}},
		{"blocked although the other exited", []barrierArrival{arr(1, 0, true)}, Finished, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := &Execution{Runs: []*Run{{Status: Finished}, {Status: c.p1}}, ThreadStart: []int{0, 0}}
			got, err := barrierGroupings(tc, c.arrivals, x)
			require.NoError(t, err)
			assert.Equal(t, c.want, got)
		})
	}
}
