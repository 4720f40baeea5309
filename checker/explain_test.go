package checker

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

const sbFenceSC = `PTX SB+fence.sc
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak y, 1   ;
 fence.sc.sys   | fence.sc.sys   ;
 ld.weak r0, y  | ld.weak r1, x  ;
exists (P0:r0 == 0 /\ P1:r1 == 0)
`

// edgeText prints an explanation as "LABEL -rel-> LABEL ..." (inverse
// edges as "<-rel-").
func edgeText(x *execution.Execution, edges []rules.Edge) string {
	if len(edges) == 0 {
		return ""
	}
	s := x.Label(edges[0].From)
	for _, e := range edges {
		if e.Inverse {
			s += " <-" + e.Rel + "- " + x.Label(e.To)
		} else {
			s += " -" + e.Rel + "-> " + x.Label(e.To)
		}
	}
	return s
}

// TestExplainSBFenceSC: with Options.Explain the forbidden SB outcome is
// listed with the checks that reject it, and the causality failure is
// expanded into the cycle through the fences' synchronization.
func TestExplainSBFenceSC(t *testing.T) {
	tc := herd(t, sbFenceSC)
	plain := check(t, spec(t), tc)
	assert.Empty(t, plain.Forbidden, "no explanations unless asked")

	o := DefaultOptions()
	o.Explain = true
	r := spec(t).Check(tc, o)
	require.NoError(t, r.Err)
	assert.Equal(t, plain.States, r.States, "explaining changes no outcome")
	require.Len(t, r.Forbidden, 1)
	f := r.Forbidden[0]
	assert.Equal(t, "P0:r0=0; P1:r1=0;", FormatState(r.Test, r.Layout, r.Observables, f.State))
	assert.Contains(t, failureNames(f), "causality")
	require.Len(t, f.Explanations, len(f.Failures))
	require.NotNil(t, f.Execution)
	for i, c := range f.Failures {
		assert.False(t, c.Holds)
		require.NotNil(t, f.Explanations[i], "failure %s has an explanation", c.Name)
		edges := f.Explanations[i]
		// The chain is connected and, for a cycle, closed.
		for k := 1; k < len(edges); k++ {
			assert.Equal(t, edges[k-1].To, edges[k].From)
		}
		if c.Name == "causality" {
			assert.Equal(t, edges[0].From, edges[len(edges)-1].To, "a cycle")
			var rels []string
			for _, e := range edges {
				rels = append(rels, e.Rel)
			}
			assert.Contains(t, rels, "sync", "the cycle goes through the fences' synchronization")
			assert.Contains(t, rels, "fr")
			text := edgeText(f.Execution, edges)
			assert.Contains(t, text, "P0:fence.sc.sys -sync-> P1:fence.sc.sys")
		}
	}
	// The clone is the forbidden candidate: both loads read the initial writes.
	for rd, w := range f.Execution.RF {
		if w >= 0 {
			assert.True(t, f.Execution.Events[w].IsInit(), "%s", f.Execution.Label(rd))
		}
	}
}

// TestExplainDropsReachedOutcomes: an outcome that one candidate reaches
// consistently is allowed, even if another candidate reaching it is
// forbidden: it is not listed.
func TestExplainDropsReachedOutcomes(t *testing.T) {
	// P0 reading 0 from the initial write is forbidden (it follows its own
	// store); reading P1's store of 0 is allowed.
	tc := herd(t, `PTX D
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak x, 0   ;
 ld.weak r0, x  |                ;
exists (P0:r0 == 0)
`)
	o := DefaultOptions()
	o.Explain = true
	r := spec(t).Check(tc, o)
	require.NoError(t, r.Err)
	assert.Equal(t, "Ok", r.Verdict)
	assert.Less(t, r.Consistent, r.Candidates, "some candidate is forbidden")
	assert.Empty(t, r.Forbidden)
}

