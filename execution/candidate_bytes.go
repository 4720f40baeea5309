package execution

import "unsafe"

// Bytes estimates the memory a clone of x takes (Clone): its events and
// its own slices. The runs, and what events point to, are shared with the
// analysis and with every other candidate.
func (x *Execution) Bytes() int64 {
	const word, pair = 8, 16
	b := int64(unsafe.Sizeof(*x)) + int64(len(x.Events))*int64(unsafe.Sizeof(Event{}))
	b += word * int64(len(x.Runs)+len(x.ThreadStart)+len(x.RF)+len(x.FinalPolls)+len(x.Combo))
	b += pair * int64(len(x.RMW)+len(x.Addr)+len(x.Data)+len(x.Ctrl))
	for _, g := range x.BarGroups {
		b += 24 + word*int64(len(g))
	}
	for _, ph := range x.ClusterPhases {
		b += int64(unsafe.Sizeof(ph)) + word*int64(len(ph.Arrives)+len(ph.Waits)+len(ph.exited))
	}
	return b + int64(len(x.known)+len(x.idle))
}
