// Package harness runs litmus tests on a GPU and holds what the silicon
// does against the model: it plans and generates each test's PTX module
// (gpu/ptxgen), launches it many times with litmus7-style parallel
// testing environments and memory stress (params.go, geometry.go), reads
// back every instance's final state into a histogram (collect.go),
// compares each observed state with the model's verdict on it, raising an
// alarm for states the model forbids (compare.go), optionally checks that
// the compiler kept each thread's memory operations (gpu/sass), and
// prints litmus7's log or JSON (log.go, json.go).
package harness