// TestDiffVariant: spec.dl counts control dependencies in No-Thin-Air,
// variants/nta-data-only.dl does not, so load buffering through control
// dependencies separates them.
func TestDiffVariant(t *testing.T) {
	variant := loadModel(t, "..", "variants", "nta-data-only.dl")
	tc := herd(t, `PTX LB+ctrls
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, x  | ld.weak r1, y  ;
 beq r0, 0, A   | beq r1, 0, B   ;
 st.weak y, 1   | st.weak x, 1   ;
 A:             | B:             ;
exists (P0:r0 == 1 /\ P1:r1 == 1)
`)
	d := Diff(spec(t), variant, tc, DefaultOptions())
	require.NoError(t, d.Err)
	assert.Equal(t, "No", d.A.Verdict)
	assert.Equal(t, "Ok", d.B.Verdict)
	assert.True(t, d.VerdictsDiffer())
	assert.True(t, d.Differs())
	assert.Empty(t, d.OnlyA)
	require.Len(t, d.OnlyB, 1)
	diff := d.OnlyB[0]
	assert.Equal(t, "P0:r0=1; P1:r1=1;", FormatState(tc, d.B.Layout, d.B.Observables, diff.State))
	require.NotNil(t, diff.Execution)
	var names []string
	for _, f := range diff.Failures {
		names = append(names, f.Name)
	}
	assert.Equal(t, []string{"no_thin_air"}, names, "spec.dl rejects the candidate by No-Thin-Air only")
	require.Len(t, diff.Explanations, 1)
	require.NotNil(t, diff.Explanations[0])
	text := edgeText(diff.Execution, diff.Explanations[0])
	assert.Contains(t, text, "-ctrl->")
	assert.Contains(t, text, "-rf->")
	// Each load reads the other thread's store.
	for rd, w := range diff.Execution.RF {
		if w >= 0 {
			assert.False(t, diff.Execution.Events[w].IsInit(), "%s", diff.Execution.Label(rd))
		}
	}
}

// TestDiffSameModel: a model does not differ from itself.
func TestDiffSameModel(t *testing.T) {
	d := Diff(spec(t), spec(t), herd(t, sbFenceSC), DefaultOptions())
	require.NoError(t, d.Err)
	assert.False(t, d.Differs())
	assert.Empty(t, d.OnlyA)
	assert.Empty(t, d.OnlyB)
}

// TestCheckAllIdenticalModels: two copies of a model over one enumeration
// give the same results as each alone.
func TestCheckAllIdenticalModels(t *testing.T) {
	other := loadModel(t, "..", "spec.dl")
	srcs := []string{sbFenceSC, mp("st.release.gpu", "ld.acquire.gpu", "exists (P1:r0 == 1 /\\ P1:r1 == 0)"), blockedSrc("exists (P0:r0 == 0)")}
	for i, src := range srcs {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			tc := herd(t, src)
			rs := CheckAll([]*Model{spec(t), other}, tc, DefaultOptions())
			require.Len(t, rs, 2)
			single := check(t, spec(t), tc)
			for _, r := range rs {
				require.NoError(t, r.Err)
				assert.Equal(t, single.States, r.States)
				assert.Equal(t, single.Verdict, r.Verdict)
				assert.Equal(t, single.Positive, r.Positive)
				assert.Equal(t, single.Negative, r.Negative)
				assert.Equal(t, single.Candidates, r.Candidates)
				assert.Equal(t, single.Consistent, r.Consistent)
				assert.Equal(t, single.Hangs, r.Hangs)
				assert.Equal(t, single.Unjudged, r.Unjudged)
			}
		})
	}
}

// TestCandidates: every candidate with its verdict, in enumeration order,
// agreeing with the result's counts; limit keeps the first ones.
func TestCandidates(t *testing.T) {
	tc := herd(t, sbFenceSC)
	cs, r := spec(t).Candidates(tc, DefaultOptions(), 0)
	require.NoError(t, r.Err)
	require.Len(t, cs, 4)
	assert.Equal(t, r.Candidates, len(cs))
	consistent := 0
	for _, c := range cs {
		state := FormatState(tc, r.Layout, r.Observables, c.State)
		if c.Consistent {
			consistent++
			assert.Empty(t, c.Failures)
			assert.NotEqual(t, "P0:r0=0; P1:r1=0;", state)
		} else {
			assert.Equal(t, "P0:r0=0; P1:r1=0;", state)
			assert.NotEmpty(t, c.Failures)
		}
		assert.Empty(t, c.Finals, "no location is observed")
		inst, err := spec(t).Instance(c)
		require.NoError(t, err)
		require.NotNil(t, inst)
	}
	assert.Equal(t, r.Consistent, consistent)

	first, _ := spec(t).Candidates(tc, DefaultOptions(), 2)
	require.Len(t, first, 2)
	for i := range first {
		assert.Equal(t, cs[i].State, first[i].State)
		assert.Equal(t, cs[i].Consistent, first[i].Consistent)
	}
}

