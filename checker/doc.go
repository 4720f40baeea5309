// Package checker runs a memory model over litmus tests: for each test it
// enumerates the candidate executions (package execution), fills the
// model's base relations (package catalog), evaluates the model and
// searches its run-time orders (package rules), and collects the final
// states of the consistent executions, the verdict of the test's condition
// or assertions, and, on request, why each forbidden outcome is forbidden.
package checker
