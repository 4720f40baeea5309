package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

// nvMP is NV-format message passing between two CTAs with release/acquire at
// gpu scope; loads carries the consumer's two loads.
func nvMP(loads, commands string) string {
	return ".global x;\n.global y;\n" +
		"d0.b0.t0 {\n  st [x], 1;\n  st.release.gpu [y], 1;\n}\n" +
		"d0.b1.t0 {\n" + loads + "\n}\n" + commands
}

const mpLoads = "  ld.acquire.gpu r0, [y];\n  ld r1, [x];"

type assertionWant struct {
	name      string
	kind      litmus.AssertKind
	holds     bool
	sometimes bool
}

func assertionOutcomes(r *Result) []assertionWant {
	var out []assertionWant
	for _, a := range r.Assertions {
		out = append(out, assertionWant{a.Name, a.Kind, a.Holds, a.Sometimes})
	}
	return out
}

// TestAssertions checks assert (every consistent execution), permit (some
// consistent execution) and check (which of the two) on NV tests, including
// the vacuous cases where no execution is consistent.
func TestAssertions(t *testing.T) {
	commands := "assert (r0 == 0 || r1 == 1) as mp;\n" +
		"permit (r0 == 1 && r1 == 1) as seen;\n" +
		"permit (r0 == 1 && r1 == 0) as stale;\n" +
		"assert (r1 == 1) as always_new;\n" +
		"check (r0 == 0 || r1 == 1) as c_always;\n" +
		"check (r1 == 1) as c_sometimes;\n" +
		"check (r0 == 1 && r1 == 0) as c_never;\n"
	cases := []struct {
		name       string
		loads      string
		consistent int
		candidates int
		sanity     bool
		want       []assertionWant
	}{
		{
			name:  "consistent executions exist",
			loads: mpLoads, consistent: 3, candidates: 4, sanity: true,
			want: []assertionWant{
				{"mp", litmus.AssertAlways, true, true},
				{"seen", litmus.AssertSometimes, true, true},
				{"stale", litmus.AssertSometimes, false, false},
				{"always_new", litmus.AssertAlways, false, true},
				{"c_always", litmus.AssertCheck, true, true},
				{"c_sometimes", litmus.AssertCheck, false, true},
				{"c_never", litmus.AssertCheck, false, false},
			},
		},
		{
			// The filters select only the forbidden stale read: candidates
			// exist, none is consistent. assert holds vacuously, permit
			// fails, and check holds "always" vacuously.
			name:  "no consistent execution",
			loads: "  ld.acquire.gpu r0, [y] == 1;\n  ld r1, [x] == 0;", consistent: 0, candidates: 1, sanity: true,
			want: []assertionWant{
				{"mp", litmus.AssertAlways, true, false},
				{"seen", litmus.AssertSometimes, false, false},
				{"stale", litmus.AssertSometimes, false, false},
				{"always_new", litmus.AssertAlways, true, false},
				{"c_always", litmus.AssertCheck, true, false},
				{"c_sometimes", litmus.AssertCheck, true, false},
				{"c_never", litmus.AssertCheck, true, false},
			},
		},
		{
			// No write writes 5: no candidate at all, whatever the model.
			name:  "no candidate meets the filters",
			loads: "  ld.acquire.gpu r0, [y] == 5;\n  ld r1, [x];", consistent: 0, candidates: 0, sanity: false,
			want: []assertionWant{
				{"mp", litmus.AssertAlways, true, false},
				{"seen", litmus.AssertSometimes, false, false},
				{"stale", litmus.AssertSometimes, false, false},
				{"always_new", litmus.AssertAlways, true, false},
				{"c_always", litmus.AssertCheck, true, false},
				{"c_sometimes", litmus.AssertCheck, true, false},
				{"c_never", litmus.AssertCheck, true, false},
			},
		},
		{
			name:  "filters keep the synchronizing executions",
			loads: "  ld.acquire.gpu r0, [y] == 1;\n  ld r1, [x];", consistent: 1, candidates: 2, sanity: true,
			want: []assertionWant{
				{"mp", litmus.AssertAlways, true, true},
				{"seen", litmus.AssertSometimes, true, true},
				{"stale", litmus.AssertSometimes, false, false},
				{"always_new", litmus.AssertAlways, true, true},
				{"c_always", litmus.AssertCheck, true, true},
				{"c_sometimes", litmus.AssertCheck, true, true},
				{"c_never", litmus.AssertCheck, false, false},
			},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := check(t, spec(t), nv(t, nvMP(c.loads, commands)))
			assert.Equal(t, c.want, assertionOutcomes(r))
			assert.Equal(t, c.consistent, r.Consistent, "consistent")
			assert.Equal(t, c.candidates, r.Candidates, "candidates")
			assert.Equal(t, c.sanity, r.Sanity, "sanity")
			assert.Empty(t, r.Verdict, ".test files have no herd verdict")
		})
	}
}

// TestSanityOnlyWithFilters: a herd test (no filters) without any candidate
// keeps Sanity; only "== v" restrictions can fail it.
func TestSanityOnlyWithFilters(t *testing.T) {
	r := check(t, spec(t), herd(t, `PTX NoAddress
{ x=0; y=0; P0:r2=y; }
 P0@cta 0,gpu 0  ;
 ld.weak r0, x   ;
 st.weak [r0], 1 ;
exists (P0:r0 == 0)
`))
	// r0 must hold an address, which no write of x gives it: there is
	// no candidate at all.
	assert.Zero(t, r.Candidates)
	assert.True(t, r.Sanity)
	assert.Equal(t, "No", r.Verdict)
}

// TestTemplateInstances: each row of a template is its own instance with
// its own outcome.
func TestTemplateInstances(t *testing.T) {
	src := ".global x;\n.global y;\n" +
		"d0.b0.t0 {\n  st [x], 1;\n  st.release.$0 [y], 1;\n}\n" +
		"d0.b1.t0 {\n  ld.acquire.$0 r0, [y] == 1;\n  ld r1, [x];\n}\n" +
		"$1 (r1 == 1) as fresh;\n$$\ngpu | assert\ncta | assert\nsys | permit\n"
	tests := nvAll(t, src)
	require.Len(t, tests, 3)
	var got []assertionWant
	for i, tc := range tests {
		assert.Equal(t, i+1, tc.Instance)
		r := check(t, spec(t), tc)
		require.Len(t, r.Assertions, 1)
		got = append(got, assertionOutcomes(r)[0])
	}
	assert.Equal(t, []assertionWant{
		{"fresh", litmus.AssertAlways, true, true},
		{"fresh", litmus.AssertAlways, false, true}, // cta scope does not reach the other CTA
		{"fresh", litmus.AssertSometimes, true, true},
	}, got)
}
