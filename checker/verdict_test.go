package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mp builds message passing between two CTAs with the given store of the
// flag, load of the flag, and condition.
func mp(st, ld, cond string) string {
	return `PTX MP
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | ` + ld + ` r0, y ;
 ` + st + ` y, 1 | ld.weak r1, x ;
` + cond + "\n"
}

// TestVerdicts checks herd conditions against spec.dl on small tests whose
// answers follow from the PTX ISA's litmus tests.
func TestVerdicts(t *testing.T) {
	const stale = "(P1:r0 == 1 /\\ P1:r1 == 0)"
	cases := []struct {
		name        string
		src         string
		verdict     string
		pos, neg    int
		observation string
		states      []string
	}{
		{
			name:    "weak MP: the stale read is allowed",
			src:     mp("st.weak", "ld.weak", "exists "+stale),
			verdict: "Ok", pos: 1, neg: 3, observation: "Sometimes",
			states: []string{"P1:r0=0; P1:r1=0;", "P1:r0=0; P1:r1=1;", "P1:r0=1; P1:r1=0;", "P1:r0=1; P1:r1=1;"},
		},
		{
			name:    "release/acquire MP at gpu scope: forbidden",
			src:     mp("st.release.gpu", "ld.acquire.gpu", "exists "+stale),
			verdict: "No", pos: 0, neg: 3, observation: "Never",
			states: []string{"P1:r0=0; P1:r1=0;", "P1:r0=0; P1:r1=1;", "P1:r0=1; P1:r1=1;"},
		},
		{
			name:    "release/acquire MP at cta scope across CTAs: allowed",
			src:     mp("st.release.cta", "ld.acquire.cta", "exists "+stale),
			verdict: "Ok", pos: 1, neg: 3, observation: "Sometimes",
		},
		{
			name:    "~exists holds when nothing satisfies it",
			src:     mp("st.release.gpu", "ld.acquire.gpu", "~exists "+stale),
			verdict: "Ok", pos: 0, neg: 3, observation: "Never",
		},
		{
			name:    "~exists fails when something does",
			src:     mp("st.weak", "ld.weak", "~exists "+stale),
			verdict: "No", pos: 1, neg: 3, observation: "Sometimes",
		},
		{
			name:    "forall holds when everything satisfies it",
			src:     mp("st.release.gpu", "ld.acquire.gpu", "forall (P1:r0 == 0 \\/ P1:r1 == 1)"),
			verdict: "Ok", pos: 3, neg: 0, observation: "Always",
		},
		{
			name:    "forall fails when something does not",
			src:     mp("st.release.gpu", "ld.acquire.gpu", "forall (P1:r1 == 1)"),
			verdict: "No", pos: 2, neg: 1, observation: "Sometimes",
		},
		{
			name: "SB with fence.sc: forbidden",
			src: `PTX SB
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak y, 1   ;
 fence.sc.gpu   | fence.sc.gpu   ;
 ld.weak r0, y  | ld.weak r1, x  ;
exists (P0:r0 == 0 /\ P1:r1 == 0)
`,
			verdict: "No", pos: 0, neg: 3, observation: "Never",
		},
		{
			name: "SB with fence.acq_rel: allowed",
			src: `PTX SB
{ x=0; y=0; }
 P0@cta 0,gpu 0    | P1@cta 1,gpu 0    ;
 st.weak x, 1      | st.weak y, 1      ;
 fence.acq_rel.gpu | fence.acq_rel.gpu ;
 ld.weak r0, y     | ld.weak r1, x     ;
exists (P0:r0 == 0 /\ P1:r1 == 0)
`,
			verdict: "Ok", pos: 1, neg: 3, observation: "Sometimes",
		},
		{
			name: "a thread reads its own store",
			src: `PTX CoWR
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.weak x, 1   ;
 ld.weak r0, x  ;
forall (P0:r0 == 1)
`,
			verdict: "Ok", pos: 1, neg: 0, observation: "Always",
			states: []string{"P0:r0=1;"},
		},
		{
			name: "a condition that is a constant",
			src: `PTX T
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.weak x, 1   ;
exists (true)
`,
			verdict: "Ok", pos: 1, neg: 0, observation: "Always",
			states: []string{""},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := check(t, spec(t), herd(t, c.src))
			assert.Equal(t, c.verdict, r.Verdict)
			assert.Equal(t, c.pos, r.Positive, "Positive")
			assert.Equal(t, c.neg, r.Negative, "Negative")
			assert.Equal(t, c.observation, r.Observation())
			assert.Equal(t, r.Positive+r.Negative, r.Consistent, "every consistent execution is counted once")
			assert.GreaterOrEqual(t, r.Candidates, r.Consistent)
			assert.True(t, r.Sanity)
			assert.Zero(t, r.Hangs)
			assert.Zero(t, r.ThinAir)
			if c.states != nil {
				assert.Equal(t, c.states, states(r))
			}
		})
	}
}

