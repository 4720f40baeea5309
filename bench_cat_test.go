package ptxmm_test

import (
	"path/filepath"
	"testing"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/internal/testcorpus"
	"github.com/ptxmm/ptxmm/litmus"
)

// exampleTests parses every shipped test.
func exampleTests(b *testing.B) []*litmus.Test {
	b.Helper()
	return testcorpus.Tree(b, "examples", ".litmus", ".test")
}

// checkAllOnce checks every test once.
func checkAllOnce(b *testing.B, m *checker.Model, tests []*litmus.Test) int {
	cands := 0
	for _, t := range tests {
		r := m.Check(t, checker.DefaultOptions())
		if r.Err != nil {
			b.Fatal(r.Err)
		}
		cands += r.Candidates
	}
	return cands
}

// BenchmarkCatModel compares, in one run, a cat model with its twin
// written in ptxmm's modelling language (examples/cat/sc.cat and sc.dl) on
// the shipped tests and, when present, the shared corpora: the cat reader
// lowers onto the same engine, so the two should take the same time. With
// the shared corpora it also runs Dartagnan's ptx-v7.5.cat next to spec.dl
// (two formulations of the PTX model, not twins: for scale).
func BenchmarkCatModel(b *testing.B) {
	cat, dl := loadTwins(b)
	sets := []struct {
		name  string
		tests func(*testing.B) []*litmus.Test
	}{{"examples", exampleTests}, {"corpora", corpusTests}}
	for _, set := range sets {
		for _, m := range []struct {
			name  string
			model *checker.Model
		}{{"sc.cat", cat}, {"sc.dl", dl}} {
			b.Run(set.name+"/"+m.name, func(b *testing.B) {
				tests := set.tests(b)
				b.ReportAllocs()
				var cands int
				for b.Loop() {
					cands = checkAllOnce(b, m.model, tests)
				}
				b.ReportMetric(float64(cands), "candidates")
			})
		}
	}
	dartagnan := filepath.Join("..", "shared", "conformance", "dat3m", "cat", "ptx-v7.5.cat")
	for _, name := range []string{"ptx-v7.5.cat", "spec.dl"} {
		b.Run("corpora/"+name, func(b *testing.B) {
			tests := corpusTests(b)
			var m *checker.Model
			if name == "spec.dl" {
				m = mustModel(b)
			} else {
				m = checkerModel(b, loader.Source{Name: dartagnan})
			}
			b.ReportAllocs()
			var cands int
			for b.Loop() {
				cands = checkAllOnce(b, m, tests)
			}
			b.ReportMetric(float64(cands), "candidates")
		})
	}
}
