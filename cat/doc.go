// Package cat reads memory models written in herd7's cat language and
// lowers them onto ptxmm's modelling language (package datalog), so that a
// cat model compiles into the same rules engine as a .dl model: the same
// evaluation, explanations, REPL and diff.
//
// It reads the subset of cat that published GPU models use: let, let rec
// ... and ... (least fixpoint), functions (let f(x) = e, inlined where they
// are applied), include with a search path, the acyclic, irreflexive and
// empty tests and their ~ forms, flag and undefined_unless tests, show and
// unshow, the operators | & \ ; * + ? ^-1 ~ [S] _ 0, domain and range, and
// the model's name on its first line. Anything else (match, with ... from,
// procedures, if variant, ...) is an error at its file:line:col that names
// the construct.
//
// The base relations a cat model reads come from ptxmm's catalog through
// the name mapping in base.go (documented in docs/cat.md): Dartagnan's PTX
// names such as vloc, sr, syncbar and the tag sets, herd's conventional
// derived relations such as po-loc and fr, and the relations the checker
// chooses at run time (co and sync_fence), which become .order relations.
package cat
