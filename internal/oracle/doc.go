// Package oracle answers requests about a model in JSON, one request and
// one answer per line, for checkers written in any language: ptxmm oracle
// reads them on its standard input and writes the answers on its standard
// output, and the C library (capi) answers one per call. A request
// evaluates an execution (given whole, or as events for the builder), or
// checks litmus tests, or asks what the model reads; an answer says
// whether the execution is consistent, each check with its witness, the
// flags raised and the derived relations asked for. A bad request gets an
// answer with an error, and the next request is read as usual.
// docs/embedding.md describes the protocol.
package oracle
