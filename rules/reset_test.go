package rules

import (
	"context"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/ptxmm/ptxmm/relations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestResetMatchesNewInstance uses an instance on random inputs (order
// searches with and without witnesses, a checkpoint with insertions, an
// evaluation stopped by its deadline), resets it, and gives it and a new
// instance other random inputs: the two must then agree on every relation,
// on the order search's result (witnesses and node count included) and on
// how often each stratum was evaluated, which says that evaluation took
// the same course.
func TestResetMatchesNewInstance(t *testing.T) {
	orderPrograms(t, 20261128, programCount(200), func(t *testing.T, src string, insts []*Instance, inputs []genRel, rng *rand.Rand) {
		for mi, in := range insts {
			useInstance(t, in, inputs, rng)
			in.Reset(Limits{})
			if in.search.solve != nil {
				assert.Empty(t, slices.DeleteFunc(slices.Clone(in.search.solve.ways), func(w wayStat) bool { return w == wayStat{} }),
					"the statistics of the ways are forgotten")
			}
			fresh := in.p.NewInstance(in.dom)
			require.Equal(t, fresh.Rollback(), in.Rollback(), "a reset instance has no checkpoint")
			// Some inputs stay as Reset left them, empty.
			var set []genRel
			for _, r := range inputs {
				if rng.IntN(3) > 0 {
					set = append(set, r)
				}
			}
			seed := rng.Uint64()
			for _, x := range []*Instance{in, fresh} {
				require.NoError(t, genInputs(rand.New(rand.NewPCG(seed, 9)), x, set, false))
			}
			for _, opts := range [][]SolveOption{nil, {WithoutWitnesses()}} {
				got, want := in.Solve(opts...), fresh.Solve(opts...)
				require.Equal(t, want, got, "mode %s: Solve after Reset\nprogram:\n%s", evalModes[mi].name, src)
			}
			in.Run()
			fresh.Run()
			for _, name := range in.p.model.Names {
				require.Equal(t, engineTuples(fresh, name), engineTuples(in, name),
					"mode %s: relation %s after Reset\nprogram:\n%s", evalModes[mi].name, name, src)
			}
			require.Equal(t, fresh.Checks(), in.Checks(), "mode %s\nprogram:\n%s", evalModes[mi].name, src)
			require.Equal(t, fresh.sched.runs, in.sched.runs, "mode %s: the strata evaluated\nprogram:\n%s", evalModes[mi].name, src)
		}
	})
}

// useInstance puts an instance through what a check does with it, leaving
// its caches, scratch and statistics full.
func useInstance(t *testing.T, in *Instance, inputs []genRel, rng *rand.Rand) {
	t.Helper()
	in.Solve()
	in.Solve(WithoutWitnesses())
	in.Checkpoint()
	for _, r := range inputs {
		if r.arity == 2 && rng.IntN(2) == 0 {
			extra := randomRel(rng, in.n, 1)
			require.NoError(t, in.InsertRel(r.name, extra))
		}
	}
	in.Solve(WithoutWitnesses())
	in.Rollback()
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	in.Solve(WithContext(ctx))
}

// TestResetCoversEveryField fails when Instance gains a field that Reset
// was not written for: each field must be reset, or kept on purpose.
func TestResetCoversEveryField(t *testing.T) {
	handled := []string{
		// kept: the program, the domain and what depends on them only
		"p", "dom", "n", "universe", "ruleConsts", "tupleRels",
		// kept: the rules compiled flat over the same domain and stores, and
		// their scratch, written before it is read
		"flat", "flatStrata",
		// emptied or reset by Reset
		"stores", "delta", "next", "sched", "rowMark", "cur", "prov",
		"intr", "err", "search", "trace", "bounds", "inc",
		"mem", "quiet",
		// emptied by Reset with the stores it holds
		"block",
		// caches keyed by relation versions, which Reset moves on
		"versions", "empty", "verdicts", "spans",
		// scratch whose contents are written before they are read
		"pool", "views", "relViews",
		// empty between calls of RaisedFlags, which fills and empties it
		"flagOpts",
	}
	assertFields(t, reflect.TypeFor[Instance](), handled, "Instance's fields changed: decide how Reset treats each new one (reset.go) and list it here")
}

// TestScheduleForgetCoversEveryField is TestResetCoversEveryField for the
// stratum schedule, which Reset forgets through stratumSchedule.forget.
func TestScheduleForgetCoversEveryField(t *testing.T) {
	handled := []string{
		// reset by forget
		"dirty", "runs", "cutoff", "nothing",
		// a cache keyed by relation versions, which Reset moves on
		"witnesses",
		// scratch whose contents are written before they are read
		"before",
	}
	assertFields(t, reflect.TypeFor[stratumSchedule](), handled, "stratumSchedule's fields changed: decide how forget treats each new one (schedule.go) and list it here")
}

// TestIncrementalForgetCoversEveryField is TestResetCoversEveryField for
// the incremental state, which Reset forgets through incremental.forgetAll.
func TestIncrementalForgetCoversEveryField(t *testing.T) {
	handled := []string{
		// emptied or reset by forgetAll
		"chg", "changed", "lost", "pending", "touched", "trail", "data", "dataBytes",
		"valid", "hasCheckpoint", "ckptPending", "atBase", "afterInsert", "baseHeld", "searchBase",
		"stage", "isStaged", "staged",
		// scratch whose contents are written before they are read
		"prev", "targets", "cycles",
		// kept: it depends on the domain's size only
		"recompute",
		// kept: the change stores it lists stay allocated
		"made",
	}
	assertFields(t, reflect.TypeFor[incremental](), handled, "incremental's fields changed: decide how forgetAll treats each new one (incr.go) and list it here")
}

// assertFields asserts that the fields of struct type typ are those
// handled, in any order.
func assertFields(t *testing.T, typ reflect.Type, handled []string, msg string) {
	t.Helper()
	var fields []string
	for i := range typ.NumField() {
		fields = append(fields, typ.Field(i).Name)
	}
	slices.Sort(fields)
	handled = slices.Sorted(slices.Values(handled))
	assert.Equal(t, handled, fields, msg)
}

// TestResetForgets covers what the random programs seldom reach: a cached
// verdict of a check on an input that Reset empties, a stratum that
// derives tuples from no input at all, and a checkpoint.
func TestResetForgets(t *testing.T) {
	const src = `.decl e(x: symbol, y: symbol)
.input e
.decl k(x: symbol)
k("k").
.check c: acyclic(e)
`
	p := compileSrc(t, src)
	in := newInst(t, p, "#a", "#b")
	setFacts(t, in, "e", "#a,#b", "#b,#a")
	require.False(t, in.AllHold(), "e has a cycle")
	in.Checkpoint()
	require.NoError(t, in.InsertRel("e", relations.NewRel(in.n)))
	in.Run()

	in.Reset(Limits{})
	assert.False(t, in.Rollback(), "no checkpoint after Reset")
	assert.True(t, in.AllHold(), "e is empty after Reset: the verdict of the check is not the cached one")
	assert.Equal(t, []string{`"k"`}, rows(t, in, "k"), "a stratum reading no input is evaluated again")
}
