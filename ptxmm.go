// Package ptxmm is the embedding API of ptxmm, an executable PTX memory
// consistency model: load the default model (the PTX ISA's chapter 8 as
// Datalog, embedded from spec.dl) or a model of your own, check litmus tests
// against it, or hand in an execution of your own and get every derived
// relation and each axiom's verdict with a witness.
//
// Everything here is safe for concurrent use.
package ptxmm

import (
	"embed"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
)

//go:embed spec.dl
var models embed.FS

// DefaultModelName is the name the embedded default model is known by.
const DefaultModelName = "spec.dl"

// DefaultModelSource returns the text of the embedded default model.
func DefaultModelSource() []byte {
	b, err := models.ReadFile(DefaultModelName)
	if err != nil {
		// The file is embedded at build time; failing to read it means the
		// binary itself is broken.
		panic("ptxmm: embedded spec.dl missing: " + err.Error())
	}
	return b
}

// DefaultModel loads the embedded PTX model.
func DefaultModel() (*checker.Model, error) {
	return checker.LoadModel(DefaultModelName, datalog.WithFS(models))
}

// LoadModel loads a model from a .dl file on disk (includes are resolved
// relative to it).
func LoadModel(path string) (*checker.Model, error) {
	return checker.LoadModel(path)
}
