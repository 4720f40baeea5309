package rules

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/ptxmm/ptxmm/relations"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestInsertMatchesSet checks random programs through a checkpoint and
// variants of inserted tuples, against instances given the same inputs
// whole: every relation, and Solve's verdict, choice and failures, must be
// the same. The inserted relation in1 is also the order's pairs.
func TestInsertMatchesSet(t *testing.T) {
	orderPrograms(t, 4242, programCount(200), func(t *testing.T, src string, insts []*Instance, inputs []genRel, rng *rand.Rand) {
		for mi, in := range insts {
			vrng := rand.New(rand.NewPCG(rng.Uint64(), 6))
			// The common part: half of in1's pairs and of in0's atoms.
			full1, _ := in.Rel("in1")
			full0, _ := in.Set("in0")
			base1, base0 := subsets(vrng, 2, full1, full0)
			require.NoError(t, in.SetRel("in1", base1))
			require.NoError(t, in.SetSet("in0", base0))
			in.Checkpoint()
			for v := 0; v < 4; v++ {
				if v > 0 {
					require.True(t, in.Rollback())
				}
				extra1, extra0 := subsets(vrng, 3, full1, full0)
				require.NoError(t, in.InsertRel("in1", extra1))
				require.NoError(t, in.InsertSet("in0", extra0))
				want := fullEvaluation(t, in, inputs)
				want1 := base1.Clone()
				want1.UnionWith(extra1)
				want0 := base0.Clone()
				want0.UnionWith(extra0)
				require.NoError(t, want.SetRel("in1", want1))
				require.NoError(t, want.SetSet("in0", want0))
				where := evalModes[mi].name + " variant " + strconv.Itoa(v) + "\nprogram:\n" + src
				if vrng.IntN(3) == 0 {
					// A read before the search takes the insertions in.
					got, _ := in.Rel("in1")
					require.True(t, want1.Equal(got), where)
				}
				var opts []SolveOption
				if vrng.IntN(2) == 0 {
					opts = append(opts, WithoutWitnesses())
				}
				for round := 0; round < 2; round++ {
					res, wres := in.Solve(opts...), want.Solve(opts...)
					require.NoError(t, res.Err)
					require.Equal(t, wres.Consistent, res.Consistent, where)
					if len(opts) == 0 {
						require.Equal(t, len(wres.Failures), len(res.Failures), where)
						for k := range res.Failures {
							assert.Equal(t, wres.Failures[k].Name, res.Failures[k].Name, where)
							assert.Equal(t, wres.Failures[k].Witness, res.Failures[k].Witness, where)
						}
					}
					for _, name := range in.p.model.Names {
						if got, exp := engineTuples(in, name), engineTuples(want, name); !slices.EqualFunc(got, exp, slices.Equal) {
							t.Fatalf("round %d consistent %v: relation %s = %v, with the inputs set whole %v\n%s\ninputs:\n%s\nbase %v %v extra %v %v", round, res.Consistent, name, got, exp, where, dumpInputs(in, inputs), base1, base0, extra1, extra0)
						}
					}
				}
			}
			// Changing an input forgets the checkpoint.
			cur, _ := in.Set("in0")
			other := cur.Clone()
			other.Complement()
			require.NoError(t, in.SetSet("in0", other))
			assert.False(t, in.Rollback())
		}
	})
}

// subsets returns random subsets of r and s, keeping one in k of their
// tuples.
func subsets(rng *rand.Rand, k int, r *relations.Rel, s *relations.Set) (*relations.Rel, *relations.Set) {
	sr, ss := relations.NewRel(r.N()), relations.NewSet(s.N())
	for a, b := range r.All() {
		if rng.IntN(k) == 0 {
			sr.Add(a, b)
		}
	}
	for a := range s.All() {
		if rng.IntN(k) == 0 {
			ss.Add(a)
		}
	}
	return sr, ss
}

// TestInsertWithoutCheckpoint is SetRel with the union, and inserting into
// an order is refused.
func TestInsertWithoutCheckpoint(t *testing.T) {
	p := compileSrc(t, ".decl e(x, y) .input e\n.decl s(x) .input s\nlet t = e+\n.order o over e\n")
	in := newInst(t, p, "a", "b", "c")
	setFacts(t, in, "e", "a,b")
	r := relations.NewRel(3)
	r.Add(1, 2)
	require.NoError(t, in.InsertRel("e", r))
	in.Run()
	assert.Equal(t, []string{"a,b", "a,c", "b,c"}, rows(t, in, "t"))
	assert.False(t, in.Rollback(), "no checkpoint to return to")
	assert.ErrorContains(t, in.InsertRel("o", r), "Solve chooses")
	assert.ErrorContains(t, in.InsertSet("s", relations.NewSet(4)), "domain has 3")
	assert.ErrorContains(t, in.InsertRel("t", r), "not an .input")
}

// TestInsertUpdatesIncrementally checks that a variant costs only its
// insertions: after the checkpoint, the strata the inserted tuples reach
// are updated, not recomputed; on a domain below incrementalMinAtoms they
// are recomputed, and only they.
func TestInsertUpdatesIncrementally(t *testing.T) {
	for _, incremental := range []bool{true, false} {
		t.Run(fmt.Sprintf("incremental=%v", incremental), func(t *testing.T) {
			insertVariants(t, incremental)
		})
	}
}

