package execution

import (
	"fmt"
	"slices"

	"github.com/ptxmm/ptxmm/litmus"
)

// This file runs host threads: their CUDA runtime calls (PTX ISA 8.9.4,
// "API synchronization"; docs/model.md, section 23). A
// call is an event in the host thread's program order (KindAPI). A call
// that enqueues work in a stream makes tasks: events asynchronous to the
// host thread (KindTask, Async), a start and a completion for kernels and
// graphs, one event for the tasks that have no duration (event records and
// waits, the barriers of the legacy default stream, empty graph nodes).
// The run records which task follows which in its stream, which record a
// wait waits for, which barrier arrivals a barrier wait waits for, which
// tasks a synchronizing call or a query waits for, and the dependencies
// between graph nodes (HostRun). Device threads of a kernel get a start
// event first and, when they finish, an end event last in program order.
// What these facts mean for causality is spec.dl's business.

// TaskKind says what a task is.
type TaskKind int

const (
	// TaskKernel is a kernel, launched in a stream or as a graph node.
	TaskKernel TaskKind = iota
	// TaskGraph is a graph launched in a stream.
	TaskGraph
	// TaskEmptyNode is an empty node of a graph.
	TaskEmptyNode
	// TaskRecord is the task of cudaEventRecord.
	TaskRecord
	// TaskWaitEvent is the task of cudaStreamWaitEvent.
	TaskWaitEvent
	// TaskBarrierArrive is a barrier arrival the legacy default stream
	// inserts in a stream.
	TaskBarrierArrive
	// TaskBarrierWait is the barrier wait that waits for such arrivals.
	TaskBarrierWait
)

var taskNames = [...]string{"kernel", "graph", "empty node", "event record", "event wait", "legacy barrier arrival", "legacy barrier wait"}

func (k TaskKind) String() string { return taskNames[k] }

// HostInfo describes an event of a host thread's CUDA call: the call
// itself, or one of the tasks it enqueued.
type HostInfo struct {
	// Call marks the call event (in program order); the others are tasks.
	Call bool
	// Success is, for a cudaStreamQuery or cudaEventQuery call, whether it
	// returned cudaSuccess.
	Success bool
	Task    TaskKind
	// ID numbers the tasks of the host run from 0: the events of a task
	// share it. -1 for calls.
	ID int
	// Name is the kernel, graph, graph node or CUDA event of the task.
	Name string
	// Stream is the stream the task was enqueued in ("" for graph nodes).
	Stream string
	// Graph numbers the graph launches of the run: a graph's task and the
	// tasks of its nodes share it. -1 for other tasks.
	Graph int
	// Source and Sink mark the graph nodes that depend on no node, and
	// those no node depends on.
	Source, Sink bool
	// Device is the GPU of the task's stream, or of the host thread's
	// current device for a call: what cudaDeviceSynchronize covers.
	Device int
}

// IsNode reports whether the task is a node of a launched graph.
func (h *HostInfo) IsNode() bool { return !h.Call && h.Graph >= 0 && h.Task != TaskGraph }

// part names what the event of a host call is, for labels.
func (h *HostInfo) part(e *Event) string {
	if h.Call {
		if e.Instr.API != nil && (e.Instr.API.Fn == litmus.APIStreamQuery || e.Instr.API.Fn == litmus.APIEventQuery) {
			if h.Success {
				return "returns cudaSuccess"
			}
			return "returns cudaErrorNotReady"
		}
		return ""
	}
	what := h.Task.String()
	if h.Name != "" {
		what += " " + h.Name
	}
	switch e.Role {
	case RoleTaskStart:
		what += " start"
	case RoleTaskEnd:
		what += " end"
	}
	if h.Stream != "" {
		what += " in " + streamLabel(h.Stream)
	}
	return what
}

