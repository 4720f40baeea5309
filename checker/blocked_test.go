package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// blockedSrc has P0 wait at a barrier of two that nobody else joins: it is
// blocked in every execution, before it writes r0 (r5 is set by the init
// block). P1 finishes.
func blockedSrc(cond string) string {
	return `PTX Blk
{ x=0; P0:r5=4; }
 P0@cta 0,gpu 0       | P1@cta 0,gpu 0 ;
 bar.cta.sync 0, 0, 2 | st.weak x, 1   ;
 ld.weak r0, x        | ld.weak r1, x  ;
` + cond + "\n"
}

// settledSrc has P0 write x and then wait at a barrier of two that nobody
// else joins: it waits forever, but with nothing left to execute.
func settledSrc(cond string) string {
	return `PTX Settled
{ x=0; }
 P0@cta 0,gpu 0       | P1@cta 0,gpu 0 ;
 ld.weak r0, x        | st.weak x, 1   ;
 bar.cta.sync 0, 0, 2 | ld.weak r1, x  ;
` + cond + "\n"
}

// TestBlockedRegisters: an execution in which a thread waits forever is a
// hang. When a waiting thread still has instructions to execute, the
// execution has no final state: it is counted as a hang and left out of the
// states and the condition, whatever the condition observes. When every
// waiting thread's wait is its last instruction, nothing can change any
// more, and the hang is judged by its state (docs/model.md, "Hangs").
func TestBlockedRegisters(t *testing.T) {
	cases := []struct {
		src        string
		verdict    string
		pos        int
		consistent int
		unjudged   int
		states     []string
	}{
		{blockedSrc("exists (P0:r0 == 0)"), "No", 0, 1, 1, nil},
		{blockedSrc("exists (P0:r0 != 0)"), "No", 0, 1, 1, nil},
		{blockedSrc("exists (~(P0:r0 == 0))"), "No", 0, 1, 1, nil},
		// A forall over no finished execution holds, as herd7 says.
		{blockedSrc("forall (P0:r0 == 1)"), "Ok", 0, 1, 1, nil},
		// Registers that are defined do not make the hang judged: P0 still
		// has a load to execute.
		{blockedSrc("exists (P0:r5 == 4 /\\ P1:r1 == 1)"), "No", 0, 1, 1, nil},
		{blockedSrc("forall (P0:r5 == 4 /\\ P1:r1 == 1)"), "Ok", 0, 1, 1, nil},
		// P0's load and P1's program are done: two settled hangs, one per
		// value P0 reads.
		{settledSrc("exists (P0:r0 == 1 /\\ P1:r1 == 1)"), "Ok", 1, 2, 0, []string{"P0:r0=0; P1:r1=1;", "P0:r0=1; P1:r1=1;"}},
		{settledSrc("forall (P0:r0 == 0)"), "No", 1, 2, 0, nil},
	}
	for _, c := range cases {
		tc := herd(t, c.src)
		t.Run(tc.Name+" "+litmus.ExprString(tc, tc.Condition.Expr), func(t *testing.T) {
			r := check(t, spec(t), tc)
			assert.Equal(t, c.verdict, r.Verdict)
			assert.Equal(t, c.pos, r.Positive)
			assert.Equal(t, c.consistent, r.Consistent)
			assert.Equal(t, c.consistent, r.Hangs, "every consistent execution has a thread waiting forever")
			assert.Equal(t, c.unjudged, r.Unjudged)
			assert.Equal(t, []string{"P0: bar.cta.sync 0, 0, 2"}, r.Stuck)
			if c.states != nil || c.unjudged > 0 {
				assert.Equal(t, c.states, states(r))
			}
		})
	}
}

// TestBlockedRegistersNV: the same in a .test file: the only execution is a
// hang without a value for r0, so assert holds vacuously and permit fails.
func TestBlockedRegistersNV(t *testing.T) {
	src := ".global x;\n" +
		"d0.b0.t0 {\n  bar.sync 1, 2;\n  ld r0, [x];\n}\n" +
		"d0.b0.t1 {\n  st [x], 1;\n}\n" +
		"assert (r0 == 0 || r0 != 0) as either;\n" +
		"permit (!(r0 == 1)) as negated;\n"
	r := check(t, spec(t), nv(t, src))
	assert.Equal(t, []assertionWant{
		{"either", litmus.AssertAlways, true, false},
		{"negated", litmus.AssertSometimes, false, false},
	}, assertionOutcomes(r))
	assert.Empty(t, states(r))
	assert.Equal(t, 1, r.Unjudged)
}

