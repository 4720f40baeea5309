// Package source owns positions in input files and the diagnostics that point
// at them. Every front end of ptxmm (the Datalog language and both litmus
// formats) reports problems as a List of Errors, each printed as
// file:line:col: message, followed by the offending source line and a caret
// under the column, the way Soufflé and the Go tools do.
package source