// streamLabel prints a stream key for labels.
func streamLabel(key string) string {
	name, dev := key, ""
	for i := len(key) - 1; i >= 0; i-- {
		if key[i] == '@' {
			name, dev = key[:i], key[i+1:]
			break
		}
	}
	if name == litmus.LegacyStream {
		name = "stream 0"
	}
	if dev != "" && dev != "d0" {
		name += " of " + dev
	}
	return name
}

// HostRun holds the facts about a host run's tasks, as pairs of indices
// into the run's events.
type HostRun struct {
	// StreamNext relates the completion of each task to the start of the
	// task enqueued right after it in the same stream.
	StreamNext [][2]int
	// EventWait relates an event record task to the event wait tasks that
	// wait for it: the most recent record of the CUDA event when
	// cudaStreamWaitEvent was called.
	EventWait [][2]int
	// BarrierWait relates the legacy-stream barrier arrivals to the barrier
	// wait that waits for them.
	BarrierWait [][2]int
	// APIWait relates the completion of a task to the call that waits for
	// it: cudaStreamSynchronize (the stream's last task),
	// cudaEventSynchronize (the event's most recent record),
	// cudaDeviceSynchronize (the last task of every stream of the
	// device), and the queries, which wait as the matching synchronize
	// would when they succeed.
	APIWait [][2]int
	// GraphDep relates the completion of a graph node to the start of each
	// node that depends on it directly.
	GraphDep [][2]int
}

// clone copies the pair lists.
func (r HostRun) clone() HostRun {
	return HostRun{
		StreamNext:  slices.Clone(r.StreamNext),
		EventWait:   slices.Clone(r.EventWait),
		BarrierWait: slices.Clone(r.BarrierWait),
		APIWait:     slices.Clone(r.APIWait),
		GraphDep:    slices.Clone(r.GraphDep),
	}
}

// hostStream is a stream as a host run sees it.
type hostStream struct {
	device      int
	legacy      bool
	nonBlocking bool
	// tail is the completion event of the stream's last task, -1 before
	// its first.
	tail int
	// lastArrival is the last legacy barrier arrival enqueued in the
	// stream, -1 if none: while it is the tail, it can serve again.
	lastArrival int
	// waited holds the barrier arrivals a wait of this stream waited for.
	waited map[int]bool
}

// hostState is what a host run knows about its streams, CUDA events and
// graphs.
type hostState struct {
	device   int
	streams  map[string]*hostStream
	order    []string       // stream keys in order of first use
	records  map[string]int // CUDA event -> its most recent record task
	launched map[string]bool
	created  map[string]bool
	tasks    int
	graphs   int
	rel      HostRun
}

func newHostState() *hostState {
	return &hostState{streams: map[string]*hostStream{}, records: map[string]int{}, launched: map[string]bool{}, created: map[string]bool{}}
}

// clone copies a host state; nil stays nil (device threads).
func (h *hostState) clone() *hostState {
	if h == nil {
		return nil
	}
	c := *h
	c.streams = make(map[string]*hostStream, len(h.streams))
	for k, st := range h.streams {
		cp := *st
		cp.waited = make(map[int]bool, len(st.waited))
		for a := range st.waited {
			cp.waited[a] = true
		}
		c.streams[k] = &cp
	}
	c.order = slices.Clone(h.order)
	c.records = make(map[string]int, len(h.records))
	for k, v := range h.records {
		c.records[k] = v
	}
	c.launched = make(map[string]bool, len(h.launched))
	for k := range h.launched {
		c.launched[k] = true
	}
	c.created = make(map[string]bool, len(h.created))
	for k := range h.created {
		c.created[k] = true
	}
	c.rel = h.rel.clone()
	return &c
}

// run returns the facts a finished run keeps (nil for device threads).
func (h *hostState) run() *HostRun {
	if h == nil {
		return nil
	}
	r := h.rel.clone()
	return &r
}

