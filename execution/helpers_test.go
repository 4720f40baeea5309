package execution

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

// herd parses a herd-format test from its text.
func herd(t testing.TB, src string) *litmus.Test {
	t.Helper()
	tc, err := litmus.ParseHerd("t.litmus", []byte(src))
	require.NoError(t, err)
	return tc
}

// nv parses a one-instance NV-format test from its text.
func nv(t *testing.T, src string) *litmus.Test {
	t.Helper()
	tests, err := litmus.ParseNV("t.test", []byte(src))
	require.NoError(t, err)
	require.Len(t, tests, 1)
	return tests[0]
}

// prepare analyses a test with the given options.
func prepare(t *testing.T, tc *litmus.Test, opts Options) *Analysis {
	t.Helper()
	a, err := Prepare(tc, opts)
	require.NoError(t, err)
	return a
}

// opts returns the default options with the given unrolling bound and
// spin reduction.
func opts(unroll int, spin bool) Options {
	o := DefaultOptions()
	o.Unroll = unroll
	o.SpinReduction = spin
	return o
}

// collect enumerates every candidate of a, cloned.
func collect(t *testing.T, a *Analysis) []*Execution {
	t.Helper()
	var out []*Execution
	_, err := a.Enumerate(0, func(x *Execution) bool {
		out = append(out, x.Clone())
		return true
	})
	require.NoError(t, err)
	return out
}

// rfText describes a candidate's reads-from as sorted "READ<-WRITE" lines,
// with events named by their labels.
func rfText(x *Execution) []string {
	var out []string
	for r, w := range x.RF {
		if w >= 0 {
			out = append(out, x.Label(r)+" <- "+x.Label(w))
		}
	}
	sort.Strings(out)
	return out
}

// regs describes the final values of the given registers of a candidate,
// "P1:r0=1" or "P1:r0=?" for a register without a value.
func regs(x *Execution, names ...string) string {
	var parts []string
	for _, n := range names {
		th, reg, _ := strings.Cut(n, ":")
		idx := -1
		for _, tt := range x.Test.Threads {
			if tt.Name == th {
				idx = tt.Index
			}
		}
		if idx < 0 {
			panic("unknown thread " + th)
		}
		v, ok := x.Reg(idx, reg)
		if !ok {
			parts = append(parts, n+"=?")
			continue
		}
		parts = append(parts, fmt.Sprintf("%s=%s", n, v.format(x.Layout.AddrNames())))
	}
	return strings.Join(parts, " ")
}

// outcomes lists the distinct register outcomes over every candidate,
// sorted.
func outcomes(xs []*Execution, names ...string) []string {
	seen := map[string]bool{}
	var out []string
	for _, x := range xs {
		s := regs(x, names...)
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	sort.Strings(out)
	return out
}

// runShapes describes each run of a thread as its status and its events,
// kind and instruction, e.g. "finished: R ld.weak r0, x; W st.weak y, 1".
func runShapes(a *Analysis, thread int) []string {
	var out []string
	for _, r := range a.Runs[thread] {
		out = append(out, runShape(r))
	}
	return out
}

func runShape(r *Run) string {
	status := "finished"
	if r.Status == Blocked {
		status = "blocked"
	}
	var evs []string
	for _, ev := range r.Events {
		evs = append(evs, ev.Kind.String()+" "+ev.Instr.Text)
	}
	return status + ": " + strings.Join(evs, "; ")
}

// thread0 builds a herd test with locations x, y, z (initially 0) and one
// thread P0 whose instructions are the given lines.
func thread0(t *testing.T, lines ...string) *litmus.Test {
	t.Helper()
	src := "PTX T\n{\nx=0; y=0; z=0;\n}\n P0@cta 0,gpu 0 ;\n"
	for _, l := range lines {
		src += " " + l + " ;\n"
	}
	src += "exists (P0:r0 == 0)\n"
	return herd(t, src)
}

// eventShape is what the tests of asynchronous instructions compare of an
// event: its kind, asynchrony, role, proxy, memory order and scope.
type eventShape struct {
	kind  EventKind
	async bool
	role  Role
	proxy string
	sem   string
	scope string
}

// shapesOf returns the shapes of events, in order.
func shapesOf(events []Event) []eventShape {
	var out []eventShape
	for _, ev := range events {
		out = append(out, eventShape{ev.Kind, ev.Async, ev.Role, ev.Proxy.String(), ev.Sem.String(), ev.Scope.String()})
	}
	return out
}
