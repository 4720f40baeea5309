package ptxmm_test

import (
	"fmt"

	"github.com/ptxmm/ptxmm"
)

// A message-passing test in herd syntax: the release/acquire pair
// synchronizes, so the stale read of x is forbidden.
const mp = `PTX MP
{ x=0; flag=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0           ;
 st.weak x, 1           | ld.acquire.gpu r0, flag  ;
 st.release.gpu flag, 1 | ld.weak r1, x            ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`

// Check a litmus test against the embedded PTX model. The result is plain
// values: the verdict, each final state as herd7 prints it, the counts,
// the flags raised with their witnesses; WriteJSON writes it as the -json
// output does.
func Example() {
	m, err := ptxmm.DefaultModel()
	if err != nil {
		panic(err)
	}
	tests, err := ptxmm.ParseTests("MP.litmus", []byte(mp))
	if err != nil {
		panic(err)
	}
	r := m.Check(tests[0])
	if r.Err != nil {
		panic(r.Err)
	}
	fmt.Println(r.Name, r.Verdict, r.Positive, "of", r.Consistent, "consistent executions satisfy the condition")
	for _, s := range r.States {
		fmt.Println(s)
	}
	// Output:
	// MP No 0 of 3 consistent executions satisfy the condition
	// P1:r0=0; P1:r1=0;
	// P1:r0=0; P1:r1=1;
	// P1:r0=1; P1:r1=1;
}

// Evaluate an execution built by another tool: the MP execution in which
// the acquire reads the release but the data load misses the data store.
// The host describes each event (its thread and where that runs, the
// location it accesses, its catalog sets) and the relations only it knows
// (program order, reads-from); the builder derives the rest (loc, vaddr,
// same_bytes, sthd, scta, sgpu, ...). The causality axiom rejects the
// execution, with a witness.
func ExampleExecutionBuilder() {
	m, err := ptxmm.DefaultModel()
	if err != nil {
		panic(err)
	}
	b := ptxmm.NewExecutionBuilder()
	p0 := ptxmm.Event{Thread: "P0", GPU: "0", CTA: "0"}
	p1 := ptxmm.Event{Thread: "P1", GPU: "0", CTA: "1"}
	event := func(on ptxmm.Event, name, loc string, sets ...string) int {
		on.Name, on.Location, on.Size, on.Sets = name, loc, 4, sets
		return b.Add(on)
	}
	initX := event(ptxmm.Event{}, "init x", "x", "IW", "W", "GEN", "GLOBAL")
	event(ptxmm.Event{}, "init flag", "flag", "IW", "W", "GEN", "GLOBAL")
	stX := event(p0, "P0: st.weak x,1", "x", "W", "ST", "WEAK", "GEN", "GLOBAL")
	stF := event(p0, "P0: st.release.gpu flag,1", "flag", "W", "ST", "REL", "GPU", "GEN", "GLOBAL")
	ldF := event(p1, "P1: ld.acquire.gpu flag", "flag", "R", "LD", "ACQ", "GPU", "GEN", "GLOBAL")
	ldX := event(p1, "P1: ld.weak x", "x", "R", "LD", "WEAK", "GEN", "GLOBAL")
	b.Relate("po", stX, stF)
	b.Relate("po", ldF, ldX)
	b.Relate("rf", stF, ldF)
	b.Relate("rf", initX, ldX)
	x, err := b.Build()
	if err != nil {
		panic(err)
	}
	ev, err := m.Evaluate(x)
	if err != nil {
		panic(err)
	}
	fmt.Println("consistent:", ev.Consistent)
	for _, c := range ev.Checks {
		if !c.Holds {
			fmt.Printf("%s fails at %q\n", c.Name, c.Witness)
		}
	}
	sync, _ := ev.Relation("sync")
	fmt.Println("sync:", sync)
	// Output:
	// consistent: false
	// causality fails at ["P1: ld.weak x"]
	// sync: [[P0: st.release.gpu flag,1 P1: ld.acquire.gpu flag]]
}

// An execution whose base relations leave one out is refused, naming it:
// a forgotten relation is never taken as empty.
func ExampleModel_Evaluate() {
	m, err := ptxmm.DefaultModel()
	if err != nil {
		panic(err)
	}
	b := ptxmm.NewExecutionBuilder()
	w := b.Add(ptxmm.Event{Name: "init x", Sets: []string{"IW", "W", "GEN"}, Location: "x"})
	r := b.Add(ptxmm.Event{Name: "P0: ld.weak x", Sets: []string{"R", "LD", "GEN"}, Location: "x", Thread: "P0", GPU: "0", CTA: "0"})
	b.Relate("rf", w, r)
	x, err := b.Build()
	if err != nil {
		panic(err)
	}
	delete(x.Relations, "sgpu")
	_, err = m.Evaluate(x)
	fmt.Println(err)
	// Output:
	// execution: the model reads sgpu (events of threads on the same GPU, reflexive (host threads are on none)), which the execution leaves out: give it, empty if it relates nothing (ExecutionBuilder derives the structural relations from the events' attributes)
}

// A consistent execution reports the flags it raises, each with a witness:
// two threads of different CTAs write and read x with weak accesses, a
// data race (8.7.1).
func ExampleEvaluation_flags() {
	m, err := ptxmm.DefaultModel()
	if err != nil {
		panic(err)
	}
	b := ptxmm.NewExecutionBuilder()
	initX := b.Add(ptxmm.Event{Name: "init x", Sets: []string{"IW", "W", "GEN"}, Location: "x"})
	b.Add(ptxmm.Event{Name: "P0: st.weak x,1", Sets: []string{"W", "GEN"}, Location: "x", Thread: "P0", GPU: "0", CTA: "0"})
	ld := b.Add(ptxmm.Event{Name: "P1: ld.weak x", Sets: []string{"R", "LD", "GEN"}, Location: "x", Thread: "P1", GPU: "0", CTA: "1"})
	b.Relate("rf", initX, ld)
	x, err := b.Build()
	if err != nil {
		panic(err)
	}
	ev, err := m.Evaluate(x)
	if err != nil {
		panic(err)
	}
	fmt.Println("consistent:", ev.Consistent, "undefined:", ev.Undefined)
	for _, f := range ev.Flags {
		fmt.Printf("flag %s at %q\n", f.Name, f.Witness)
	}
	// Output:
	// consistent: true undefined: false
	// flag data_race at ["P0: st.weak x,1" "P1: ld.weak x"]
}