// boundary returns a device thread's start or end event.
func (e *explorer) boundary(fn litmus.APIFn, role Role) Event {
	in := &litmus.Instr{Op: litmus.OpAPI, Pos: e.th.Pos, Text: fn.String(), API: &litmus.APICall{Fn: fn}}
	ev := newEvent(KindTask, e.th.Index, in)
	ev.Role = role
	return ev
}

// hostStart begins a run: a host thread gets its host state, a device
// thread of a kernel its start event.
func (e *explorer) hostStart(s *state) {
	switch {
	case e.th.Host:
		s.host = newHostState()
	case e.th.Kernel != "":
		s.addEvent(e.boundary(litmus.APIThreadStart, RoleThreadStart))
	}
}

// hostFinish ends a run that finished: a device thread of a kernel gets its
// end event; a host run must have launched every kernel and graph its code
// launches, once (ptxmm ties each kernel to one launch of its threads).
func (e *explorer) hostFinish(s *state) error {
	if !e.th.Host {
		if e.th.Kernel != "" {
			s.steps++
			s.addEvent(e.boundary(litmus.APIThreadEnd, RoleThreadEnd))
		}
		return nil
	}
	for _, in := range e.th.Instrs {
		if in.Op != litmus.OpAPI {
			continue
		}
		name := ""
		switch in.API.Fn {
		case litmus.APILaunchKernel:
			name = in.API.Kernel
		case litmus.APIGraphLaunch:
			name = "graph " + in.API.Graph
		default:
			continue
		}
		if !s.host.launched[name] {
			return errAt(in.Pos, "a run of %s ends without %q (a branch skips it): ptxmm needs every kernel and graph launched exactly once in every run of its host thread", e.th.Name, in.Text)
		}
	}
	return nil
}

// hostReaches rejects a host access, through a register, to anything but
// global memory through a generic address.
func (e *explorer) hostReaches(in *litmus.Instr, pl place) error {
	if !e.th.Host {
		return nil
	}
	a := e.layout.Addrs[pl.addr]
	if a.Space != litmus.SpaceGlobal || a.MBarrier > 0 || a.Kind != litmus.ProxyGeneric {
		return errAt(in.Pos, "%q reaches %s, which is not a generic address of global memory: host thread %s reaches global memory only", in.Text, a.Name, e.th.Name)
	}
	return nil
}

// streamKey names a stream of the run: the legacy default stream and the
// per-thread stream exist once per device.
func (h *hostState) streamKey(name string) string {
	if name == litmus.LegacyStream || name == litmus.PerThreadStream {
		return fmt.Sprintf("%s@d%d", name, h.device)
	}
	return name
}

// stream returns a stream, creating it (blocking, on the current device) at
// its first use.
func (h *hostState) stream(name string) *hostStream {
	key := h.streamKey(name)
	if st, ok := h.streams[key]; ok {
		return st
	}
	st := &hostStream{device: h.device, legacy: name == litmus.LegacyStream, tail: -1, lastArrival: -1, waited: map[int]bool{}}
	h.streams[key] = st
	h.order = append(h.order, key)
	return st
}

// newTask adds the events of a new task: a start and a completion, or one
// event for a task without duration. It returns the start and completion
// events (equal for one event).
func (e *explorer) newTask(s *state, in *litmus.Instr, kind TaskKind, name, stream string, graph int, twoEvents bool) (int, int) {
	h := s.host
	info := HostInfo{Task: kind, ID: h.tasks, Name: name, Stream: stream, Graph: graph, Device: h.device}
	if st, ok := h.streams[stream]; ok {
		info.Device = st.device
	}
	h.tasks++
	add := func(role Role) int {
		ev := newEvent(KindTask, e.th.Index, in)
		ev.Async, ev.Role = true, role
		i := info
		ev.Host = &i
		return s.addEvent(ev)
	}
	if !twoEvents {
		t := add(RoleTask)
		return t, t
	}
	start := add(RoleTaskStart)
	return start, add(RoleTaskEnd)
}

