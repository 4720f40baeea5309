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
	// KindBarrier is a barrier arrival (bar.sync or bar.arrive).
	KindBarrier
)

var kindNames = [...]string{"R", "W", "F", "PF", "B"}

func (k EventKind) String() string { return kindNames[k] }

// Event is one event of a thread run or an initial write.
type Event struct {
	Kind   EventKind
	Thread int           // -1 for initial writes
	Instr  *litmus.Instr // nil for initial writes
	// Step numbers the instruction instances a run executes, from 0; two
	// events of one atom share it.
	Step int
	Addr int // address index (memory events)
	Loc  int // physical location (memory events)
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
	BarSync                           bool
}

// IsInit reports whether e is an initial write.
func (e *Event) IsInit() bool { return e.Thread < 0 }

// Label describes the event for people: the thread and the instruction,
// with the value read or written, e.g. "P1:ld.acquire.gpu r1, y =1".
func (e *Event) Label(t *litmus.Test, l *Layout) string {
	names := l.AddrNames()
	if e.IsInit() {
		return fmt.Sprintf("init:%s=%s", l.Locs[e.Loc].Name, e.Value.format(names))
	}
	th := t.Threads[e.Thread].Name
	text := strings.TrimSpace(e.Instr.Text)
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
	}
	return fmt.Sprintf("%s:%s", th, text)
}
