// Package loader is the one place ptxmm reads a memory model: a .dl model
// or a herd7 .cat model (by the name's extension), from disk, from any
// fs.FS (the library embedded in the binary, a folder) or from text, with
// include folders, rules added on top and axioms left unchecked, compiled
// into a checker.Model. Every front end (the embedding API, the commands,
// the REPL, the server) loads through it, so a model means the same thing
// wherever it is named. Cache keeps compiled models keyed on everything
// they were read from, the included files' contents included.
package loader
