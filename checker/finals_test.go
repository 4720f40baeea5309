package checker

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// TestFinalValues checks conditions on final memory values: the final
// value of a location is written by a write with no co successor, and when
// the last writes race each gives a final state.
func TestFinalValues(t *testing.T) {
	cases := []struct {
		name       string
		src        string
		verdict    string
		states     []string
		candidates int // one per candidate and choice of final write
		consistent int
	}{
		{
			name: "program order decides",
			src: `PTX F
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.weak x, 1   ;
 st.weak x, 2   ;
forall (x == 2)
`,
			verdict: "Ok", states: []string{"x=2;"}, candidates: 3, consistent: 1,
		},
		{
			name: "racing weak writes: each is a final value",
			src: `PTX F
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   ;
exists (x == 1)
`,
			// The initial write is never final.
			verdict: "Ok", states: []string{"x=1;", "x=2;"}, candidates: 3, consistent: 2,
		},
		{
			name: "racing weak writes: neither is always final",
			src: `PTX F
{ x=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak x, 2   ;
forall (x == 2)
`,
			verdict: "No", states: []string{"x=1;", "x=2;"}, candidates: 3, consistent: 2,
		},
		{
			name: "morally strong writes: co is chosen both ways",
			src: `PTX F
{ x=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;
 st.relaxed.gpu x, 1    | st.relaxed.gpu x, 2    ;
exists (x == 1)
`,
			verdict: "Ok", states: []string{"x=1;", "x=2;"}, candidates: 3, consistent: 2,
		},
		{
			name: "a read of the other write orders them",
			src: `PTX F
{ x=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0         ;
 st.relaxed.gpu x, 1    | ld.relaxed.gpu r0, x   ;
                        | st.relaxed.gpu x, 2    ;
exists (P1:r0 == 1 /\ x == 1)
`,
			// Reading 1 then writing 2 puts 2 last (coherence); reading 0
			// leaves both orders.
			verdict: "No", states: []string{"P1:r0=0; x=1;", "P1:r0=0; x=2;", "P1:r0=1; x=2;"},
			candidates: 9, consistent: 3,
		},
		{
			name: "two atomic increments: the final value counts both",
			src: `PTX F
{ x=0; }
 P0@cta 0,gpu 0               | P1@cta 1,gpu 0               ;
 atom.relaxed.gpu.add r0, x, 1 | atom.relaxed.gpu.add r1, x, 1 ;
forall (x == 2)
`,
			verdict: "Ok", states: []string{"x=2;"},
			// 3 x 3 reads-from choices, 3 final writes each.
			candidates: 27, consistent: 2,
		},
		{
			name: "a location and an alias of it",
			src: `PTX F
{ x=0; xa @ generic aliases x; }
 P0@cta 0,gpu 0 ;
 st.weak xa, 3  ;
forall (x == 3 /\ xa == 3)
`,
			verdict: "Ok", states: []string{"x=3; xa=3;"},
			// Both names read the one location: one choice of its final
			// write, of two writes.
			candidates: 2, consistent: 1,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := check(t, spec(t), herd(t, c.src))
			assert.Equal(t, c.verdict, r.Verdict)
			assert.Equal(t, c.states, states(r))
			assert.Equal(t, c.candidates, r.Candidates, "candidates")
			assert.Equal(t, c.consistent, r.Consistent, "consistent")
		})
	}
}

// TestFinalValueOfSharedMemory: a shared location used by several CTAs has
// one copy per CTA, so a condition on it is ambiguous; used by one CTA, it
// is fine.
func TestFinalValueOfSharedMemory(t *testing.T) {
	r := spec(t).Check(nv(t, ".shared s;\nd0.b0.t0 { st [s], 1; }\nd0.b1.t0 { st [s], 2; }\nassert (s == 1) as a;\n"), DefaultOptions())
	require.Error(t, r.Err)
	assert.Contains(t, r.Err.Error(), "s is shared memory of several CTAs, so its final value is ambiguous")

	r = check(t, spec(t), nv(t, ".shared s;\nd0.b0.t0 { st [s], 1; }\nd0.b0.t1 { st [s], 2; }\nassert (s == 1 || s == 2) as a;\npermit (s == 2) as b;\n"))
	assert.Equal(t, []string{"s=1;", "s=2;"}, states(r))
	assert.True(t, r.Assertions[0].Holds)
	assert.True(t, r.Assertions[1].Holds)
}

// TestPastPruneKept: a candidate's constraint on final writes is made anew
// only when the execution, the slots or the final writes' buffer differ
// from those it was made with.
func TestPastPruneKept(t *testing.T) {
	m := spec(t)
	x, y := &execution.Execution{}, &execution.Execution{}
	slots := make([]finalSlot, 2)
	finals, other := make([]int, 2), make([]int, 2)
	kept := func(*rules.Instance) bool { return true }
	code := func(f func(*rules.Instance) bool) uintptr { return reflect.ValueOf(f).Pointer() }
	cases := []struct {
		name   string
		x      *execution.Execution
		slots  []finalSlot
		finals []int
		kept   bool
	}{
		{"the same", x, slots, finals, true},
		{"another execution", y, slots, finals, false},
		{"another buffer of finals", x, slots, other, false},
		{"fewer finals", x, slots, finals[:1], false},
		{"fewer slots", x, slots[:1], finals, false},
	}
	for _, c := range cases {
		var p pastPrune
		p.of(m, x, slots, finals)
		p.past = kept
		got, opt := p.of(m, c.x, c.slots, c.finals)
		assert.NotNil(t, opt, c.name)
		assert.Equal(t, c.kept, code(got) == code(kept), c.name)
	}
}
