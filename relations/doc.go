// Package relations owns the dense relation representations that the
// Datalog evaluator computes over: unary relations (Set), binary relations
// (Rel) and relations of higher arity (Tuples), all over a small domain of
// atoms 0..n-1.
//
// Unary and binary relations are bit matrices built on
// github.com/bits-and-blooms/bitset, because the evaluator's inner loops are
// row-wise unions and intersections that become word-wide operations there.
// A Rel keeps all of its rows in one backing array so that whole-relation
// operations are single linear passes and so that creating a relation costs
// a constant number of allocations regardless of n.
//
// The package also owns the graph algorithms memory models need on binary
// relations: composition, transitive closure (by SCC condensation),
// irreflexivity and acyclicity with shortest-cycle witnesses.
//
// Every operation combining two relations requires them to share the same
// domain size n; mixing sizes is a programming error and panics. Values are
// not safe for concurrent mutation; concurrent reads are safe except where a
// method documents otherwise.
package relations
