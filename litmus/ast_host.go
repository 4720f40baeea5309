package litmus

// This file holds the CUDA runtime API calls host threads make (PTX ISA
// 8.9.4, "API synchronization"; the accepted forms are in docs/litmus.md,
// section 8).

// APIFn is a CUDA runtime function a host thread calls.
type APIFn int

const (
	// APILaunchKernel is cudaLaunchKernel K {, S}: enqueue kernel K in
	// stream S (the legacy default stream by default).
	APILaunchKernel APIFn = iota
	// APIStreamCreate is cudaStreamCreate S and cudaStreamCreateWithFlags
	// S, FLAGS: a stream, blocking or not (NonBlocking).
	APIStreamCreate
	// APIStreamSynchronize is cudaStreamSynchronize S.
	APIStreamSynchronize
	// APIStreamQuery is cudaStreamQuery r, S: r is 1 on cudaSuccess, 0 on
	// cudaErrorNotReady.
	APIStreamQuery
	// APIEventRecord is cudaEventRecord E {, S}.
	APIEventRecord
	// APIStreamWaitEvent is cudaStreamWaitEvent S, E.
	APIStreamWaitEvent
	// APIEventSynchronize is cudaEventSynchronize E.
	APIEventSynchronize
	// APIEventQuery is cudaEventQuery r, E.
	APIEventQuery
	// APIDeviceSynchronize is cudaDeviceSynchronize.
	APIDeviceSynchronize
	// APISetDevice is cudaSetDevice N: the host thread's current device.
	APISetDevice
	// APIGraphAddKernelNode is cudaGraphAddKernelNode G, K {, DEP...}.
	APIGraphAddKernelNode
	// APIGraphAddEmptyNode is cudaGraphAddEmptyNode G, N {, DEP...}.
	APIGraphAddEmptyNode
	// APIGraphAddDependencies is cudaGraphAddDependencies G, FROM, TO.
	APIGraphAddDependencies
	// APIGraphLaunch is cudaGraphLaunch G {, S}: G is a graph, or an
	// executable graph cudaGraphInstantiate made.
	APIGraphLaunch
	// APIEventCreate is cudaEventCreate E and cudaEventCreateWithFlags E,
	// FLAGS: a CUDA event, whose flags do not change what it orders.
	APIEventCreate
	// APIGraphCreate is cudaGraphCreate G {, 0}: an empty graph.
	APIGraphCreate
	// APIGraphInstantiate is cudaGraphInstantiate X, G {, 0}: executable
	// graph X, a copy of graph G as built so far.
	APIGraphInstantiate
	// APIThreadStart is no call: the start of a device thread of a kernel,
	// an event the kernel's start synchronizes with (item 3).
	APIThreadStart
	// APIThreadEnd is no call: the end of a device thread of a kernel.
	APIThreadEnd
)

var apiNames = [...]string{
	"cudaLaunchKernel", "cudaStreamCreate", "cudaStreamSynchronize", "cudaStreamQuery", "cudaEventRecord",
	"cudaStreamWaitEvent", "cudaEventSynchronize", "cudaEventQuery", "cudaDeviceSynchronize", "cudaSetDevice",
	"cudaGraphAddKernelNode", "cudaGraphAddEmptyNode", "cudaGraphAddDependencies", "cudaGraphLaunch",
	"cudaEventCreate", "cudaGraphCreate", "cudaGraphInstantiate", "thread start", "thread end",
}

func (f APIFn) String() string { return apiNames[f] }

// Declares reports whether the call only declares something (a stream's
// flags, a CUDA event, a graph, its nodes and dependencies, an executable
// graph, the current device): it makes no event.
func (f APIFn) Declares() bool {
	switch f {
	case APIStreamCreate, APISetDevice, APIGraphAddKernelNode, APIGraphAddEmptyNode, APIGraphAddDependencies,
		APIEventCreate, APIGraphCreate, APIGraphInstantiate:
		return true
	}
	return false
}

// Queries reports whether the call is cudaStreamQuery or cudaEventQuery,
// which never wait (8.9.4 API item 7).
func (f APIFn) Queries() bool { return f == APIStreamQuery || f == APIEventQuery }

// LegacyStream is the name of the legacy default stream (written 0 or
// cudaStreamLegacy), which synchronizes implicitly with the blocking
// streams of its device (8.9.4 API item 2).
const LegacyStream = "0"

// PerThreadStream is the per-thread default stream: a blocking stream of
// its host thread and device.
const PerThreadStream = "cudaStreamPerThread"

// APICall is one CUDA runtime call. Only the fields its function uses are
// set.
type APICall struct {
	Fn     APIFn
	Kernel string // the kernel launched or added as a graph node
	Stream string // the stream: a name, LegacyStream or PerThreadStream
	Event  string // the CUDA event
	// Graph is the graph built, instantiated or launched (for a launch,
	// possibly an executable graph).
	Graph string
	// Exec is the executable graph cudaGraphInstantiate makes.
	Exec string
	// Node is the empty node added, or the node a dependency starts from
	// (cudaGraphAddDependencies); To is the node that depends on it.
	Node, To string
	// Deps are the nodes a node added to a graph depends on.
	Deps []string
	// Device is cudaSetDevice's device number.
	Device int
	// NonBlocking is cudaStreamCreateWithFlags S, cudaStreamNonBlocking.
	NonBlocking bool
	// Def is, for cudaGraphLaunch, the graph it launches, as built by the
	// graph calls before it.
	Def *GraphDef
}

// GraphDef is a CUDA graph as the host thread builds it before launching
// it: its nodes in the order they were added, each with the nodes it
// depends on directly.
type GraphDef struct {
	Name  string
	Nodes []*GraphNode
}

// GraphNode is a node of a graph: a kernel node (Kernel set) or an empty
// node.
type GraphNode struct {
	Name   string
	Kernel string
	Deps   []int // indices into GraphDef.Nodes
}

// HasHost reports whether the test has host threads.
func (t *Test) HasHost() bool {
	for _, th := range t.Threads {
		if th.Host {
			return true
		}
	}
	return false
}
