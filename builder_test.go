package ptxmm_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// builderDerives are the relations ExecutionBuilder derives.
var builderDerives = []string{"E", "M", "loc", "vaddr", "gaddr", "same_bytes", "sthd", "scta", "sclu", "sgpu", "same_instr", "same_cta_group", "same_shape"}

// describe describes a candidate of a litmus test as a host would: each
// event by its attributes and its sets (read from the catalog's filler),
// and the relations the builder does not derive.
func describe(t *testing.T, x *execution.Execution, inst *rules.Instance) *ptxmm.ExecutionBuilder {
	b := ptxmm.NewExecutionBuilder()
	var sets []string
	for _, e := range catalog.Entries() {
		if e.Arity == 1 && !slices.Contains(builderDerives, e.Name) {
			sets = append(sets, e.Name)
		}
	}
	for i, ev := range x.Events {
		e := ptxmm.Event{Name: fmt.Sprintf("e%d", i)}
		for _, s := range sets {
			if set, err := inst.Set(s); err == nil && set.Has(i) {
				e.Sets = append(e.Sets, s)
			}
		}
		if ev.Thread >= 0 {
			th := x.Test.Threads[ev.Thread]
			e.Thread, e.Host, e.Instr = th.Name, th.Host, fmt.Sprint(ev.Step)
			if !th.Host {
				e.GPU, e.CTA = fmt.Sprint(th.GPU), fmt.Sprint(th.CTA)
				e.Cluster, e.Launch = "cluster "+fmt.Sprint(th.Cluster), fmt.Sprint(th.Launch)
			}
			if ev.Instr != nil && ev.Instr.Op == litmus.OpTcgen05 {
				e.CtaGroup, e.Shape = fmt.Sprint(ev.Instr.CtaGroup), ev.Instr.Shape
			}
			if ev.Instr != nil && ev.Instr.CtaMask.Kind != litmus.OperandNone {
				e.Slice = ev.Elem
			}
		}
		if ev.Kind == execution.KindRead || ev.Kind == execution.KindWrite {
			e.Location = fmt.Sprint("loc ", ev.Loc)
			e.Address = fmt.Sprint("addr ", ev.Addr)
			e.Generic = fmt.Sprint("addr ", x.Layout.Addrs[ev.Addr].Generic)
			e.Offset, e.Size, e.OpOffset, e.OpSize = ev.Off, ev.Size, ev.OpOff, ev.OpSize
		}
		b.Add(e)
	}
	for _, e := range catalog.Entries() {
		if e.Arity != 2 || slices.Contains(builderDerives, e.Name) {
			continue
		}
		r, err := inst.Rel(e.Name)
		if err != nil {
			continue // a relation spec.dl does not read
		}
		for i, j := range r.All() {
			b.Relate(e.Name, i, j)
		}
	}
	return b
}

// TestBuilderMatchesCatalog: for candidates of every shipped litmus test,
// an execution built from the events' attributes has the structural
// relations the catalog fills, and the model evaluates it as the checker
// does.
func TestBuilderMatchesCatalog(t *testing.T) {
	m := defaultChecker(t)
	pm, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	perTest := 40
	if testing.Short() {
		perTest = 4
	}
	evaluated := 0
	err = filepath.WalkDir("examples", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")) {
			return err
		}
		tests, err := litmus.ParseFile(p)
		require.NoError(t, err)
		for _, tc := range tests {
			cands, res := m.Candidates(tc, checker.DefaultOptions(), perTest)
			if res.Err != nil {
				continue // a test the checker refuses (a limit) has no candidates to compare
			}
			for k, c := range cands {
				what := fmt.Sprintf("%s, candidate %d", tc.Name, k)
				inst, err := m.Instance(c)
				require.NoError(t, err, what)
				x, err := describe(t, c.Execution, inst).Build()
				require.NoError(t, err, what)
				for _, name := range builderDerives {
					want, err := inst.Tuples(name)
					if err != nil {
						continue
					}
					require.Equal(t, tupleSet(want), pairsOrSet(x, name), "%s: %s", what, name)
				}
				ev, err := pm.Evaluate(x)
				require.NoError(t, err, what)
				// The choice of final writes, and the last writes a
				// spinning await reads, constrain the orders further.
				if len(c.Finals) == 0 && len(c.Execution.LatestReads) == 0 {
					require.Equal(t, c.Consistent, ev.Consistent, what)
				} else if c.Consistent {
					require.True(t, ev.Consistent, what)
				}
				evaluated++
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, evaluated, 100)
}

// tupleSet prints a relation's tuples ("3" or "3,4"), sorted.
func tupleSet(tu *relations.Tuples) []string {
	out := []string{}
	for t := range tu.All() {
		var cells []string
		for _, a := range t {
			cells = append(cells, fmt.Sprint(a))
		}
		out = append(out, strings.Join(cells, ","))
	}
	slices.Sort(out)
	return out
}

// pairsOrSet prints an execution's set or relation as tupleSet does.
func pairsOrSet(x *ptxmm.Execution, name string) []string {
	out := []string{}
	if s, ok := x.Sets[name]; ok {
		for _, i := range s {
			out = append(out, fmt.Sprint(i))
		}
	}
	for _, p := range x.Relations[name] {
		out = append(out, fmt.Sprintf("%d,%d", p[0], p[1]))
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestBuilderMulticastSlices: the events of one instruction with two
// different nonzero slices (destinations of a multicast load) are not
// same_instr; slice 0 (the issue, the source read) is related to every
// slice; a negative slice is refused.
func TestBuilderMulticastSlices(t *testing.T) {
	b := ptxmm.NewExecutionBuilder()
	p0 := ptxmm.Event{Thread: "P0", GPU: "0", CTA: "0", Instr: "1"}
	add := func(name string, slice int, sets ...string) {
		e := p0
		e.Name, e.Slice, e.Sets = name, slice, sets
		if slices.Contains(sets, "W") || slices.Contains(sets, "R") {
			e.Location = name
		}
		b.Add(e)
	}
	add("issue", 0, "ISSUE")
	add("write0", 1, "W", "ASYNC")
	add("fence0", 1, "PF", "ASYNC")
	add("write1", 2, "W", "ASYNC")
	x, err := b.Build()
	require.NoError(t, err)
	require.Equal(t, []string{"0,0", "0,1", "0,2", "0,3", "1,0", "1,1", "1,2", "2,0", "2,1", "2,2", "3,0", "3,3"}, pairsOrSet(x, "same_instr"))
	b = ptxmm.NewExecutionBuilder()
	add("issue", -1, "ISSUE")
	_, err = b.Build()
	require.ErrorContains(t, err, "a slice numbers a multicast destination from 1")
}
