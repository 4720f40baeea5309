package sass

// Report is the check of one test's compiled code.
type Report struct {
	// Tool is the disassembler used.
	Tool string
	// Threads holds one entry per test thread, in the test's order.
	Threads []Thread
}

// Thread is the check of one thread's compiled code.
type Thread struct {
	Name string
	// Want are the kinds of the thread's memory operations and fences in
	// program order; Got those of the machine code, in code order.
	Want, Got []string
	// Changed says how the compiler changed them, "" when it kept them.
	Changed string
}

// Changed reports whether the compiler changed any thread.
func (r *Report) Changed() bool {
	for _, t := range r.Threads {
		if t.Changed != "" {
			return true
		}
	}
	return false
}
