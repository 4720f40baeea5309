// Package litmus owns PTX litmus tests: the data model shared by every test
// format, and the parsers for the two formats ptxmm reads.
//
//   - Herd-style PTX litmus files (.litmus), as used by herd7 and the
//     Dartagnan test suite: a "PTX NAME" header, an init block, a table of
//     threads, and an exists / ~exists / forall condition.
//   - NVIDIA's mixed-proxy test files (.test): .global/.shared/.surfref/.texref
//     declarations, dN.bN.tN { ... } threads, assert/permit/check commands, and
//     $$ templates that expand into one test per table row.
//
// Both parsers produce the same Test value, so everything downstream
// (execution enumeration, the model, the command line) is format-agnostic.
// A construct the parsers do not support is rejected with a source.Error that
// names the construct and its file:line:col; nothing is skipped silently.
package litmus
