// Package execution owns candidate executions of a litmus test: the events
// each thread can perform, and every way of combining them into an
// execution by choosing which write each read reads from and which barrier
// arrivals complete together. It knows nothing of any memory model; the
// model (package rules, through package catalog) decides which candidates
// are consistent.
//
// Enumeration is exhaustive. First each thread is executed symbolically:
// the value a read returns is a variable, every register holds an
// expression over such variables, a branch that depends on one splits the
// thread into two runs with opposite constraints, and loops are unrolled up
// to a bound. Then a candidate picks one run per thread, for every read a
// write of the same location to read from — which fixes the values, computed
// along reads-from and data dependencies — and a grouping of the barrier
// arrivals; choices whose values contradict a run's constraints are dropped
// as soon as the contradiction is decided. Every consistent execution of the
// test arises this way: its threads follow runs of their own code, its reads
// read writes of their locations, and its barriers complete in groups the
// enumeration lists. Runs whose loops need more iterations than the bound
// are cut and counted, so the caller can report that the bound mattered;
// failed spin-loop iterations may be left out when the model allows it
// (Options.SpinReduction).
package execution