func insertVariants(t *testing.T, incremental bool) {
	var opts []CompileOption
	if incremental {
		opts = append(opts, withIncrementalMinAtoms(0))
	}
	p := compileSrc(t, ".decl e(x, y) .input e\n.decl f(x, y) .input f\nlet t = e+\nlet u = f ; f\n.check c: acyclic(t)\n", opts...)
	in := newInst(t, p, atomNames(6)...)
	require.Equal(t, !incremental, in.inc.recompute)
	setFacts(t, in, "e", "a0,a1", "a1,a2")
	setFacts(t, in, "f", "a3,a4", "a4,a5")
	in.Checkpoint()
	runs := func() int {
		total := 0
		for _, n := range in.sched.runs {
			total += n
		}
		return total
	}
	in.Run()
	before := runs()
	for _, pair := range [][2]int{{2, 3}, {3, 4}, {2, 0}} {
		require.True(t, in.Rollback())
		r := relations.NewRel(6)
		r.Add(pair[0], pair[1])
		require.NoError(t, in.InsertRel("e", r))
		res := in.Solve()
		assert.Equal(t, pair[1] != 0, res.Consistent, "pair %v", pair)
	}
	if incremental {
		assert.Equal(t, before, runs(), "no stratum ran whole after the checkpoint")
	} else {
		assert.Equal(t, 0, in.sched.runs[stratumOf(t, p, "u")]-1, "u reads no inserted relation and ran once")
		assert.Greater(t, runs(), before, "the strata reading e ran again")
	}
	assert.Equal(t, []string{"a3,a5"}, rows(t, in, "u"))
}

// TestInsertThenProvenance: provenance recorded after a checkpoint and
// insertions is that of one evaluation of the whole inputs, tuple for
// tuple, rank for rank (explanations choose among derivations by rank).
func TestInsertThenProvenance(t *testing.T) {
	orderPrograms(t, 777, 40, func(t *testing.T, src string, insts []*Instance, inputs []genRel, rng *rand.Rand) {
		in := insts[0]
		full1, _ := in.Rel("in1")
		want := fullEvaluation(t, in, inputs)
		base := relations.NewRel(in.n)
		extra := relations.NewRel(in.n)
		for a, b := range full1.All() {
			if rng.IntN(2) == 0 {
				base.Add(a, b)
			} else {
				extra.Add(a, b)
			}
		}
		require.NoError(t, in.SetRel("in1", base))
		in.Checkpoint()
		require.NoError(t, in.InsertRel("in1", extra))
		if rng.IntN(2) == 0 {
			in.Solve()
			want.Solve()
		}
		in.RecordProvenance()
		want.RecordProvenance()
		for r := range in.p.rels {
			require.Equal(t, want.prov.first.entries[r], in.prov.first.entries[r], "relation %s\nprogram:\n%s", in.p.rels[r].name, src)
		}
	})
}

// TestInsertThenHostOrders: orders the host sets after a checkpoint or an
// insertion (as the checker's warm start sets the orders of the last
// consistent candidate) stay as set: taking in the checkpoint or the
// insertion later must not empty them. Every relation is compared with an
// instance given the same inputs and orders whole.
func TestInsertThenHostOrders(t *testing.T) {
	orderPrograms(t, 31337, programCount(100), func(t *testing.T, src string, insts []*Instance, inputs []genRel, rng *rand.Rand) {
		in := insts[0]
		full1, _ := in.Rel("in1")
		full0, _ := in.Set("in0")
		base1, base0 := subsets(rng, 2, full1, full0)
		require.NoError(t, in.SetRel("in1", base1))
		require.NoError(t, in.SetSet("in0", base0))
		in.Checkpoint()
		saved := relations.NewRel(in.n)
		for step := 0; step < 8; step++ {
			extra1, extra0 := subsets(rng, 3, full1, full0)
			switch rng.IntN(3) {
			case 0:
				in.Rollback()
			case 1:
				in.Checkpoint()
			}
			require.NoError(t, in.InsertRel("in1", extra1))
			require.NoError(t, in.InsertSet("in0", extra0))
			if rng.IntN(2) == 0 {
				in.Solve(WithoutWitnesses())
			}
			if rng.IntN(2) == 0 {
				require.NoError(t, in.InsertRel("in1", extra1))
			}
			// The orders of the last step's solution (or none).
			require.NoError(t, in.SetRel("o", saved))
			in.Run()
			want := fullEvaluation(t, in, inputs)
			for _, name := range in.p.model.Names {
				if got, exp := engineTuples(in, name), engineTuples(want, name); !slices.EqualFunc(got, exp, slices.Equal) {
					t.Fatalf("step %d: relation %s = %v, evaluated whole %v\nprogram:\n%s", step, name, got, exp, src)
				}
			}
			got, _ := in.Rel("o")
			require.True(t, saved.Equal(got), "the orders set stay")
			if in.Solve(WithoutWitnesses()).Consistent {
				o, _ := in.Rel("o")
				saved = o.Clone()
			}
		}
	})
}
