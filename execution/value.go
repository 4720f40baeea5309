package execution

import (
	"fmt"
	"strconv"
)

// Value is a register or memory value: an integer, the address of a
// location (registers may hold addresses for indirect accesses), or the
// state of an mbarrier object.
type Value struct {
	IsAddr bool
	N      int64 // the integer, or the address index when IsAddr
	// Remote is set on an address that names another CTA's copy of a
	// shared variable (computed by mapa): the CTA key plus one. Zero means
	// the accessing thread's own copy.
	Remote int
	// IsMBar marks the state of an mbarrier object, held in MBar.
	IsMBar bool
	MBar   MBarState
}

// MBarState is the state of an mbarrier object (PTX ISA, mbarrier:
// "Contents of the mbarrier object").
type MBarState struct {
	// Phase counts the completed phases: phase Phase is the current,
	// incomplete one.
	Phase int32
	// Expected is the expected arrival count of each phase; Pending the
	// arrivals the current phase still waits for.
	Expected, Pending int32
	// Tx is the tx-count: pending asynchronous transactions, in bytes
	// (it may be negative).
	Tx int32
}

// Int returns an integer value.
func Int(n int64) Value { return Value{N: n} }

// AddrValue returns the value of an address.
func AddrValue(a int) Value { return Value{IsAddr: true, N: int64(a)} }

// RemoteAddrValue returns the address of CTA cta's copy of shared address a
// (cta is a CTA key, see CTAKey).
func RemoteAddrValue(a, cta int) Value { return Value{IsAddr: true, N: int64(a), Remote: cta + 1} }

// MBarValue returns an mbarrier state.
func MBarValue(s MBarState) Value { return Value{IsMBar: true, MBar: s} }

// Format prints a value, naming addresses through names.
func (v Value) Format(names []string) string { return v.format(names) }

// format prints a value, naming addresses through names.
func (v Value) format(names []string) string {
	switch {
	case v.IsMBar:
		return fmt.Sprintf("mbar(phase=%d,pending=%d,tx=%d)", v.MBar.Phase, v.MBar.Pending, v.MBar.Tx)
	case v.IsAddr:
		name := "&" + strconv.FormatInt(v.N, 10)
		if int(v.N) < len(names) {
			name = names[v.N]
		}
		if v.Remote > 0 {
			name += "@" + ctaKeyName(v.Remote-1)
		}
		return name
	}
	return strconv.FormatInt(v.N, 10)
}
