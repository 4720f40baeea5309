package cli

import (
	"fmt"
	"io"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// printWarnings prints a file's warnings once (the instances of a .test
// template share them).
func printWarnings(w io.Writer, tests []*litmus.Test) {
	if len(tests) == 0 || len(tests[0].Warnings) == 0 {
		return
	}
	fmt.Fprintln(w, tests[0].Warnings.Quoted())
}

// warnHostModel warns, once, when tests with host threads are checked
// with a model that reads none of the relations about host threads (a cat
// model, or a .dl model written without them): their verdicts then ignore
// every API synchronization edge.
func warnHostModel(w io.Writer, m *checker.Model, tests []*litmus.Test) {
	n := 0
	for _, t := range tests {
		if t != nil && t.HasHost() {
			n++
		}
	}
	if n == 0 || m.ReadsHost() {
		return
	}
	fmt.Fprintf(w, "ptxmm: warning: model %s reads none of the relations about host threads (API, TASK_START, stream_next, ...): %d test(s) with host threads are checked without the CUDA API synchronization of 8.9.4 (docs/model.md, section 23)\n", m.Name, n)
}