// TestCountsWithEverythingAllowed: with a model that allows everything,
// every candidate is consistent and counted once.
func TestCountsWithEverythingAllowed(t *testing.T) {
	m := loadModel(t, "testdata", "anything.dl")
	r := check(t, m, herd(t, mp("st.release.gpu", "ld.acquire.gpu", "exists (P1:r0 == 1 /\\ P1:r1 == 0)")))
	assert.Equal(t, 4, r.Candidates)
	assert.Equal(t, 4, r.Consistent)
	assert.Equal(t, 1, r.Positive)
	assert.Equal(t, 3, r.Negative)
	assert.Equal(t, "Ok", r.Verdict)
}

// TestLimitErrors: a resource limit makes the result an error naming the
// flag that raises it, and the verdict stays empty.
func TestLimitErrors(t *testing.T) {
	tc := herd(t, mp("st.weak", "ld.weak", "exists (P1:r0 == 1)"))
	o := DefaultOptions()
	o.MaxCandidates = 2
	r := spec(t).Check(tc, o)
	require.Error(t, r.Err)
	assert.Contains(t, r.Err.Error(), "-max-candidates")
	assert.Empty(t, r.Verdict)

	o = DefaultOptions()
	o.Exec.MaxRuns = 1
	tc = herd(t, `PTX BR
{ x=0; }
 P0@cta 0,gpu 0 ;
 ld.weak r0, x  ;
 beq r0, 0, L   ;
 L:             ;
exists (P0:r0 == 0)
`)
	r = spec(t).Check(tc, o)
	require.Error(t, r.Err)
	assert.Contains(t, r.Err.Error(), "-max-runs")
}

// TestModelWithoutCoherence: a test observing memory needs the model's co;
// a test observing registers only does not.
func TestModelWithoutCoherence(t *testing.T) {
	m := loadModel(t, "testdata", "po-rf.dl")
	r := m.Check(herd(t, `PTX W
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.weak x, 1   ;
forall (x == 1)
`), DefaultOptions())
	require.Error(t, r.Err)
	assert.Contains(t, r.Err.Error(), "defines no relation co")

	r = check(t, m, herd(t, `PTX LB
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, x  | ld.weak r1, y  ;
 st.weak y, 1   | st.weak x, 1   ;
exists (P0:r0 == 1 /\ P1:r1 == 1)
`))
	assert.Equal(t, "No", r.Verdict, "acyclic(po | rf) forbids load buffering")
	assert.Equal(t, 3, r.Consistent)
}

// TestThinAir: a model that allows a reads-from/data cycle gets it counted
// as ThinAir, with no final state and no place in the counts; spec.dl
// forbids it.
func TestThinAir(t *testing.T) {
	src := `PTX LB+data
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 ld.weak r0, x  | ld.weak r1, y  ;
 st.weak y, r0  | st.weak x, r1  ;
exists (P0:r0 == 0 /\ P1:r1 == 0)
`
	r := check(t, spec(t), herd(t, src))
	assert.Zero(t, r.ThinAir)
	assert.Equal(t, 3, r.Consistent)

	r = check(t, loadModel(t, "testdata", "no-thin-air.dl"), herd(t, src))
	assert.Equal(t, 1, r.ThinAir)
	assert.Equal(t, 3, r.Consistent, "the thin-air execution is not counted as consistent")
	assert.Equal(t, 3, r.Positive+r.Negative)
	assert.Equal(t, []string{"P0:r0=0; P1:r1=0;"}, states(r))
}