// TestEvalExpr checks the condition evaluator on defined and undefined
// values.
func TestEvalExpr(t *testing.T) {
	obs := []Observable{
		{Thread: 0, Reg: "r0"},
		{Thread: 0, Reg: "r1"},
		{Thread: 1, Reg: "r0"},
		{IsLoc: true, Name: "x"},
	}
	undef := Val{}
	one := Val{Defined: true, V: execution.Int(1)}
	addr0 := Val{Defined: true, V: execution.AddrValue(0)}
	zero := Val{Defined: true, V: execution.Int(0)}
	// P0:r0 = 1, P0:r1 undefined, P1:r0 = address 0, x = 0.
	state := State{one, undef, addr0, zero}

	reg := func(th int, r string) litmus.Term { return litmus.Term{Kind: litmus.TermReg, Thread: th, Reg: r} }
	num := func(v int64) litmus.Term { return litmus.Term{Kind: litmus.TermConst, Value: v} }
	loc := func(n string) litmus.Term { return litmus.Term{Kind: litmus.TermLoc, Loc: n} }
	cmp := func(op string, l, r litmus.Term) litmus.Expr { return &litmus.Cmp{Op: op, L: l, R: r} }
	and := func(l, r litmus.Expr) litmus.Expr { return &litmus.And{L: l, R: r} }
	or := func(l, r litmus.Expr) litmus.Expr { return &litmus.Or{L: l, R: r} }
	not := func(x litmus.Expr) litmus.Expr { return &litmus.Not{X: x} }
	tru := &litmus.BoolLit{Value: true}
	fls := &litmus.BoolLit{Value: false}

	cases := []struct {
		name string
		e    litmus.Expr
		want bool
	}{
		{"defined ==", cmp("==", reg(0, "r0"), num(1)), true},
		{"defined != false", cmp("!=", reg(0, "r0"), num(1)), false},
		{"defined != true", cmp("!=", reg(0, "r0"), num(2)), true},
		{"location", cmp("==", loc("x"), num(0)), true},
		{"constant on the left", cmp("==", num(0), loc("x")), true},
		{"two registers", cmp("==", reg(0, "r0"), reg(0, "r0")), true},
		{"undefined == 0", cmp("==", reg(0, "r1"), num(0)), false},
		{"undefined != 0", cmp("!=", reg(0, "r1"), num(0)), false},
		{"undefined on the right", cmp("!=", num(0), reg(0, "r1")), false},
		{"undefined == itself", cmp("==", reg(0, "r1"), reg(0, "r1")), false},
		{"not undefined == 0", not(cmp("==", reg(0, "r1"), num(0))), true},
		{"undefined or true", or(cmp("==", reg(0, "r1"), num(0)), tru), true},
		{"undefined and true", and(cmp("!=", reg(0, "r1"), num(0)), tru), false},
		{"an address is not the integer of its index", cmp("==", reg(1, "r0"), num(0)), false},
		{"an address differs from its index", cmp("!=", reg(1, "r0"), num(0)), true},
		{"a register the state does not observe is undefined", cmp("==", reg(2, "r0"), num(0)), false},
		{"an unobserved location is undefined", cmp("!=", loc("y"), num(0)), false},
		{"true", tru, true},
		{"false", fls, false},
		{"not false", not(fls), true},
		{"and", and(cmp("==", reg(0, "r0"), num(1)), cmp("==", loc("x"), num(0))), true},
		{"or", or(fls, cmp("==", loc("x"), num(1))), false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, evalExpr(c.e, obs, state))
			assert.Equal(t, c.want, Satisfies(c.e, obs, state))
		})
	}
}

// TestFormatState prints registers and locations herd-style, with "?" for
// undefined values and address names for address values.
func TestFormatState(t *testing.T) {
	tc := herd(t, `PTX F
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 ld.weak r0, x  | ld.weak r1, y  ;
exists (P0:r0 == 0 /\ P1:r1 == 0 /\ x == 0)
`)
	l, err := execution.NewLayout(tc)
	require.NoError(t, err)
	obs, err := observables(tc, l)
	require.NoError(t, err)
	require.Len(t, obs, 3)
	y, _ := l.Addr("y")
	cases := []struct {
		state State
		want  string
	}{
		{State{{Defined: true, V: execution.Int(1)}, {Defined: true, V: execution.Int(-2)}, {Defined: true, V: execution.Int(3)}}, "P0:r0=1; P1:r1=-2; x=3;"},
		{State{{}, {Defined: true, V: execution.AddrValue(y)}, {Defined: true, V: execution.Int(0)}}, "P0:r0=unset; P1:r1=y; x=0;"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, FormatState(tc, l, obs, c.state))
	}
	// Distinct states have distinct keys: undefined is not 0, an address is
	// not its index.
	keys := map[string]bool{}
	for _, s := range []State{
		{{}, {Defined: true, V: execution.Int(0)}, {Defined: true, V: execution.Int(0)}},
		{{Defined: true, V: execution.Int(0)}, {Defined: true, V: execution.Int(0)}, {Defined: true, V: execution.Int(0)}},
		{{Defined: true, V: execution.AddrValue(0)}, {Defined: true, V: execution.Int(0)}, {Defined: true, V: execution.Int(0)}},
	} {
		keys[s.key()] = true
	}
	assert.Len(t, keys, 3)
}

// TestObservablesOrder: registers first (by thread, then name), then
// locations by name, each once.
func TestObservablesOrder(t *testing.T) {
	tc := herd(t, `PTX O
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;
 ld.weak r1, y  | ld.weak r0, x  ;
 ld.weak r0, y  |                ;
exists (y == 0 /\ P1:r0 == 0 /\ P0:r1 == 0 /\ x == 1 /\ P0:r0 == 0 /\ P1:r0 == 1)
`)
	l, err := execution.NewLayout(tc)
	require.NoError(t, err)
	obs, err := observables(tc, l)
	require.NoError(t, err)
	var got []string
	for _, o := range obs {
		if o.IsLoc {
			got = append(got, o.Name)
		} else {
			got = append(got, tc.Threads[o.Thread].Name+":"+o.Reg)
		}
	}
	assert.Equal(t, []string{"P0:r0", "P0:r1", "P1:r0", "x", "y"}, got)
}
