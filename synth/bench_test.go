package synth

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/internal/testcorpus"
	"github.com/ptxmm/ptxmm/litmus"
)

// benchVariants are the shipped variants the search is measured on.
var benchVariants = []string{"fence-sc-not-acq-rel", "obs-one-step", "nta-data-only", "ptx-v6.0", "causality-alloy", "no-sc-per-location"}

// BenchmarkSearch times, for each shipped variant against spec.dl, the
// search for the first separating test (up to 5 instructions; it stops at
// the end of the first size that has one), every separating test up to 4
// instructions, and, as the reference, ptxmm diff over the shipped
// examples (what a user without -synth runs).
//
//	go test -run '^$' -bench BenchmarkSearch -benchtime 1x ./synth/
func BenchmarkSearch(b *testing.B) {
	spec, err := loader.LoadFile("../spec.dl")
	if err != nil {
		b.Fatal(err)
	}
	examples := benchExamples(b)
	v, err := ParseVocabulary(DefaultFeatures, "gpu")
	if err != nil {
		b.Fatal(err)
	}
	for _, name := range benchVariants {
		variant, err := loader.LoadFile(filepath.Join("..", "variants", name+".dl"))
		if err != nil {
			b.Fatal(err)
		}
		o := Options{A: spec, B: variant, Vocabulary: v, Check: checker.DefaultOptions(), Workers: 1}
		b.Run(name+"/first", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				ctx, cancel := context.WithCancel(context.Background())
				o := o
				o.Bounds = Bounds{Events: 5, Threads: 4, Locations: 3}
				size := 0
				o.Found = func(n int, _ []*Found) {
					size = n
					cancel()
				}
				Search(ctx, o)
				cancel()
				b.ReportMetric(float64(size), "size")
			}
		})
		b.Run(name+"/all4", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				o := o
				o.Bounds = Bounds{Events: 4, Threads: 4, Locations: 3}
				rep := Search(context.Background(), o)
				b.ReportMetric(float64(len(rep.Tests)), "tests")
				b.ReportMetric(float64(rep.Programs), "programs")
				b.ReportMetric(float64(rep.Checked.Corners), "corners")
				b.ReportMetric(float64(rep.Checked.Probes), "probes")
				b.ReportMetric(float64(rep.Checked.Removals), "removals")
				b.ReportMetric(float64(rep.Checked.Violations), "screens")
			}
		})
		b.Run(name+"/diff-examples", func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				for _, t := range examples {
					checker.Diff(spec, variant, t, checker.DefaultOptions())
				}
			}
		})
	}
}

// benchExamples reads the shipped examples.
func benchExamples(b *testing.B) []*litmus.Test {
	return testcorpus.Tree(b, "../examples", ".litmus")
}
