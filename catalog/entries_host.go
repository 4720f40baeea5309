package catalog

// hostEntries are the base relations about host threads and the CUDA
// runtime calls they make (PTX ISA 8.9.4 "API synchronization", 8.1.1).
// Every one is empty in a test without host threads.
func hostEntries() []Entry {
	return []Entry{
		{"HOST", 1, "events of host threads: their memory accesses and fences, CUDA calls and the tasks those enqueue"},
		{"HOST_NATIVE_ATOMIC", 1, "the events of host threads, when the test declares cudaDevAttrHostNativeAtomicSupported = 1 (8.1.1); empty otherwise"},
		{"API", 1, "CUDA runtime calls of host threads, in program order (calls that only declare something, such as cudaStreamCreate, make no event)"},
		{"SYNC_CALL", 1, "cudaStreamSynchronize, cudaEventSynchronize and cudaDeviceSynchronize calls"},
		{"QUERY_OK", 1, "cudaStreamQuery and cudaEventQuery calls that returned cudaSuccess"},
		{"TASK_START", 1, "the start of each task a call enqueued (kernels, graphs and their nodes, event records and waits, legacy-stream barriers), asynchronous to the host thread; a task without duration is one event, in TASK_START and TASK_END"},
		{"TASK_END", 1, "the completion of each task"},
		{"GRAPH_SOURCE", 1, "events of the graph nodes that depend on no node (the source nodes of their graph)"},
		{"GRAPH_SINK", 1, "events of the graph nodes no node depends on (the sink nodes of their graph)"},
		{"THREAD_START", 1, "the start of each device thread of a kernel: its first event in program order"},
		{"THREAD_END", 1, "the end of each device thread of a kernel that finishes: its last event in program order"},
		{"stream_next", 2, "from the completion of each task to the start of the task enqueued right after it in the same stream (8.9.4 API item 1)"},
		{"event_wait", 2, "from an event record task to the event wait tasks that wait for it: the most recent record of the CUDA event when cudaStreamWaitEvent was called (item 2)"},
		{"barrier_wait", 2, "from the barrier arrival tasks the legacy default stream inserts to the barrier wait task that waits for them (item 2)"},
		{"kernel_thread", 2, "from each event of a kernel task to each event of the kernel's device threads (item 3)"},
		{"graph_node", 2, "from each event of a launched graph's task to each event of its nodes' tasks (item 4)"},
		{"graph_dep", 2, "from the completion of a graph node to the start of each node with a direct dependency on it (item 4)"},
		{"device_task", 2, "from the completion of each task a host thread enqueued on a device (a task that never completes included) to each cudaDeviceSynchronize of another host thread on that device that returns; the model decides which of them the call waits for (item 6)"},
		{"api_wait", 2, "from the completion of a task to the call that waits for it: cudaStreamSynchronize (the stream's last task), cudaEventSynchronize (the most recent record of the event), cudaDeviceSynchronize (the last task of every stream of the device that the calling host thread uses; device_task has the other host threads' tasks), and cudaStreamQuery and cudaEventQuery, as the matching synchronize (items 6 and 7)"},
	}
}

// hostNames indexes hostEntries.
var hostNames = func() map[string]bool {
	m := map[string]bool{}
	for _, e := range hostEntries() {
		m[e.Name] = true
	}
	return m
}()

// HostInput reports whether a catalog relation is one of the relations
// about host threads (hostEntries), which only tests with host threads fill.
func HostInput(name string) bool { return hostNames[name] }
