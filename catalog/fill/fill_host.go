package fill

import (
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
)

// This file fills the catalog's sets and relations about host threads and
// their CUDA calls (entries_host.go). The host runs record how their tasks
// are ordered and matched (execution.HostRun); kernels are tied to their
// device threads by name.

// hostTest returns the test of a set about host-side events, or nil when
// name is not one.
func hostTest(name string) eventTest {
	switch name {
	case "HOST", "HOST_NATIVE_ATOMIC", "TASK_START", "TASK_END":
		return func(*execution.Event) bool { return false } // decided by hostExecSet, which knows the execution
	case "API":
		return func(ev *execution.Event) bool { return ev.Kind == execution.KindAPI }
	case "SYNC_CALL":
		return func(ev *execution.Event) bool {
			if ev.Kind != execution.KindAPI {
				return false
			}
			switch ev.Instr.API.Fn {
			case litmus.APIStreamSynchronize, litmus.APIEventSynchronize, litmus.APIDeviceSynchronize:
				return true
			}
			return false
		}
	case "QUERY_OK":
		return func(ev *execution.Event) bool {
			return ev.Kind == execution.KindAPI && ev.Host != nil && ev.Host.Success
		}
	case "GRAPH_SOURCE":
		return func(ev *execution.Event) bool {
			return ev.Kind == execution.KindTask && ev.Host != nil && ev.Host.IsNode() && ev.Host.Source
		}
	case "GRAPH_SINK":
		return func(ev *execution.Event) bool {
			return ev.Kind == execution.KindTask && ev.Host != nil && ev.Host.IsNode() && ev.Host.Sink
		}
	case "THREAD_START":
		return func(ev *execution.Event) bool {
			return ev.Kind == execution.KindTask && ev.Role == execution.RoleThreadStart
		}
	case "THREAD_END":
		return func(ev *execution.Event) bool {
			return ev.Kind == execution.KindTask && ev.Role == execution.RoleThreadEnd
		}
	}
	return nil
}

// hostExecSet decides whether event i of x is in HOST, HOST_NATIVE_ATOMIC
// (which depend on the thread and the test), TASK_START or TASK_END (a task
// that never starts or never completes, because a kernel waits forever, is
// in neither: docs/model.md, section 23, "Hangs with host threads").
func hostExecSet(name string, x *execution.Execution, i int) bool {
	ev := &x.Events[i]
	switch name {
	case "TASK_START":
		return ev.Kind == execution.KindTask && (ev.Role == execution.RoleTaskStart || ev.Role == execution.RoleTask) && !x.TaskIdle(i)
	case "TASK_END":
		return ev.Kind == execution.KindTask && (ev.Role == execution.RoleTaskEnd || ev.Role == execution.RoleTask) && !x.TaskIdle(i)
	}
	if ev.IsInit() || !x.Test.Threads[ev.Thread].Host {
		return false
	}
	return name == "HOST" || x.Test.HostNativeAtomics
}

// fillHostRel computes a relation of entries_host.go.
func fillHostRel(r *relations.Rel, name string, x *execution.Execution) {
	if !x.Test.HasHost() {
		return
	}
	switch name {
	case "stream_next", "event_wait", "barrier_wait", "graph_dep", "api_wait":
		for t, run := range x.Runs {
			if run.Host == nil {
				continue
			}
			base := x.ThreadStart[t]
			var pairs [][2]int
			switch name {
			case "stream_next":
				pairs = run.Host.StreamNext
			case "event_wait":
				pairs = run.Host.EventWait
			case "barrier_wait":
				pairs = run.Host.BarrierWait
			case "graph_dep":
				pairs = run.Host.GraphDep
			default:
				pairs = run.Host.APIWait
			}
			for _, p := range pairs {
				r.Add(base+p[0], base+p[1])
			}
		}
	case "device_task":
		fillDeviceTask(r, x)
	case "kernel_thread":
		threads := x.Test.Threads
		for i := range x.Events {
			k := &x.Events[i]
			if k.Host == nil || k.Host.Call || k.Host.Task != execution.TaskKernel {
				continue
			}
			for t, th := range threads {
				if th.Host || th.Kernel != k.Host.Name {
					continue
				}
				for j := range x.Runs[t].Events {
					r.Add(i, x.ThreadStart[t]+j)
				}
			}
		}
	case "graph_node":
		for i := range x.Events {
			g := &x.Events[i]
			if g.Host == nil || g.Host.Call || g.Host.Task != execution.TaskGraph {
				continue
			}
			for j := range x.Events {
				n := &x.Events[j]
				if n.Thread == g.Thread && n.Host != nil && n.Host.IsNode() && n.Host.Graph == g.Host.Graph {
					r.Add(i, j)
				}
			}
		}
	}
}

// fillDeviceTask relates the completion of each task of a host thread to
// each cudaDeviceSynchronize of another host thread on the same device
// that returns (not the call a Blocked run waits at forever).
func fillDeviceTask(r *relations.Rel, x *execution.Execution) {
	for t, run := range x.Runs {
		if run.Host == nil {
			continue
		}
		for i := range run.Events {
			c := &run.Events[i]
			if c.Kind != execution.KindAPI || c.Instr.API.Fn != litmus.APIDeviceSynchronize {
				continue
			}
			if run.Status == execution.Blocked && i == len(run.Events)-1 {
				continue
			}
			for u, other := range x.Runs {
				if u == t || other.Host == nil {
					continue
				}
				for j := range other.Events {
					ev := &other.Events[j]
					if ev.Kind != execution.KindTask || ev.Host == nil || ev.Host.Call || ev.Host.Device != c.Host.Device {
						continue
					}
					if ev.Role == execution.RoleTaskEnd || ev.Role == execution.RoleTask {
						r.Add(x.ThreadStart[u]+j, x.ThreadStart[t]+i)
					}
				}
			}
		}
	}
}
