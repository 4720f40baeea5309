package serve

import (
	"testing"
)

// BenchmarkServeCache compares, in one run, what a request of the page
// costs with and without the caches, for MP and for IRIW with fence.sc
// (more candidates): "recompile" loads and compiles spec.dl and checks the
// test, as a server without caches would on every request; "model-hit"
// takes the compiled model from the cache and checks the test again;
// "hit" finds both in the caches (the request the page sends when a user
// steps through executions or toggles a relation). The handlers' own work
// (JSON, the picture) is the same in all three and left out.
func BenchmarkServeCache(b *testing.B) {
	s, _ := newTestServer(b, nil)
	model := specModel(b)
	for _, name := range []string{"MP.litmus", "IRIW+fence.sc.litmus"} {
		test := example(b, name)
		b.Run(name+"/recompile", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := s.compile(model)
				if err != nil {
					b.Fatal(err)
				}
				t, _, err := parseTest(test)
				if err != nil {
					b.Fatal(err)
				}
				opts := s.cfg.Options
				opts.Explain = true
				if _, res := c.model.Candidates(t, opts, 0); res.Err != nil {
					b.Fatal(res.Err)
				}
			}
		})
		b.Run(name+"/model-hit", func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				c, err := direct(s, func(c *apiCall) (*compiled, error) { return s.model(c, model) })
				if err != nil {
					b.Fatal(err)
				}
				t, _, err := parseTest(test)
				if err != nil {
					b.Fatal(err)
				}
				opts := s.cfg.Options
				opts.Explain = true
				if _, res := c.model.Candidates(t, opts, 0); res.Err != nil {
					b.Fatal(res.Err)
				}
			}
		})
		b.Run(name+"/hit", func(b *testing.B) {
			if _, err := direct(s, func(c *apiCall) (any, error) { return s.handleRun(c, &RunRequest{Test: test, Model: model}) }); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			for b.Loop() {
				cached, err := direct(s, func(c *apiCall) (bool, error) {
					_, _, cached, err := s.prepare(c, test, model, "model")
					return cached, err
				})
				if err != nil || !cached {
					b.Fatalf("cached %v, error %v", cached, err)
				}
			}
		})
	}
}

// BenchmarkHandlers times the API's answers on a warm cache, JSON and
// picture included: what stepping, clicking, querying and diffing
// against a variant (which includes spec.dl) cost.
func BenchmarkHandlers(b *testing.B) {
	s, _ := newTestServer(b, nil)
	test, model := example(b, "MP.litmus"), specModel(b)
	variant := ModelSource{Name: "variants/nta-data-only.dl", Text: library(b, "variants/nta-data-only.dl")}
	if _, err := direct(s, func(c *apiCall) (any, error) { return s.handleRun(c, &RunRequest{Test: test, Model: model}) }); err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name string
		call func(*apiCall) (any, error)
	}{
		{"run", func(c *apiCall) (any, error) { return s.handleRun(c, &RunRequest{Test: test, Model: model}) }},
		{"execution", func(c *apiCall) (any, error) { return s.handleExec(c, &ExecRequest{Test: test, Model: model, Exec: 3}) }},
		{"why", func(c *apiCall) (any, error) {
			return s.handleWhy(c, &WhyRequest{Test: test, Model: model, Exec: 3, Rel: "fr", Args: []int{7, 2}})
		}},
		{"query", func(c *apiCall) (any, error) {
			return s.handleQuery(c, &QueryRequest{Test: test, Model: model, Exec: 3, Query: "?- cause(X, Y)."})
		}},
		{"diff", func(c *apiCall) (any, error) { return s.handleDiff(c, &DiffRequest{Test: test, A: model, B: variant}) }},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := direct(s, c.call); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
