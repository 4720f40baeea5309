// Package cat reads memory models written in herd7's cat language and
// lowers them onto ptxmm's modelling language (package datalog), so that a
// cat model compiles into the same rules engine as a .dl model: the same
// evaluation, explanations, REPL and diff.
//
// It reads the whole language (herdtools7's herd/libdir and its manual are
// the reference): bindings, functions and recursion, tuples, tags and
// enum, explicit sets, match, try ... with, if on variants and values,
// procedures, forall, with ... from, include (searched as herd7 searches:
// the including file's folder, -I, HERDLIB, the library folder), tests,
// flags and shows. A model is evaluated once, when it is loaded (eval.go):
// what does not depend on the execution is computed then, and relations
// become definitions the rules engine evaluates for each execution; a
// with over a set of orders becomes an .order the checker searches
// (with.go).
//
// The names a model reads without binding them come from ptxmm's catalog
// through the mapping in base.go (docs/cat.md): herd7's predefined sets
// and relations for PTX, Dartagnan's PTX names, and the relations the
// checker chooses (co and sync_fence); herd7's primitives and standard
// library are written in prims.go. Names of other architectures are not
// supplied: a model reading them gets one error listing them all.
package cat
