package execution

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// EventKind classifies events.
type EventKind int

const (
	// KindRead is a memory read (ld, the read of atom and red).
	KindRead EventKind = iota
	// KindWrite is a memory write (st, the write of atom and red, init writes).
	KindWrite
	// KindFence is a memory fence.
	KindFence
	// KindProxyFence is a proxy fence.
	KindProxyFence
	// KindBarrier is a barrier arrival (bar.sync or bar.arrive), or a
	// barrier.cluster arrive or wait.
	KindBarrier
	// KindIssue is the issue of an asynchronous instruction: the point in
	// program order where the thread starts operations it does not wait
	// for.
	KindIssue
	// KindControl is an instruction that groups or waits for asynchronous
	// operations: commit_group, wait_group, wait_all, wgmma.fence.
	KindControl
	// KindAPI is a CUDA runtime call of a host thread (see host.go).
	KindAPI
	// KindTask is the start or the completion of a task a host thread
	// enqueued in a stream (asynchronous to the host thread), or the start
	// or end of a device thread of a kernel.
	KindTask
)

var kindNames = [...]string{"R", "W", "F", "PF", "B", "I", "C", "A", "T"}

// Role says which part of its instruction an event performs, where an
// instruction makes events of different kinds (asynchronous copies and
// their completion).
type Role int

const (
	// RoleMain is the event, or the read or write, of an instruction.
	RoleMain Role = iota
	// RoleCopy is a memory operation an asynchronous copy or wgmma performs.
	RoleCopy
	// RoleProxyFence is the implicit generic-async proxy fence that follows
	// the completion of a bulk copy.
	RoleProxyFence
	// RoleCompleteTx is a bulk copy's complete-tx on its mbarrier.
	RoleCompleteTx
	// RoleAsyncArrive is the asynchronous arrive-on of
	// cp.async.mbarrier.arrive.
	RoleAsyncArrive
	// RolePendingInc is the increment of the pending count that
	// cp.async.mbarrier.arrive performs without .noinc.
	RolePendingInc
	// RoleTaskStart is the start of a task that also has a completion
	// event (a kernel, a graph, a kernel node).
	RoleTaskStart
	// RoleTaskEnd is the completion of such a task.
	RoleTaskEnd
	// RoleTask is a task that starts and completes at once (an event
	// record or wait, a legacy-stream barrier arrival or wait, an empty
	// graph node): one event is both its start and its completion.
	RoleTask
	// RoleThreadStart is the start of a device thread of a kernel.
	RoleThreadStart
	// RoleThreadEnd is the end of a device thread of a kernel that
	// finishes.
	RoleThreadEnd
)

func (k EventKind) String() string { return kindNames[k] }

// Event is one event of a thread run or an initial write.
type Event struct {
	Kind   EventKind
	Thread int           // -1 for initial writes
	Instr  *litmus.Instr // nil for initial writes
	// Async marks an operation performed asynchronously to its thread:
	// it is in no program order (8.9.1.1). The event's flags (Async,
	// Signed, BarSync, BadSize) sit together, described with the fields
	// they go with: an event of this size (248 bytes, not 272 with each
	// flag padded to a word) is copied for every candidate combination.
	Async, Signed, BarSync, BadSize bool
	Role                            Role
	// Sem, Scope and Proxy are the event's memory order, scope and proxy:
	// those of its instruction, except where an instruction's events
	// differ (a bulk copy's complete-tx is .release.cluster, its copy weak
	// and in the async proxy).
	Sem   litmus.Sem
	Scope litmus.Scope
	Proxy litmus.Proxy
	// Step numbers the instruction instances a run executes, from 0; two
	// events of one atom share it.
	Step int
	Addr int // address index (memory events)
	Loc  int // physical location (memory events)
	// Off and Size are the bytes of the location the event accesses
	// (bytes.go); OpOff and OpSize those of its operation, which differ
	// only for a piece of a read that spans several segments. Signed says
	// how a read of a whole operation extends its value. Elem numbers the
	// elements of a vector or packed instruction (8.2.4, 8.2.5), and the
	// destination CTAs of a multicast load from 1 (0 for its issue and
	// its read; runs_async.go).
	Off, Size     int
	OpOff, OpSize int
	Elem          int
	// Value is the value read or written, resolved for each candidate.
	Value Value
	// Sym is how a write computes its value (nil for reads, whose value
	// comes from the write they read from).
	Sym *Sym
	// Barrier arrivals: the instance, logical barrier and thread count
	// operands, as computed by the thread (BarCount is nil when absent) and
	// as resolved for each candidate (Count < 0 when absent).
	BarInstSym, BarIDSym, BarCountSym *Sym
	BarInstance, BarID, BarCount      int64
	// BarSync (above, with the flags) marks an arrival that waits for its
	// barrier to complete (litmus.BarSync), not one that only arrives.
	// Host describes the tasks and calls of host threads (nil for every
	// other event; see host.go).
	Host *HostInfo
	// BadSize (above, with the flags) marks the issue of a bulk copy (cp.async.bulk,
	// cp.reduce.async.bulk) whose size is not a multiple of 16, which is
	// undefined behaviour (the catalog's BULK_BAD_SIZE).
	// BarPredSym is a bar.red's predicate operand c as the thread computes
	// it (nil for other events); the reduction's result is the event's
	// Value (see reductionsHold).
	BarPredSym *Sym
}