// append puts a task at the end of stream st: it starts after the
// completion of the stream's last task (item 1).
func (h *hostState) append(st *hostStream, start, end int) {
	if st.tail >= 0 {
		h.rel.StreamNext = append(h.rel.StreamNext, [2]int{st.tail, start})
	}
	st.tail = end
}

// legacyBarriers inserts the cross-stream barriers of the legacy default
// stream before a task is enqueued in stream st (8.9.4 API item 2;
// CUDA's "implicit synchronization" of the legacy default stream): a task
// of the legacy stream waits for the tasks enqueued before it in every
// blocking stream of its device, and a task of a blocking stream waits for
// the tasks enqueued before it in the legacy stream. Each side gets a
// barrier arrival task at the end of the stream waited for, and the stream
// of the new task a barrier wait task.
func (e *explorer) legacyBarriers(s *state, in *litmus.Instr, st *hostStream, key string) {
	h := s.host
	if st.nonBlocking {
		return
	}
	var others []string
	if st.legacy {
		for _, k := range h.order {
			o := h.streams[k]
			if k != key && o.device == st.device && !o.legacy && !o.nonBlocking {
				others = append(others, k)
			}
		}
	} else if _, ok := h.streams[fmt.Sprintf("%s@d%d", litmus.LegacyStream, st.device)]; ok {
		others = append(others, fmt.Sprintf("%s@d%d", litmus.LegacyStream, st.device))
	}
	var arrivals []int
	for _, k := range others {
		o := h.streams[k]
		if o.tail < 0 {
			continue
		}
		if o.tail != o.lastArrival {
			a, _ := e.newTask(s, in, TaskBarrierArrive, "", k, -1, false)
			h.append(o, a, a)
			o.lastArrival = a
		}
		if !st.waited[o.lastArrival] {
			st.waited[o.lastArrival] = true
			arrivals = append(arrivals, o.lastArrival)
		}
	}
	if len(arrivals) == 0 {
		return
	}
	w, _ := e.newTask(s, in, TaskBarrierWait, "", key, -1, false)
	h.append(st, w, w)
	for _, a := range arrivals {
		h.rel.BarrierWait = append(h.rel.BarrierWait, [2]int{a, w})
	}
}

// kernelGPU returns the GPU a kernel's threads run on.
func (e *explorer) kernelGPU(k string) int {
	for _, th := range e.t.Threads {
		if !th.Host && th.Kernel == k {
			return th.GPU
		}
	}
	return -1
}

// launchOnce records a kernel (or a graph) launch, rejecting a second one
// in the run.
func (e *explorer) launchOnce(s *state, in *litmus.Instr, name string) error {
	if s.host.launched[name] {
		return errAt(in.Pos, "%q launches %s a second time in one run of %s (in a loop?): each kernel is one launch of its device threads", in.Text, name, e.th.Name)
	}
	s.host.launched[name] = true
	return nil
}

// checkDevice rejects a kernel launched on a device other than the current
// one, or in a stream of another device.
func (e *explorer) checkDevice(s *state, in *litmus.Instr, k string, st *hostStream, stream string) error {
	h := s.host
	if gpu := e.kernelGPU(k); gpu != h.device {
		return errAt(in.Pos, "%q: kernel %s runs on gpu %d, but the current device of %s is %d: call cudaSetDevice %d before launching it", in.Text, k, gpu, e.th.Name, h.device, gpu)
	}
	if st != nil && st.device != h.device {
		return errAt(in.Pos, "%q: stream %s belongs to device %d (the current device when it was first used), but the current device is %d", in.Text, stream, st.device, h.device)
	}
	return nil
}

// eventTask adds the one-event task of kind (a record or a wait) that
// call in's event enqueues on its stream, after the legacy stream's
// barriers, and returns it.
func (e *explorer) eventTask(s *state, in *litmus.Instr, kind TaskKind) int {
	h, call := s.host, in.API
	st := h.stream(call.Stream)
	key := h.streamKey(call.Stream)
	e.legacyBarriers(s, in, st, key)
	t, _ := e.newTask(s, in, kind, call.Event, key, -1, false)
	h.append(st, t, t)
	return t
}

