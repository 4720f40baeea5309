// Package explore is what the REPL and the web page of ptxmm serve share
// to inspect one candidate execution: its events by label, queries over
// its relations and their answers as text, derivation trees that speak in
// the model's names, each check's verdict with its witness as a chain of
// edges, and the relations a picture draws. The REPL prints what it
// returns; the server turns it into JSON. Both print the same text.
package explore
