package checker

import (
	"github.com/ptxmm/ptxmm/cat"
)

// LoadCatModel loads a model written in herd7's cat language, lowered onto
// the modelling language (package cat), and compiles it like any other.
func LoadCatModel(file string, opts cat.Options) (*Model, error) {
	low, errs := cat.Load(file, opts)
	if errs.HasErrors() {
		return nil, errs
	}
	m, err := BuildModel(file, low.Program, nil)
	if err != nil {
		return nil, err
	}
	m.Show = low.Show
	m.CheckGroups = low.Groups
	m.Warnings = append(errs, m.Warnings...)
	return m, nil
}
