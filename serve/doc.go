// Package serve owns ptxmm serve: a local web page to write a litmus test,
// edit the model, run one against the other and step through the candidate
// executions, drawn as SVG with one colour per relation and the failing
// check's witness highlighted; click an edge for its derivation, type a
// query or a rule as in the REPL, untick an axiom, compare two models.
//
// The page (static/, embedded) is a thin client of a small JSON API
// (docs/serve.md). Requests carry the test and the model as text and the
// server keeps no session: compiled models and results are cached by
// content hash, with ristretto. A submitted model can include only the
// built-in models and the .dl files of the folder given as -include-dir;
// every request runs under the candidate and time limits of the checker,
// with a bounded body and a bounded number of requests computing at once.
package serve
