// Package repl owns ptxmm's interactive session over one litmus test and a
// model: listing the candidate executions and what rejects each, selecting
// one, querying any relation of it in Datalog syntax, asking why a derived
// tuple holds, adding rules and checks on the fly, and reloading the model
// file after an edit to see which outcomes changed.
//
// A Session executes one line at a time (Exec), so it can be driven by a
// terminal (Run, with line editing, history and tab completion) or by a
// script (every line from a non-terminal input, printing only results).
package repl
