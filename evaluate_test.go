package ptxmm_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
)

// mpExecution is the MP execution of ExampleExecutionBuilder, release and
// acquire on the flag, with the data load reading data (the initial
// write when stale).
func mpExecution(t *testing.T, stale bool) *ptxmm.Execution {
	t.Helper()
	b := ptxmm.NewExecutionBuilder()
	p0 := ptxmm.Event{Thread: "P0", GPU: "0", CTA: "0"}
	p1 := ptxmm.Event{Thread: "P1", GPU: "0", CTA: "1"}
	event := func(on ptxmm.Event, name, loc string, sets ...string) int {
		on.Name, on.Location, on.Size, on.Sets = name, loc, 4, sets
		return b.Add(on)
	}
	initX := event(ptxmm.Event{}, "init x", "x", "IW", "W", "GEN", "GLOBAL")
	event(ptxmm.Event{}, "init flag", "flag", "IW", "W", "GEN", "GLOBAL")
	stX := event(p0, "st x", "x", "W", "GEN", "GLOBAL")
	stF := event(p0, "st.release flag", "flag", "W", "REL", "GPU", "GEN", "GLOBAL")
	ldF := event(p1, "ld.acquire flag", "flag", "R", "LD", "ACQ", "GPU", "GEN", "GLOBAL")
	ldX := event(p1, "ld x", "x", "R", "LD", "GEN", "GLOBAL")
	b.Relate("po", stX, stF)
	b.Relate("po", ldF, ldX)
	b.Relate("rf", stF, ldF)
	if stale {
		b.Relate("rf", initX, ldX)
	} else {
		b.Relate("rf", stX, ldX)
	}
	x, err := b.Build()
	require.NoError(t, err)
	return x
}

// structuralRelations are the relations ExecutionBuilder derives from the
// events' attributes.
var structuralRelations = []string{"loc", "vaddr", "gaddr", "same_bytes", "sthd", "scta", "sclu", "sgpu", "same_instr", "same_cta_group", "same_shape"}

// TestEvaluateRefusesMissingInputs: leaving out any base relation the
// model reads is an error naming it, whatever the relation; each
// structural relation is read (by spec.dl, or by a declaration added to
// it) and tested. The complete execution evaluates.
func TestEvaluateRefusesMissingInputs(t *testing.T) {
	spec, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	var extra []string
	for _, name := range structuralRelations {
		if !slices.Contains(spec.Inputs(), name) {
			extra = append(extra, fmt.Sprintf(".decl %s(a: event, b: event)\n.input %s\n", name, name))
		}
	}
	m, err := ptxmm.DefaultModel(ptxmm.WithExtraRules(extra...))
	require.NoError(t, err)
	for _, name := range structuralRelations {
		require.Contains(t, m.Inputs(), name)
	}
	ev, err := m.Evaluate(mpExecution(t, true))
	require.NoError(t, err)
	require.False(t, ev.Consistent)
	for _, name := range m.Inputs() {
		t.Run(name, func(t *testing.T) {
			x := mpExecution(t, true)
			_, inSets := x.Sets[name]
			_, inRels := x.Relations[name]
			require.True(t, inSets || inRels, "the builder gives %s", name)
			delete(x.Sets, name)
			delete(x.Relations, name)
			_, err := m.Evaluate(x)
			require.Error(t, err)
			assert.Contains(t, err.Error(), "the model reads "+name+" (")
			assert.Contains(t, err.Error(), "which the execution leaves out")
		})
	}

	// Several left out are named together.
	x := mpExecution(t, true)
	delete(x.Relations, "loc")
	delete(x.Relations, "sgpu")
	_, err = spec.Evaluate(x)
	require.EqualError(t, err, "execution: the model reads 2 base relations the execution leaves out: loc, sgpu; give each, empty if it relates nothing (ExecutionBuilder derives the structural relations from the events' attributes)")
}

