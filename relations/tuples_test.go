package relations

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// refTuples keys tuples by their formatted text.
type refTuples map[string][]int

func tupleKey(tuple []int) string { return fmt.Sprint(tuple) }

func (r refTuples) add(tuple []int) bool {
	k := tupleKey(tuple)
	if _, ok := r[k]; ok {
		return false
	}
	r[k] = slices.Clone(tuple)
	return true
}

func (r refTuples) sorted() [][]int {
	out := make([][]int, 0, len(r))
	for _, tup := range r {
		out = append(out, tup)
	}
	slices.SortFunc(out, slices.Compare)
	return out
}

func randTuple(rng *rand.Rand, arity, domain int) []int {
	tup := make([]int, arity)
	for k := range tup {
		tup[k] = rng.IntN(domain)
	}
	return tup
}

func randTuples(rng *rand.Rand, arity, domain, count int) (*Tuples, refTuples) {
	t, ref := NewTuples(arity), refTuples{}
	for range count {
		tup := randTuple(rng, arity, domain)
		assertAdd(t, ref, tup)
	}
	return t, ref
}

func assertAdd(t *Tuples, ref refTuples, tup []int) {
	if t.Add(tup) != ref.add(tup) {
		panic(fmt.Sprintf("Add(%v) disagrees with the reference", tup))
	}
}

func assertTuples(t *testing.T, want refTuples, got *Tuples) {
	t.Helper()
	assert.Equal(t, len(want), got.Len())
	for _, tup := range want {
		assert.True(t, got.Has(tup), "missing %v", tup)
	}
	var all [][]int
	for tup := range got.All() {
		all = append(all, slices.Clone(tup))
	}
	wantSorted := want.sorted()
	if len(wantSorted) == 0 {
		wantSorted = nil
	}
	assert.Equal(t, wantSorted, all)
}

type tuplesCase struct {
	arity, domain, count int
}

var tuplesCases = []tuplesCase{
	{0, 1, 0}, {0, 1, 3},
	{1, 10, 5}, {1, 200, 300},
	{2, 5, 30}, {3, 4, 0}, {3, 4, 40}, {3, 30, 2000}, {5, 3, 500},
}

func forTuplesCases(t *testing.T, body func(t *testing.T, rng *rand.Rand, c tuplesCase)) {
	for _, c := range tuplesCases {
		for seed := range uint64(seedsPerCase) {
			t.Run(fmt.Sprintf("arity=%d/domain=%d/count=%d/seed=%d", c.arity, c.domain, c.count, seed), func(t *testing.T) {
				body(t, rand.New(rand.NewPCG(seed, uint64(c.arity*1000+c.count))), c)
			})
		}
	}
}

func TestTuplesAddHas(t *testing.T) {
	forTuplesCases(t, func(t *testing.T, rng *rand.Rand, c tuplesCase) {
		tu, ref := randTuples(rng, c.arity, c.domain, c.count)
		assert.Equal(t, c.arity, tu.Arity())
		assertTuples(t, ref, tu)
		for range 50 {
			tup := randTuple(rng, c.arity, c.domain+1)
			_, want := ref[tupleKey(tup)]
			assert.Equal(t, want, tu.Has(tup), "Has(%v)", tup)
		}
		// Add copies: changing the caller's slice must not change t.
		tup := randTuple(rng, c.arity, c.domain)
		tu.Add(tup)
		ref.add(tup)
		if c.arity > 0 {
			tup[0] = -7
		}
		assertTuples(t, ref, tu)
	})
}

func TestTuplesCopiesAndClear(t *testing.T) {
	forTuplesCases(t, func(t *testing.T, rng *rand.Rand, c tuplesCase) {
		tu, ref := randTuples(rng, c.arity, c.domain, c.count)
		cl := tu.Clone()
		assert.True(t, cl.Equal(tu))
		cl.Add(slices.Repeat([]int{-1}, c.arity))
		assertTuples(t, ref, tu) // the clone is independent

		cl.Clear()
		assertTuples(t, refTuples{}, cl)
		assert.Equal(t, len(ref) == 0, cl.Equal(tu))
		// A cleared relation is fully usable again.
		tu2, ref2 := randTuples(rng, c.arity, c.domain, c.count)
		cl.UnionWith(tu2)
		assertTuples(t, ref2, cl)
	})
}

func TestTuplesUnionDifference(t *testing.T) {
	forTuplesCases(t, func(t *testing.T, rng *rand.Rand, c tuplesCase) {
		a, aref := randTuples(rng, c.arity, c.domain, c.count)
		b, bref := randTuples(rng, c.arity, c.domain, c.count/2+1)

		union, uref := a.Clone(), refTuples{}
		for _, tup := range aref {
			uref.add(tup)
		}
		for _, tup := range bref {
			uref.add(tup)
		}
		assert.Equal(t, len(uref) != len(aref), union.UnionWith(b))
		assertTuples(t, uref, union)
		assert.False(t, union.UnionWith(b))
		assert.False(t, union.UnionWith(union))

		diff, dref := a.Clone(), refTuples{}
		for k, tup := range aref {
			if _, ok := bref[k]; !ok {
				dref.add(tup)
			}
		}
		diff.DifferenceWith(b)
		assertTuples(t, dref, diff)
		// Adding after a difference exercises the rebuilt index.
		for _, tup := range bref {
			assertAdd(diff, dref, tup)
		}
		assertTuples(t, dref, diff)

		self := a.Clone()
		self.DifferenceWith(self)
		assertTuples(t, refTuples{}, self)

		assert.Equal(t, len(aref) == len(bref) && len(uref) == len(aref), a.Equal(b))
		assert.True(t, union.Equal(union.Clone()))
	})
}

func TestTuplesString(t *testing.T) {
	tu := NewTuples(3)
	assert.Equal(t, "{}", tu.String())
	tu.Add([]int{3, 4, 5})
	tu.Add([]int{0, 1, 2})
	tu.Add([]int{0, 1, 2})
	assert.Equal(t, "{(0,1,2) (3,4,5)}", tu.String())

	nullary := NewTuples(0)
	assert.Equal(t, "{}", nullary.String())
	assert.True(t, nullary.Add(nil))
	assert.False(t, nullary.Add([]int{}))
	assert.Equal(t, "{()}", nullary.String())
}

func TestTuplesStringMatchesAll(t *testing.T) {
	forTuplesCases(t, func(t *testing.T, rng *rand.Rand, c tuplesCase) {
		tu, ref := randTuples(rng, c.arity, c.domain, c.count)
		parts := make([]string, 0, len(ref))
		for _, tup := range ref.sorted() {
			strs := make([]string, len(tup))
			for k, x := range tup {
				strs[k] = fmt.Sprint(x)
			}
			parts = append(parts, "("+strings.Join(strs, ",")+")")
		}
		assert.Equal(t, "{"+strings.Join(parts, " ")+"}", tu.String())
	})
}

func TestTuplesAllStopsEarly(t *testing.T) {
	tu := NewTuples(2)
	for i := range 10 {
		tu.Add([]int{9 - i, i})
	}
	var got [][]int
	for tup := range tu.All() {
		got = append(got, slices.Clone(tup))
		if len(got) == 2 {
			break
		}
	}
	assert.Equal(t, [][]int{{0, 9}, {1, 8}}, got)
}

func TestTuplesZeroValue(t *testing.T) {
	var tu Tuples
	assert.Equal(t, 0, tu.Arity())
	assert.Equal(t, 0, tu.Len())
	assert.False(t, tu.Has(nil))
	assert.True(t, tu.Add(nil))
	assert.True(t, tu.Has(nil))
}