// api executes a CUDA runtime call and goes on exploring.
func (e *explorer) api(s *state, in *litmus.Instr) error {
	call := in.API
	h := s.host
	if call.Fn.Declares() {
		switch call.Fn {
		case litmus.APISetDevice:
			h.device = call.Device
		case litmus.APIStreamCreate:
			if h.created[call.Stream] {
				return errAt(in.Pos, "%q creates stream %s a second time in one run of %s (in a loop?)", in.Text, call.Stream, e.th.Name)
			}
			h.created[call.Stream] = true
			h.stream(call.Stream).nonBlocking = call.NonBlocking
		}
		s.pc++
		return e.explore(s)
	}
	callEv := newEvent(KindAPI, e.th.Index, in)
	callEv.Host = &HostInfo{Call: true, ID: -1, Graph: -1, Device: h.device}
	c := s.addEvent(callEv)
	switch call.Fn {
	case litmus.APILaunchKernel:
		st := h.stream(call.Stream)
		key := h.streamKey(call.Stream)
		if err := e.checkDevice(s, in, call.Kernel, st, call.Stream); err != nil {
			return err
		}
		if err := e.launchOnce(s, in, call.Kernel); err != nil {
			return err
		}
		e.legacyBarriers(s, in, st, key)
		start, end := e.newTask(s, in, TaskKernel, call.Kernel, key, -1, true)
		h.append(st, start, end)
	case litmus.APIGraphLaunch:
		if err := e.graphLaunch(s, in); err != nil {
			return err
		}
	case litmus.APIEventRecord:
		h.records[call.Event] = e.eventTask(s, in, TaskRecord)
	case litmus.APIStreamWaitEvent:
		w := e.eventTask(s, in, TaskWaitEvent)
		if r, ok := h.records[call.Event]; ok {
			h.rel.EventWait = append(h.rel.EventWait, [2]int{r, w})
		}
	case litmus.APIStreamSynchronize, litmus.APIEventSynchronize, litmus.APIDeviceSynchronize:
		waits := e.awaited(h, call)
		for _, t := range waits {
			h.rel.APIWait = append(h.rel.APIWait, [2]int{t, c})
		}
		s.pc++
		if len(waits) > 0 || call.Fn == litmus.APIDeviceSynchronize && e.otherHosts() {
			// The call waits forever when a task it waits for never
			// completes (a device thread of a kernel hangs): the run that
			// stops here is kept for such combinations (hosthang.go).
			// cudaDeviceSynchronize also waits for the tasks other host
			// threads enqueued on the device before it, which the model
			// decides (spec.dl, sync_device).
			if err := e.blocked(s); err != nil {
				return err
			}
		}
		return e.explore(s)
	case litmus.APIStreamQuery, litmus.APIEventQuery:
		return e.query(s, in, c)
	}
	s.pc++
	return e.explore(s)
}

// otherHosts reports whether the test has a host thread besides this one.
func (e *explorer) otherHosts() bool {
	for _, th := range e.t.Threads {
		if th.Host && th != e.th {
			return true
		}
	}
	return false
}

// awaited returns the completion events a synchronizing call or a query
// waits for (item 6): the last task of the stream, the most recent record
// of the CUDA event, or the last task of every stream of the current
// device.
func (e *explorer) awaited(h *hostState, call *litmus.APICall) []int {
	var out []int
	switch call.Fn {
	case litmus.APIStreamSynchronize, litmus.APIStreamQuery:
		if st := h.stream(call.Stream); st.tail >= 0 {
			out = append(out, st.tail)
		}
	case litmus.APIEventSynchronize, litmus.APIEventQuery:
		if r, ok := h.records[call.Event]; ok {
			out = append(out, r)
		}
	case litmus.APIDeviceSynchronize:
		for _, k := range h.order {
			if st := h.streams[k]; st.device == h.device && st.tail >= 0 {
				out = append(out, st.tail)
			}
		}
	}
	return out
}

