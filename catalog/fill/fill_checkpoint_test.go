package fill_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/litmus/families"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// TestFillerCheckpointMatchesFreshFill fills one instance with candidate
// after candidate, as the checker does (from the third candidate of a
// combination of runs on, its reads-from go into the instance's checkpoint
// and are undone for the next), and compares, for each, the verdict of
// the order search and every relation of the model with those of a fresh
// instance filled once. Every other candidate first tries the orders of
// the last consistent one, as the checker's warm start does (SetRel of the
// orders, then AllHold).
func TestFillerCheckpointMatchesFreshFill(t *testing.T) {
	m, err := loader.Load(loader.Source{Name: ptxmm.DefaultModelName, FS: ptxmm.DefaultModelFS()}, loader.Options{})
	require.NoError(t, err)
	cm := m.Model
	for _, src := range []string{families.StoreColumn(100), families.SBRing(34), families.IRIW(17)} {
		tc, err := litmus.ParseHerd("t.litmus", []byte(src))
		require.NoError(t, err)
		a, err := execution.Prepare(tc, execution.DefaultOptions())
		require.NoError(t, err)
		var reused *rules.Instance
		filler := fill.New(cm.Syntax)
		count := 0
		var saved []*relations.Rel
		_, err = a.Enumerate(0, func(x *execution.Execution) bool {
			if reused == nil {
				reused = cm.Program.NewInstance(domain(len(x.Events)))
				require.GreaterOrEqual(t, len(x.Events), 100, "the checkpoint is taken from 100 events on")
			}
			require.NoError(t, filler.Fill(reused, x))
			fresh := cm.Program.NewInstance(domain(len(x.Events)))
			require.NoError(t, fill.New(cm.Syntax).Fill(fresh, x))
			if saved != nil && count%2 == 1 {
				warm := cm.Program.NewInstance(domain(len(x.Events)))
				require.NoError(t, fill.New(cm.Syntax).Fill(warm, x))
				for i, o := range cm.Syntax.Orders {
					require.NoError(t, reused.SetRel(o.Name, saved[i]))
					require.NoError(t, warm.SetRel(o.Name, saved[i]))
				}
				require.Equal(t, warm.AllHold(), reused.AllHold(), "%s candidate %d under the last orders", tc.Name, count)
			}
			got, want := reused.Solve(rules.WithoutWitnesses()), fresh.Solve(rules.WithoutWitnesses())
			if got.Consistent {
				saved = saved[:0]
				for _, o := range cm.Syntax.Orders {
					r, err := reused.Rel(o.Name)
					require.NoError(t, err)
					saved = append(saved, r.Clone())
				}
			}
			require.Equal(t, want.Consistent, got.Consistent, "%s candidate %d", tc.Name, count)
			for _, name := range cm.Program.RelationNames() {
				g, err := reused.Tuples(name)
				require.NoError(t, err)
				w, err := fresh.Tuples(name)
				require.NoError(t, err)
				require.True(t, w.Equal(g), "%s candidate %d: relation %s", tc.Name, count, name)
			}
			count++
			return count < 8
		})
		require.NoError(t, err)
		require.Equal(t, 8, count)
	}
}

func domain(n int) *rules.Domain {
	dom := rules.NewDomain()
	for i := 0; i < n; i++ {
		dom.Intern(rules.Value{Kind: rules.KindHost, Str: fmt.Sprintf("e%d", i)})
	}
	return dom
}