// TestEvaluateRefusesBadExecutions: every malformed execution gets an
// error saying what is wrong.
func TestEvaluateRefusesBadExecutions(t *testing.T) {
	m, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	cases := []struct {
		name string
		edit func(x *ptxmm.Execution)
		err  string
	}{
		{"unknown relation", func(x *ptxmm.Execution) { x.Relations["po_loc"] = nil }, "po_loc is not a catalog relation"},
		{"set as relation", func(x *ptxmm.Execution) { x.Relations["ACQ"] = nil }, "ACQ is a set in the catalog: give it in Sets"},
		{"relation as set", func(x *ptxmm.Execution) { x.Sets["po"] = nil }, "po is a relation of 2 columns in the catalog"},
		{"order as relation", func(x *ptxmm.Execution) { x.Relations["co_ms"] = nil }, "co_ms is an order of the model: give it in Orders"},
		{"index out of range", func(x *ptxmm.Execution) { x.Relations["po"] = append(x.Relations["po"], [2]int{0, 99}) }, "po: event index 99 is out of range (there are 6 events)"},
		{"negative index", func(x *ptxmm.Execution) { x.Sets["ACQ"] = []int{-1} }, "ACQ: event index -1 is out of range"},
		{"same name twice", func(x *ptxmm.Execution) { x.Events[1] = x.Events[0] }, `event "init x" is named twice`},
		{"derived relation as order", func(x *ptxmm.Execution) { x.Orders = map[string][][2]int{"co": nil} }, "co is not an order of the model (its orders are fence_sc over fence_sc_pairs, co_ms over co_pairs"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			x := mpExecution(t, true)
			c.edit(x)
			_, err := m.Evaluate(x)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
		})
	}
}

// corr is CoRR: P0 and P1 write x with relaxed stores, P2 reads 2 then 1.
// Coherence decides: with the write of 1 before that of 2 it is forbidden.
func corr(t *testing.T) (b *ptxmm.ExecutionBuilder, w1, w2 int) {
	t.Helper()
	b = ptxmm.NewExecutionBuilder()
	at := func(th, cta, name string, sets ...string) int {
		return b.Add(ptxmm.Event{Name: name, Thread: th, GPU: "0", CTA: cta, Location: "x", Sets: sets})
	}
	b.Add(ptxmm.Event{Name: "init x", Location: "x", Sets: []string{"IW", "W", "GEN"}})
	w1 = at("P0", "0", "st x,1", "W", "RLX", "GPU", "GEN")
	w2 = at("P1", "1", "st x,2", "W", "RLX", "GPU", "GEN")
	r2 := at("P2", "2", "ld x =2", "R", "LD", "RLX", "GPU", "GEN")
	r1 := at("P2", "2", "ld x =1", "R", "LD", "RLX", "GPU", "GEN")
	b.Relate("po", r2, r1)
	b.Relate("rf", w2, r2)
	b.Relate("rf", w1, r1)
	return b, w1, w2
}

// TestEvaluateHostOrders: an order the execution gives is taken as it is,
// not searched; one it leaves out is.
func TestEvaluateHostOrders(t *testing.T) {
	m, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	names := map[string]string{}
	for _, o := range m.Orders() {
		names[o.Name] = o.Over
	}
	require.Equal(t, map[string]string{"co_ms": "co_pairs", "fence_sc": "fence_sc_pairs"}, names)

	b, w1, w2 := corr(t)
	x, err := b.Build()
	require.NoError(t, err)
	ev, err := m.Evaluate(x)
	require.NoError(t, err)
	require.True(t, ev.Consistent, "searched: the write of 2 first")
	co, err := ev.Relation("co_ms")
	require.NoError(t, err)
	require.Equal(t, [][]string{{"st x,2", "st x,1"}}, co)

	b.Order("co_ms", w1, w2)
	x, err = b.Build()
	require.NoError(t, err)
	ev, err = m.Evaluate(x)
	require.NoError(t, err)
	require.False(t, ev.Consistent, "given: the write of 1 first")
	co, err = ev.Relation("co_ms")
	require.NoError(t, err)
	require.Equal(t, [][]string{{"st x,1", "st x,2"}}, co)

	bad := []struct {
		name  string
		pairs [][2]int
		err   string
	}{
		{"both ways", [][2]int{{w1, w2}, {w2, w1}}, `order co_ms relates "st x,1" and "st x,2" both ways`},
		{"neither way", [][2]int{}, `order co_ms must relate "st x,1" and "st x,2" one way or the other (they are a pair of co_pairs)`},
		{"outside its pairs", [][2]int{{w1, w2}, {0, w1}}, `order co_ms relates "init x" to "st x,1", which are not a pair of co_pairs`},
	}
	for _, c := range bad {
		t.Run(c.name, func(t *testing.T) {
			x, err := b.Build()
			require.NoError(t, err)
			x.Orders = map[string][][2]int{"co_ms": c.pairs}
			_, err = m.Evaluate(x)
			require.Error(t, err)
			assert.Contains(t, err.Error(), c.err)
		})
	}
}

