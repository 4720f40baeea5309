package execution

// Scratch lends the searches of one host, one after the other, the events
// array of their candidate execution: over a run of small tests, each
// search building its candidate's events in a fresh array took a twentieth
// of the bytes the process allocates, every one a fresh page the kernel
// fills with zeros. A Scratch serves one search at a time, and a candidate
// a search yields must not be used after the search returns (keep a
// Clone, as the host does anyway: the search changes its candidate from
// one yield to the next).
type Scratch struct {
	events []Event
}

// newExecution returns the candidate execution a search fills for the
// combinations of runs combo names, its events array taken from sc when
// sc is not nil.
func (a *Analysis) newExecution(combo []int, sc *Scratch) *Execution {
	nth := len(a.Test.Threads)
	x := &Execution{Test: a.Test, Layout: a.Layout, Runs: make([]*Run, nth), ThreadStart: make([]int, nth), Combo: combo}
	if sc != nil {
		x.Events, sc.events = sc.events[:0], nil
	}
	return x
}

// release gives x's events array back to sc for the next search, emptied
// of what it pointed to (instructions, values): kept, they would keep the
// test alive.
func (sc *Scratch) release(x *Execution) {
	if sc == nil {
		return
	}
	all := x.Events[:cap(x.Events)]
	clear(all)
	sc.events = all[:0]
	x.Events = nil
}