// query executes cudaStreamQuery or cudaEventQuery, whose call is event c.
// With nothing to wait for it returns cudaSuccess; otherwise the run
// branches: the query returns cudaSuccess (r = 1), behaving as the matching
// synchronize (item 7), or cudaErrorNotReady (r = 0), which orders nothing.
func (e *explorer) query(s *state, in *litmus.Instr, c int) error {
	waits := e.awaited(s.host, in.API)
	outcome := func(st *state, ok bool) error {
		info := *st.events[c].Host
		info.Success = ok
		st.events[c].Host = &info
		for _, t := range waits {
			st.host.rel.APIWait = append(st.host.rel.APIWait, [2]int{t, c})
		}
		v := int64(0)
		if ok {
			v = 1
		}
		st.setReg(in.Dst, constSym(Int(v)))
		st.pc++
		return e.explore(st)
	}
	if len(waits) == 0 {
		return outcome(s, true)
	}
	if err := outcome(s.clone(), true); err != nil {
		return err
	}
	return outcome(s, false)
}

// graphLaunch enqueues a graph: a task with a start and a completion in the
// stream, and its nodes' tasks, ordered by the graph's dependencies
// (item 4).
func (e *explorer) graphLaunch(s *state, in *litmus.Instr) error {
	h := s.host
	call := in.API
	g := call.Def
	if g == nil {
		return errAt(in.Pos, "%q launches a graph that has no nodes", in.Text)
	}
	if err := e.launchOnce(s, in, "graph "+g.Name); err != nil {
		return err
	}
	st := h.stream(call.Stream)
	key := h.streamKey(call.Stream)
	if st.device != h.device {
		return errAt(in.Pos, "%q: stream %s belongs to device %d (the current device when it was first used), but the current device is %d", in.Text, call.Stream, st.device, h.device)
	}
	for _, n := range g.Nodes {
		if n.Kernel == "" {
			continue
		}
		if err := e.checkDevice(s, in, n.Kernel, nil, ""); err != nil {
			return err
		}
		if err := e.launchOnce(s, in, n.Kernel); err != nil {
			return err
		}
	}
	e.legacyBarriers(s, in, st, key)
	gid := h.graphs
	h.graphs++
	start, _ := e.newTask(s, in, TaskGraph, g.Name, key, gid, false)
	// The graph's start and completion are two events; newTask made its
	// start alone so that the nodes' events come between the two.
	s.events[start].Role = RoleTaskStart
	starts := make([]int, len(g.Nodes))
	ends := make([]int, len(g.Nodes))
	depended := make([]bool, len(g.Nodes))
	for _, n := range g.Nodes {
		for _, d := range n.Deps {
			depended[d] = true
		}
	}
	for i, n := range g.Nodes {
		kind, name := TaskEmptyNode, n.Name
		if n.Kernel != "" {
			kind, name = TaskKernel, n.Kernel
		}
		starts[i], ends[i] = e.newTask(s, in, kind, name, "", gid, n.Kernel != "")
		for _, ev := range []int{starts[i], ends[i]} {
			s.events[ev].Host.Source, s.events[ev].Host.Sink = len(n.Deps) == 0, !depended[i]
		}
		for _, d := range n.Deps {
			h.rel.GraphDep = append(h.rel.GraphDep, [2]int{ends[d], starts[i]})
		}
	}
	endEv := newEvent(KindTask, e.th.Index, in)
	endEv.Async, endEv.Role = true, RoleTaskEnd
	info := *s.events[start].Host
	endEv.Host = &info
	end := s.addEvent(endEv)
	h.append(st, start, end)
	return nil
}
