package execution

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostTest is a herd test with host thread H0 running body (cells separated
// by " ;\n") beside device threads P0 (kernel K0, gpu 0) and P1 (kernel
// K1, gpu gpu1).
func hostTest(gpu1 int, body ...string) string {
	rows := ""
	for i, b := range body {
		dev := " | "
		if i == 0 {
			dev = " | st x, 1 | ld r0, x"
		} else {
			dev = " | | "
		}
		rows += " " + b + dev + " ;\n"
	}
	return fmt.Sprintf("PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu %d,kernel K1 ;\n%sexists (x == 0)\n", gpu1, rows)
}

// hostFacts describes a host run: its events (kind and label, without the
// thread), then its pairs, each named by the labels of its two events.
func hostFacts(a *Analysis, r *Run) []string {
	label := func(i int) string {
		return strings.TrimPrefix(r.Events[i].Label(a.Test, a.Layout), "H0:")
	}
	var out []string
	for i := range r.Events {
		ev := &r.Events[i]
		async := ""
		if ev.Async {
			async = " async"
		}
		out = append(out, fmt.Sprintf("%s%s %s", ev.Kind, async, label(i)))
	}
	for _, rel := range []struct {
		name  string
		pairs [][2]int
	}{
		{"stream_next", r.Host.StreamNext}, {"event_wait", r.Host.EventWait}, {"barrier_wait", r.Host.BarrierWait},
		{"api_wait", r.Host.APIWait}, {"graph_dep", r.Host.GraphDep},
	} {
		for _, p := range rel.pairs {
			out = append(out, fmt.Sprintf("%s: %s -> %s", rel.name, label(p[0]), label(p[1])))
		}
	}
	return out
}

// TestHostRuns checks the events of host runs and how their tasks are
// ordered and matched, call by call.
func TestHostRuns(t *testing.T) {
	cases := []struct {
		name string
		body []string
		want [][]string // one list per run of H0
	}{
		{"launch and stream synchronize", []string{"cudaLaunchKernel K0, s1", "cudaLaunchKernel K1, s1", "cudaStreamSynchronize s1"}, [][]string{{
			"A cudaLaunchKernel K0, s1",
			"T async cudaLaunchKernel K0, s1 [kernel K0 start in s1]",
			"T async cudaLaunchKernel K0, s1 [kernel K0 end in s1]",
			"A cudaLaunchKernel K1, s1",
			"T async cudaLaunchKernel K1, s1 [kernel K1 start in s1]",
			"T async cudaLaunchKernel K1, s1 [kernel K1 end in s1]",
			"A cudaStreamSynchronize s1",
			"stream_next: cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaLaunchKernel K1, s1 [kernel K1 start in s1]",
			"api_wait: cudaLaunchKernel K1, s1 [kernel K1 end in s1] -> cudaStreamSynchronize s1",
		}}},
		{"blocking stream then legacy stream", []string{"cudaLaunchKernel K0, s1", "cudaLaunchKernel K1"}, [][]string{{
			"A cudaLaunchKernel K0, s1",
			"T async cudaLaunchKernel K0, s1 [kernel K0 start in s1]",
			"T async cudaLaunchKernel K0, s1 [kernel K0 end in s1]",
			"A cudaLaunchKernel K1",
			"T async cudaLaunchKernel K1 [legacy barrier arrival in s1]",
			"T async cudaLaunchKernel K1 [legacy barrier wait in stream 0]",
			"T async cudaLaunchKernel K1 [kernel K1 start in stream 0]",
			"T async cudaLaunchKernel K1 [kernel K1 end in stream 0]",
			"stream_next: cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaLaunchKernel K1 [legacy barrier arrival in s1]",
			"stream_next: cudaLaunchKernel K1 [legacy barrier wait in stream 0] -> cudaLaunchKernel K1 [kernel K1 start in stream 0]",
			"barrier_wait: cudaLaunchKernel K1 [legacy barrier arrival in s1] -> cudaLaunchKernel K1 [legacy barrier wait in stream 0]",
		}}},
		{"legacy stream then blocking stream", []string{"cudaLaunchKernel K0, cudaStreamLegacy", "cudaLaunchKernel K1, s1"}, [][]string{{
			"A cudaLaunchKernel K0, cudaStreamLegacy",
			"T async cudaLaunchKernel K0, cudaStreamLegacy [kernel K0 start in stream 0]",
			"T async cudaLaunchKernel K0, cudaStreamLegacy [kernel K0 end in stream 0]",
			"A cudaLaunchKernel K1, s1",
			"T async cudaLaunchKernel K1, s1 [legacy barrier arrival in stream 0]",
			"T async cudaLaunchKernel K1, s1 [legacy barrier wait in s1]",
			"T async cudaLaunchKernel K1, s1 [kernel K1 start in s1]",
			"T async cudaLaunchKernel K1, s1 [kernel K1 end in s1]",
			"stream_next: cudaLaunchKernel K0, cudaStreamLegacy [kernel K0 end in stream 0] -> cudaLaunchKernel K1, s1 [legacy barrier arrival in stream 0]",
			"stream_next: cudaLaunchKernel K1, s1 [legacy barrier wait in s1] -> cudaLaunchKernel K1, s1 [kernel K1 start in s1]",
			"barrier_wait: cudaLaunchKernel K1, s1 [legacy barrier arrival in stream 0] -> cudaLaunchKernel K1, s1 [legacy barrier wait in s1]",
		}}},
		{"non-blocking streams get no legacy barrier", []string{"cudaStreamCreateWithFlags s1, cudaStreamNonBlocking", "cudaLaunchKernel K0, s1", "cudaLaunchKernel K1, 0"}, [][]string{{
			"A cudaLaunchKernel K0, s1",
			"T async cudaLaunchKernel K0, s1 [kernel K0 start in s1]",
			"T async cudaLaunchKernel K0, s1 [kernel K0 end in s1]",
			"A cudaLaunchKernel K1, 0",
			"T async cudaLaunchKernel K1, 0 [kernel K1 start in stream 0]",
			"T async cudaLaunchKernel K1, 0 [kernel K1 end in stream 0]",
		}}},
		{"event record, wait and synchronize", []string{"cudaLaunchKernel K0, s1", "cudaEventRecord e, s1", "cudaStreamWaitEvent s2, e", "cudaLaunchKernel K1, s2", "cudaEventSynchronize e"}, [][]string{{
			"A cudaLaunchKernel K0, s1",
			"T async cudaLaunchKernel K0, s1 [kernel K0 start in s1]",
			"T async cudaLaunchKernel K0, s1 [kernel K0 end in s1]",
			"A cudaEventRecord e, s1",
			"T async cudaEventRecord e, s1 [event record e in s1]",
			"A cudaStreamWaitEvent s2, e",
			"T async cudaStreamWaitEvent s2, e [event wait e in s2]",
			"A cudaLaunchKernel K1, s2",
			"T async cudaLaunchKernel K1, s2 [kernel K1 start in s2]",
			"T async cudaLaunchKernel K1, s2 [kernel K1 end in s2]",
			"A cudaEventSynchronize e",
			"stream_next: cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaEventRecord e, s1 [event record e in s1]",
			"stream_next: cudaStreamWaitEvent s2, e [event wait e in s2] -> cudaLaunchKernel K1, s2 [kernel K1 start in s2]",
			"event_wait: cudaEventRecord e, s1 [event record e in s1] -> cudaStreamWaitEvent s2, e [event wait e in s2]",
			"api_wait: cudaEventRecord e, s1 [event record e in s1] -> cudaEventSynchronize e",
		}}},
		{"waiting on an event never recorded", []string{"cudaStreamWaitEvent s2, e", "cudaLaunchKernel K0, s2", "cudaLaunchKernel K1, s1", "cudaEventSynchronize e"}, [][]string{{
			"A cudaStreamWaitEvent s2, e",
			"T async cudaStreamWaitEvent s2, e [event wait e in s2]",
			"A cudaLaunchKernel K0, s2",
			"T async cudaLaunchKernel K0, s2 [kernel K0 start in s2]",
			"T async cudaLaunchKernel K0, s2 [kernel K0 end in s2]",
			"A cudaLaunchKernel K1, s1",
			"T async cudaLaunchKernel K1, s1 [kernel K1 start in s1]",
			"T async cudaLaunchKernel K1, s1 [kernel K1 end in s1]",
			"A cudaEventSynchronize e",
			"stream_next: cudaStreamWaitEvent s2, e [event wait e in s2] -> cudaLaunchKernel K0, s2 [kernel K0 start in s2]",
		}}},
		{"a query returns either result", []string{"cudaLaunchKernel K0, s1", "cudaLaunchKernel K1, s2", "cudaStreamQuery r1, s1"}, [][]string{{
			"A cudaLaunchKernel K0, s1",
			"T async cudaLaunchKernel K0, s1 [kernel K0 start in s1]",
			"T async cudaLaunchKernel K0, s1 [kernel K0 end in s1]",
			"A cudaLaunchKernel K1, s2",
			"T async cudaLaunchKernel K1, s2 [kernel K1 start in s2]",
			"T async cudaLaunchKernel K1, s2 [kernel K1 end in s2]",
			"A cudaStreamQuery r1, s1 [returns cudaSuccess]",
			"api_wait: cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaStreamQuery r1, s1 [returns cudaSuccess]",
		}, {
			"A cudaLaunchKernel K0, s1",
			"T async cudaLaunchKernel K0, s1 [kernel K0 start in s1]",
			"T async cudaLaunchKernel K0, s1 [kernel K0 end in s1]",
			"A cudaLaunchKernel K1, s2",
			"T async cudaLaunchKernel K1, s2 [kernel K1 start in s2]",
			"T async cudaLaunchKernel K1, s2 [kernel K1 end in s2]",
			"A cudaStreamQuery r1, s1 [returns cudaErrorNotReady]",
			"api_wait: cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaStreamQuery r1, s1 [returns cudaErrorNotReady]",
		}}},
		{"a query of an idle stream succeeds", []string{"cudaEventQuery r1, e", "cudaLaunchKernel K0, s1", "cudaLaunchKernel K1, s1"}, [][]string{{
			"A cudaEventQuery r1, e [returns cudaSuccess]",
			"A cudaLaunchKernel K0, s1",
			"T async cudaLaunchKernel K0, s1 [kernel K0 start in s1]",
			"T async cudaLaunchKernel K0, s1 [kernel K0 end in s1]",
			"A cudaLaunchKernel K1, s1",
			"T async cudaLaunchKernel K1, s1 [kernel K1 start in s1]",
			"T async cudaLaunchKernel K1, s1 [kernel K1 end in s1]",
			"stream_next: cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaLaunchKernel K1, s1 [kernel K1 start in s1]",
		}}},
		{"device synchronize waits for every stream of the device", []string{"cudaLaunchKernel K0, s1", "cudaLaunchKernel K1, s2", "cudaDeviceSynchronize"}, [][]string{{
			"A cudaLaunchKernel K0, s1",
			"T async cudaLaunchKernel K0, s1 [kernel K0 start in s1]",
			"T async cudaLaunchKernel K0, s1 [kernel K0 end in s1]",
			"A cudaLaunchKernel K1, s2",
			"T async cudaLaunchKernel K1, s2 [kernel K1 start in s2]",
			"T async cudaLaunchKernel K1, s2 [kernel K1 end in s2]",
			"A cudaDeviceSynchronize",
			"api_wait: cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaDeviceSynchronize",
			"api_wait: cudaLaunchKernel K1, s2 [kernel K1 end in s2] -> cudaDeviceSynchronize",
		}}},
		{"a graph", []string{"cudaGraphAddKernelNode g, K0", "cudaGraphAddEmptyNode g, j, K0", "cudaGraphAddKernelNode g, K1, j", "cudaGraphLaunch g, s1"}, [][]string{{
			"A cudaGraphLaunch g, s1",
			"T async cudaGraphLaunch g, s1 [graph g start in s1]",
			"T async cudaGraphLaunch g, s1 [kernel K0 start]",
			"T async cudaGraphLaunch g, s1 [kernel K0 end]",
			"T async cudaGraphLaunch g, s1 [empty node j]",
			"T async cudaGraphLaunch g, s1 [kernel K1 start]",
			"T async cudaGraphLaunch g, s1 [kernel K1 end]",
			"T async cudaGraphLaunch g, s1 [graph g end in s1]",
			"graph_dep: cudaGraphLaunch g, s1 [kernel K0 end] -> cudaGraphLaunch g, s1 [empty node j]",
			"graph_dep: cudaGraphLaunch g, s1 [empty node j] -> cudaGraphLaunch g, s1 [kernel K1 start]",
		}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a := prepare(t, herd(t, hostTest(0, tc.body...)), opts(2, true))
			require.Len(t, a.Runs[0], len(tc.want))
			for i, r := range a.Runs[0] {
				assert.Equal(t, tc.want[i], hostFacts(a, r), "run %d", i)
			}
		})
	}
}

// TestHostGraphNodes checks the source and sink marks of graph nodes.
func TestHostGraphNodes(t *testing.T) {
	a := prepare(t, herd(t, hostTest(0, "cudaGraphAddKernelNode g, K0", "cudaGraphAddEmptyNode g, j, K0", "cudaGraphAddKernelNode g, K1", "cudaGraphLaunch g, s1")), opts(2, true))
	var got []string
	for _, ev := range a.Runs[0][0].Events {
		if ev.Host != nil && ev.Host.IsNode() {
			got = append(got, fmt.Sprintf("%s %s source=%v sink=%v", ev.Host.Task, ev.Host.Name, ev.Host.Source, ev.Host.Sink))
		}
	}
	assert.Equal(t, []string{
		"kernel K0 source=true sink=false", "kernel K0 source=true sink=false",
		"empty node j source=false sink=true",
		"kernel K1 source=true sink=true", "kernel K1 source=true sink=true",
	}, got)
}

// TestKernelThreadBoundaries checks that device threads of a kernel start
// with a start event and, when they finish, end with an end event, and
// that threads of tests without host threads have neither.
func TestKernelThreadBoundaries(t *testing.T) {
	a := prepare(t, herd(t, "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 | P1@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | st x, 1 | bar.sync 0, 0, 2 ;\n | bar.sync 0, 0, 2 | ;\nexists (x == 0)\n"), opts(2, true))
	describe := func(r *Run) string {
		var parts []string
		for i := range r.Events {
			parts = append(parts, strings.SplitN(r.Events[i].Label(a.Test, a.Layout), ":", 2)[1])
		}
		return fmt.Sprintf("%v: %s", r.Status, strings.Join(parts, "; "))
	}
	var got []string
	notStarted := 0
	for _, r := range a.Runs[1] {
		if r.NotStarted {
			notStarted++
			assert.Empty(t, r.Events, "a thread whose kernel never starts has no events")
			continue
		}
		got = append(got, describe(r))
	}
	assert.ElementsMatch(t, []string{
		"1: thread start; st x, 1; bar.sync 0, 0, 2",
		"0: thread start; st x, 1; bar.sync 0, 0, 2; thread end",
	}, got, "a thread blocked at a barrier has no end")
	assert.Equal(t, 1, notStarted, "a thread may block, so its kernel may never start")
	plain := prepare(t, herd(t, "PTX T\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st x, 1 ;\nexists (x == 0)\n"), opts(2, true))
	require.Len(t, plain.Runs[0], 1)
	assert.Len(t, plain.Runs[0][0].Events, 1, "no boundary events without host threads")
}

// TestHostRunErrors checks the errors that depend on the path a host
// thread takes or on its current device.
func TestHostRunErrors(t *testing.T) {
	cases := []struct {
		name string
		src  string
		msg  string
	}{
		{"launch in a loop", "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n L: | st x, 1 ;\n cudaLaunchKernel K0 | ;\n ld r0, x | ;\n beq r0, 0, L | ;\nexists (x == 0)\n",
			`"cudaLaunchKernel K0" launches K0 a second time in one run of H0 (in a loop?)`},
		{"launch skipped by a branch", "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n ld r0, x | st x, 1 ;\n beq r0, 0, L | ;\n cudaLaunchKernel K0 | ;\n L: | ;\nexists (x == 0)\n",
			`a run of H0 ends without "cudaLaunchKernel K0" (a branch skips it)`},
		{"kernel of another device", hostTest(1, "cudaLaunchKernel K0, s1", "cudaLaunchKernel K1, s2"),
			`kernel K1 runs on gpu 1, but the current device of H0 is 0: call cudaSetDevice 1 before launching it`},
		{"stream of another device", hostTest(1, "cudaLaunchKernel K0, s1", "cudaSetDevice 1", "cudaLaunchKernel K1, s1"),
			`stream s1 belongs to device 0 (the current device when it was first used), but the current device is 1`},
		{"host access to shared memory through a register", "PTX T\n{ s @ shared = 0; H0:r1 = s; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | ld.shared r0, s ;\n ld r2, [r1] | ;\nexists (H0:r2 == 0)\n",
			`"ld r2, [r1]" reaches s, which is not a generic address of global memory`},
		{"stream created twice in a loop", "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | st x, 1 ;\n L: | ;\n cudaStreamCreate s3 | ;\n ld r0, x | ;\n beq r0, 0, L | ;\nexists (x == 0)\n",
			`creates stream s3 a second time in one run of H0`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Prepare(herd(t, tc.src), opts(2, false))
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.msg)
		})
	}
	a := prepare(t, herd(t, hostTest(1, "cudaLaunchKernel K0, s1", "cudaSetDevice 1", "cudaLaunchKernel K1, s2", "cudaDeviceSynchronize")), opts(2, true))
	facts := hostFacts(a, a.Runs[0][0])
	assert.Contains(t, facts, "api_wait: cudaLaunchKernel K1, s2 [kernel K1 end in s2] -> cudaDeviceSynchronize")
	assert.NotContains(t, facts, "api_wait: cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaDeviceSynchronize", "cudaDeviceSynchronize waits for the streams of the current device only")
}
