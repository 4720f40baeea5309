// Package program describes a PTX litmus test by its structure: threads
// placed in the GPU's hierarchy, each a list of memory operations, fences
// and dependencies over named addresses, and a final condition that pins
// registers and final values. It writes such a test in herd's format, which
// package litmus reads back. The generators of tests (package gen, which
// builds tests from cycles of relations as diy7 does, and package synth,
// which searches for the tests that separate two models) build their tests
// through it, so that every generated test is written the same way.
package program
