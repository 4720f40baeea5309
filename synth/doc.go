// Package synth searches for the smallest litmus tests on which two memory
// models disagree, as memalloy does with a SAT solver, by enumeration: it
// lists the shapes of programs (threads of loads, stores, read-modify-writes
// and fences over a few locations, with dependencies and aliases) by size,
// each once up to the renaming of threads and locations; keeps those with
// an execution sequential consistency forbids; searches the memory orders
// and scopes of each shape's operations for the weakest that make the two
// models disagree on an outcome; and turns each such outcome into a test
// whose condition pins every register and final value, which the checker
// then confirms with both models.
//
// The search relies on two properties every PTX model published has, and
// says where it finds them broken: a model allows every sequentially
// consistent execution, and strengthening an operation (weak to relaxed to
// acquire or release, a narrower scope to a wider one, acq_rel to sc)
// never allows more outcomes. The second is checked from each model's
// rules, step by step of each chain, and a chain is cut where a model may
// break it (monotone.go). Under them, the tests it reports are every
// minimal separating test of its vocabulary up to the size asked: no
// instruction can be removed, and no memory order or scope weakened, with
// the models still disagreeing (each reported test is checked for that).
package synth