// newEvent returns an event of kind k of thread th for instruction in, with
// the instruction's memory order, scope and proxy.
func newEvent(k EventKind, th int, in *litmus.Instr) Event {
	return Event{Kind: k, Thread: th, Instr: in, Sem: in.Sem, Scope: in.Scope, Proxy: in.Proxy}
}

// IsMemory reports whether e reads or writes memory.
func (e *Event) IsMemory() bool { return e.Kind == KindRead || e.Kind == KindWrite }

// IsInit reports whether e is an initial write.
func (e *Event) IsInit() bool { return e.Thread < 0 }

// Label describes the event for people: the thread and the instruction,
// with the value read or written, e.g. "P1:ld.acquire.gpu r1, y =1". The
// events of an instruction that makes several (an atom, an mbarrier update,
// an asynchronous copy) say which part they are, e.g.
// "P0:cp.async.ca.shared.global y, x [read x =1]".
func (e *Event) Label(t *litmus.Test, l *Layout) string {
	names := l.AddrNames()
	if e.IsInit() {
		return fmt.Sprintf("init:%s=%s", l.Locs[e.Loc].Name, e.Value.format(names))
	}
	th := t.Threads[e.Thread].Name
	text := strings.TrimSpace(e.Instr.Text)
	if part := e.part(l); part != "" {
		return fmt.Sprintf("%s:%s [%s]", th, text, part)
	}
	switch e.Kind {
	case KindRead:
		if e.Instr.Op == litmus.OpAtom || e.Instr.Op == litmus.OpRed {
			return fmt.Sprintf("%s:%s (R=%s)", th, text, e.Value.format(names))
		}
		return fmt.Sprintf("%s:%s =%s", th, text, e.Value.format(names))
	case KindWrite:
		if e.Instr.Op == litmus.OpAtom || e.Instr.Op == litmus.OpRed {
			return fmt.Sprintf("%s:%s (W=%s)", th, text, e.Value.format(names))
		}
		return fmt.Sprintf("%s:%s", th, text)
	case KindBarrier:
		if e.BarPredSym != nil {
			// bar.red: its reduction's result.
			return fmt.Sprintf("%s:%s =%s", th, text, e.Value.format(names))
		}
	}
	return fmt.Sprintf("%s:%s", th, text)
}

// part names the part of a multi-event instruction an event performs, or
// "" for the events of simple instructions.
func (e *Event) part(l *Layout) string {
	names := l.AddrNames()
	where := func() string { return l.Locs[e.Loc].Name }
	val := e.Value.format(names)
	switch {
	case e.Host != nil:
		return e.Host.part(e)
	case e.Kind == KindIssue:
		return "issue"
	case e.Kind == KindProxyFence && e.Role == RoleProxyFence:
		return "implicit proxy fence"
	case !e.IsMemory():
		return ""
	case e.Role == RoleCompleteTx:
		return rmwPart("complete-tx", e, where(), val)
	case e.Role == RoleAsyncArrive:
		return rmwPart("arrive-on", e, where(), val)
	case e.Role == RolePendingInc:
		return rmwPart("pending+1", e, where(), val)
	case e.Instr.Op == litmus.OpMBarrier && e.Instr.MBarOp.IsUpdate():
		return rmwPart(e.Instr.MBarOp.String(), e, where(), val)
	case e.Role == RoleCopy && e.Kind == KindRead, e.Instr.Multimem && e.Kind == KindRead:
		return "read " + where() + " =" + val
	case e.Instr.Multimem:
		return "write " + where() + " =" + val
	case e.Role == RoleCopy:
		return "write " + where() + " =" + val
	case sizedAccess(e.Instr) && (e.Instr.ElementCount() > 1 || e.Off != e.OpOff || e.Size != e.OpSize):
		// One element of a vector or packed access, or one piece of a
		// read: say which bytes.
		bytes := fmt.Sprintf("bytes %d-%d of %s", e.Off, e.Off+e.Size-1, where())
		if e.Kind == KindRead {
			return "read " + bytes + " =" + val
		}
		return "write " + bytes + " =" + val
	}
	return ""
}

// rmwPart names the read or write of an update.
func rmwPart(what string, e *Event, where, val string) string {
	if e.Kind == KindRead {
		return fmt.Sprintf("%s %s: reads %s", what, where, val)
	}
	return fmt.Sprintf("%s %s: writes %s", what, where, val)
}
