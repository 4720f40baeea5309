package fill

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
)

// sampleExecutions returns the first candidates of every test of
// examples/ and of the performance suite (where ../shared has it), and of
// a few tests with host threads, kernels, GPUs and clusters, the parts of
// the "same" relations.
func sampleExecutions(t *testing.T) []*execution.Execution {
	t.Helper()
	var tests []*litmus.Test
	walk := func(root string) {
		if _, err := os.Stat(root); err != nil {
			t.Logf("%s: %v (skipped)", root, err)
			return
		}
		require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".litmus") {
				return err
			}
			ts, err := litmus.ParseFile(path)
			if err != nil {
				return nil // examples of errors
			}
			tests = append(tests, ts...)
			return nil
		}))
	}
	walk("../../examples")
	walk("../../../shared/perf/suite-ptx")
	for _, src := range []string{`PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 | P1@cta 0,gpu 0,kernel K1 | P2@cta 0,gpu 0,kernel K0 | P3@cta 1,gpu 0,kernel K1 ;
 cudaLaunchKernel K0, s1 | st x, 1                  | st x, 2                  | st x, 3                  | ld r0, x                 ;
 cudaLaunchKernel K1, s2 | fence.sc.gpu             | ld r1, x                 | fence.sc.sys             | st x, 4                  ;
exists (x == 0)
`, `PTX T
{ x = 0; y = 0; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 | P2@cta 2,cluster 1,gpu 0 | P3@cta 0,cluster 0,gpu 1 ;
 st.relaxed.gpu x, 1      | ld.acquire.gpu r0, x     | st.release.sys y, 1      | ld.relaxed.sys r1, y     ;
 ld.weak r2, y            | st.weak y, 2             | ld.weak r3, x            | st.weak x, 2             ;
exists (x == 0)
`, manyLocations(20)} {
		tc, err := litmus.ParseHerd("t.litmus", []byte(src))
		require.NoError(t, err)
		tests = append(tests, tc)
	}
	require.Greater(t, len(tests), 60, "the examples")
	var xs []*execution.Execution
	for _, tc := range tests {
		a, err := execution.Prepare(tc, execution.DefaultOptions())
		if err != nil {
			continue // tests the checker refuses
		}
		n := 0
		_, err = a.Enumerate(0, func(c *execution.Execution) bool {
			xs = append(xs, c.Clone())
			n++
			return n < 3
		})
		require.NoError(t, err, tc.Name)
	}
	return xs
}

// manyLocations returns a test of two threads over n locations: a store
// to each, then a load of each. Its "same ..." relations over locations
// and instructions have more classes than sameClasses looks through
// before it indexes them (scanClasses).
func manyLocations(n int) string {
	var init, rows strings.Builder
	for i := range n {
		fmt.Fprintf(&init, "x%d = 0; ", i)
		fmt.Fprintf(&rows, " st x%d, 1 | ld r%d, x%d ;\n", i, i, i)
	}
	return fmt.Sprintf("PTX T\n{ %s}\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n%sexists (x0 == 0)\n", init.String(), rows.String())
}

// TestSameFillerMatchesPairs checks each "same ..." relation, filled by
// classes of signatures (same.go), against its definition, sameFunc over
// every pair of events.
func TestSameFillerMatchesPairs(t *testing.T) {
	xs := sampleExecutions(t)
	for _, name := range []string{"loc", "vaddr", "gaddr", "same_bytes", "sthd", "same_instr", "same_cta_group", "same_shape", "scta", "sclu", "sgpu"} {
		same := sameFunc(name)
		related := 0
		for _, x := range xs {
			got := relations.NewRel(len(x.Events))
			fillRel(got, name, x)
			want := relations.NewRel(len(x.Events))
			for i := range x.Events {
				for j := range x.Events {
					if same(x, &x.Events[i], &x.Events[j]) {
						want.Add(i, j)
					}
				}
			}
			require.True(t, got.Equal(want), "%s in %s: %v, want %v", name, x.Test.Name, pairs(x, got), pairs(x, want))
			related += want.Len()
		}
		if name != "same_cta_group" && name != "same_shape" {
			assert.Positive(t, related, "%s relates some events of the samples", name)
		}
	}
}

// TestSetGates checks gateOfSet: every event the test of a gated set
// accepts, over instructions, kinds, orders, scopes and each instruction
// field the tests look at, has a property of the gate; and every catalog
// set filled with the properties of each sample execution is the set
// filled without the gate.
func TestSetGates(t *testing.T) {
	require.Less(t, int(litmus.OpAPI), 64, "a gate has a bit per instruction (OpAPI is the last)")
	// Events over instructions and kinds with each instruction field
	// varied, then over orders and scopes.
	var events []*execution.Event
	for o := litmus.Op(0); o <= litmus.OpAPI; o++ {
		for k := execution.KindRead; k <= execution.KindTask; k++ {
			for _, flag := range []bool{false, true} {
				for v := 0; v < 12; v++ {
					for field := 0; field < 8; field++ {
						in := &litmus.Instr{Op: o, Multimem: flag, Alias: flag, ReadOnly: flag, Shape: ".4x256b"}
						switch field {
						case 0:
							in.GroupOp = litmus.GroupOp(v)
						case 1:
							in.Family = litmus.GroupFamily(v)
						case 2:
							in.Copy = litmus.CopyKind(v)
						case 3:
							in.MBarOp = litmus.MBarOp(v)
						case 4:
							in.Tc = litmus.TcOp(v)
						case 5:
							in.BarRed = litmus.BarRedOp(v)
						case 6:
							in.SpaceQ = litmus.SpaceQual(v)
						}
						events = append(events, &execution.Event{Kind: k, Instr: in, Async: flag, BarSync: flag, BadSize: flag})
					}
				}
			}
			for sem := litmus.SemWeak; sem <= litmus.SemMMIO; sem++ {
				for sc := litmus.ScopeNone; sc <= litmus.ScopeSys; sc++ {
					events = append(events, &execution.Event{Kind: k, Instr: &litmus.Instr{Op: o}, Sem: sem, Scope: sc})
				}
			}
		}
	}
	gated := 0
	for _, e := range catalog.Entries() {
		if e.Arity != 1 {
			continue
		}
		c := setFillerOf(e.Name)
		if c.gate == (eventGate{}) {
			continue
		}
		gated++
		require.False(t, c.init, e.Name)
		require.Nil(t, c.loc, e.Name)
		accepted := 0
		for _, ev := range events {
			if !c.event(ev) {
				continue
			}
			accepted++
			var have eventGate
			have.add(ev)
			require.True(t, c.gate.admits(have), "%s accepts %+v %+v outside its gate %+v", e.Name, *ev, *ev.Instr, c.gate)
		}
		assert.Positive(t, accepted, "%s accepts some event", e.Name)
	}
	assert.Greater(t, gated, 45, "the gated sets")
	all := eventGate{^uint64(0), ^uint64(0), ^uint64(0), ^uint64(0)}
	for _, x := range sampleExecutions(t) {
		have := gateOf(x)
		for _, e := range catalog.Entries() {
			if e.Arity != 1 {
				continue
			}
			c := setFillerOf(e.Name)
			got, want := relations.NewSet(len(x.Events)), relations.NewSet(len(x.Events))
			c.fill(got, x, have)
			c.fill(want, x, all)
			require.True(t, got.Equal(want), "%s in %s", e.Name, x.Test.Name)
		}
	}
}
