// Command gen writes spec.snap, the embedded default model compiled ahead
// of time: run by go generate in internal/defaultmodel, it reads spec.dl
// from the repository's root (two folders up).
package main

import (
	"fmt"
	"os"

	"github.com/ptxmm/ptxmm/internal/defaultmodel"
	"github.com/ptxmm/ptxmm/internal/loader"
)

func main() {
	data, err := loader.Precompile(loader.Source{Name: defaultmodel.Name, FS: os.DirFS("../..")}, loader.Options{})
	if err == nil {
		err = os.WriteFile(defaultmodel.File, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