// TestEvaluateContext: a cancelled context stops the evaluation.
func TestEvaluateContext(t *testing.T) {
	m, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = m.EvaluateContext(ctx, mpExecution(t, true))
	require.ErrorIs(t, err, context.Canceled)
	_, err = m.Evaluate(mpExecution(t, true), ptxmm.WithTimeout(time.Nanosecond))
	require.ErrorIs(t, err, context.DeadlineExceeded)
	assert.Contains(t, err.Error(), "took longer than the time limit of 1ns; raise it with WithTimeout")
	_, err = m.Evaluate(mpExecution(t, true), ptxmm.WithMaxMemory(1000))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "over the memory limit")
}

// TestLoadModelFS: a shipped variant loads from the embedded library, its
// include of ../spec.dl read there; a cat model too.
func TestLoadModelFS(t *testing.T) {
	v, err := ptxmm.LoadModelFS(ptxmm.LibraryFS(), "variants/ptx-v6.0.dl")
	require.NoError(t, err)
	require.Equal(t, "variants/ptx-v6.0.dl", v.Name())
	same, err := ptxmm.VariantModel("ptx-v6.0")
	require.NoError(t, err)
	require.Equal(t, same.Relations(), v.Relations())

	c, err := ptxmm.LoadModelFS(ptxmm.LibraryFS(), "examples/cat/sc.cat")
	require.NoError(t, err)
	require.NotEmpty(t, c.Checks())

	_, err = ptxmm.LoadModelFS(ptxmm.LibraryFS(), "variants/none.dl")
	require.ErrorContains(t, err, "variants/none.dl: cannot read model: no such file")
}

// TestLoadOptions: extra rules, unchecked axioms and include folders.
func TestLoadOptions(t *testing.T) {
	m, err := ptxmm.DefaultModel(ptxmm.WithUncheckedAxioms("causality"), ptxmm.WithExtraRules("stale(R) :- R(R), rf(W, R), IW(W)."))
	require.NoError(t, err)
	require.NotContains(t, m.Checks(), "causality")
	require.Contains(t, m.Relations(), "stale")
	ev, err := m.Evaluate(mpExecution(t, true))
	require.NoError(t, err)
	require.True(t, ev.Consistent, "without causality, the stale read is allowed")
	stale, err := ev.Relation("stale")
	require.NoError(t, err)
	require.Equal(t, [][]string{{"ld x"}}, stale)

	_, err = ptxmm.DefaultModel(ptxmm.WithUncheckedAxioms("nonesuch"))
	require.ErrorContains(t, err, ".uncheck nonesuch: the model has no check named nonesuch")
	_, err = ptxmm.DefaultModel(ptxmm.WithUncheckedAxioms("no such"))
	require.ErrorContains(t, err, `"no such": not the name of a check`)
	_, err = ptxmm.DefaultModel(ptxmm.WithExtraRules("let = x"))
	require.ErrorContains(t, err, "input#1:1:")

	dir := t.TempDir()
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "lib"), 0o755))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "lib", "base.dl"), []byte(".decl p(a: number)\n.check p_empty: empty(p)\n"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "model.dl"), []byte(".include \"base.dl\"\n"), 0o644))
	_, err = ptxmm.LoadModel(filepath.Join(dir, "model.dl"))
	require.ErrorContains(t, err, `cannot include "base.dl"`)
	inc, err := ptxmm.LoadModel(filepath.Join(dir, "model.dl"), ptxmm.WithIncludeDirs(filepath.Join(dir, "lib")))
	require.NoError(t, err)
	require.Equal(t, []string{"p_empty"}, inc.Checks())
}
