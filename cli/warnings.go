package cli

import (
	"fmt"
	"io"

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