// TestEachInputs: the instances EachInputs fills, reused from candidate to
// candidate and from test to test, hold the same inputs as the fresh ones
// Inputs fills, for every candidate of two tests of different sizes.
func TestEachInputs(t *testing.T) {
	m := spec(t)
	mp := herd(t, "PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n")
	for _, tc := range []*litmus.Test{herd(t, sbFenceSC), mp, herd(t, sbFenceSC)} {
		cs, r := m.Candidates(tc, DefaultOptions(), 0)
		require.NoError(t, r.Err)
		require.NotEmpty(t, cs)
		i := 0
		require.NoError(t, m.EachInputs(cs, func(got *rules.Instance) {
			want, err := m.Inputs(cs[i])
			require.NoError(t, err)
			for _, in := range m.Syntax.Inputs() {
				g, err := got.Tuples(in)
				require.NoError(t, err)
				w, err := want.Tuples(in)
				require.NoError(t, err)
				assert.Equal(t, w, g, "%s, candidate %d, input %s", tc.Name, i, in)
			}
			i++
		}))
		assert.Equal(t, len(cs), i)
	}
}

// TestCandidatesWithFinals: a test observing a location has one candidate
// per choice of final write, each naming it in Finals.
func TestCandidatesWithFinals(t *testing.T) {
	tc := herd(t, `PTX F
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   ;
exists (x == 2)
`)
	cs, r := spec(t).Candidates(tc, DefaultOptions(), 0)
	require.NoError(t, r.Err)
	require.Len(t, cs, 3)
	var got []string
	for _, c := range cs {
		require.Len(t, c.Finals, 1)
		w := c.Execution.Events[c.Finals[0]]
		got = append(got, fmt.Sprintf("%s consistent=%v", c.Execution.Label(c.Finals[0]), c.Consistent))
		if c.Consistent {
			assert.Equal(t, w.Value, c.State[0].V, "the state shows the final write's value")
		}
	}
	assert.Equal(t, []string{
		"init:x=0 consistent=false",
		"P0:st.weak x, 1 consistent=true",
		"P1:st.weak x, 2 consistent=true",
	}, got)
}

// TestTimeout: an exhausted -timeout is an error IsTimeout recognises, also
// when wrapped, naming the flag.
func TestTimeout(t *testing.T) {
	// Regression: the clock used to be read every 64 candidates only, so a
	// test with fewer candidates (this one has 4) never timed out.
	tc := herd(t, sbFenceSC)
	o := DefaultOptions()
	o.Timeout = 1 // nanosecond
	r := spec(t).Check(tc, o)
	require.Error(t, r.Err)
	assert.True(t, IsTimeout(r.Err))
	assert.True(t, IsTimeout(fmt.Errorf("test T: %w", r.Err)))
	assert.Contains(t, r.Err.Error(), "raise it with -timeout")
	assert.Contains(t, r.Err.Error(), "1ns")
	assert.Empty(t, r.Verdict)
	assert.False(t, IsTimeout(fmt.Errorf("something else")))
	assert.False(t, IsTimeout(nil))

	// Diff and Candidates report it too.
	d := Diff(spec(t), spec(t), tc, o)
	assert.True(t, IsTimeout(d.Err))
	_, cr := spec(t).Candidates(tc, o, 0)
	assert.True(t, IsTimeout(cr.Err))

	o.Timeout = 0 // no limit
	r = spec(t).Check(tc, o)
	require.NoError(t, r.Err)
	assert.Equal(t, 4, r.Candidates)
}

// TestLoadModelErrors: a missing file or a model that does not compile is
// an error.
func TestLoadModelErrors(t *testing.T) {
	_, err := loadFile(filepath.Join("testdata", "missing.dl"))
	require.Error(t, err)
}
