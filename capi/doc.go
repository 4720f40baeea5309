// Command capi is ptxmm as a C library, for checkers written in C, C++,
// Python (ctypes), Java (JNA, the FFM API) or OCaml (ctypes): build it
// with
//
//	go build -buildmode=c-shared -o libptxmm.so ./capi
//
// and include ptxmm.h. A program opens a model (ptxmm_open, configured in
// JSON), sends it requests, each a JSON object of ptxmm oracle's protocol,
// and gets each answer as a JSON string (ptxmm_request), which it frees
// (ptxmm_free); ptxmm_close releases the model. docs/embedding.md shows
// it from C and Python. It needs cgo: built without it, it is a program
// that says so.
package main
