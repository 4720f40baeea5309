// Package execution owns candidate executions of a litmus test: the events
// each thread can perform, and every way of combining them into an
// execution by choosing which write each read reads from and which barrier
// arrivals complete together. It knows nothing of any memory model; the
// model (package rules, through package catalog) decides which candidates
// are consistent.
//
// Enumeration is value-driven and exhaustive. First, a fixpoint over the
// threads computes every value each memory location can hold (starting from
// the initial values, a read may return any value some write can write).
// Then each thread is executed concretely once per choice of the values its
// reads return, following its control flow and unrolling loops up to a bound;
// this gives the thread's runs. A candidate execution picks one run per
// thread, for every read a write of the same location that writes the value
// the read returned, and a grouping of the barrier arrivals. Every
// consistent execution of the test arises this way: its reads return values
// that some write writes, so each thread's behaviour in it is one of the
// thread's runs, and its reads-from and barrier choices are among those
// enumerated. Runs whose loops need more iterations than the bound are cut
// and counted, so the caller can report that the bound mattered.
package execution
