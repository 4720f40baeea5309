package relations

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func checkIrreflexive(t *testing.T, r *Rel) {
	t.Helper()
	want := -1
	for i := 0; i < r.N(); i++ {
		if r.Has(i, i) {
			want = i
			break
		}
	}
	witness, ok := r.Irreflexive()
	assert.Equal(t, want < 0, ok)
	assert.Equal(t, want, witness)
}

// checkAcyclic verifies the verdict against the reference girth and that a
// reported cycle really is a shortest cycle of r.
func checkAcyclic(t *testing.T, r *Rel) {
	t.Helper()
	girth := refGirth(refFromRel(r))
	cycle, ok := r.Acyclic()
	if girth == 0 {
		assert.True(t, ok)
		assert.Nil(t, cycle)
		return
	}
	require.False(t, ok)
	require.Len(t, cycle, girth, "cycle %v is not shortest", cycle)
	seen := map[int]bool{}
	for k, v := range cycle {
		next := cycle[(k+1)%len(cycle)]
		assert.True(t, r.Has(v, next), "cycle %v lacks edge (%d,%d)", cycle, v, next)
		assert.False(t, seen[v], "cycle %v repeats %d", cycle, v)
		seen[v] = true
		assert.LessOrEqual(t, cycle[0], v, "cycle %v does not start at its minimum", cycle)
	}
}

func TestIrreflexiveRandom(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, _ := randRel(rng, n, d)
		checkIrreflexive(t, r)
		for i := 0; i < n; i++ {
			r.Remove(i, i)
		}
		checkIrreflexive(t, r)
		if n > 0 {
			k := rng.IntN(n)
			r.Add(k, k)
			checkIrreflexive(t, r)
		}
	})
}

func TestAcyclicRandom(t *testing.T) {
	forCases(t, func(t *testing.T, rng *rand.Rand, n int, d float64) {
		r, _ := randRel(rng, n, d)
		checkAcyclic(t, r)
		// Without self loops the shortest cycle has two or more atoms.
		for i := 0; i < n; i++ {
			r.Remove(i, i)
		}
		checkAcyclic(t, r)
		// Keeping only forward pairs makes the relation acyclic.
		for i := 0; i < n; i++ {
			for j := 0; j <= i; j++ {
				r.Remove(i, j)
			}
		}
		checkAcyclic(t, r)
	})
}

func TestAcyclicStructured(t *testing.T) {
	for _, c := range structuredRels() {
		t.Run(c.name, func(t *testing.T) {
			checkIrreflexive(t, c.rel)
			checkAcyclic(t, c.rel)
		})
	}
}

func TestAcyclicExamples(t *testing.T) {
	tests := []struct {
		name  string
		n     int
		pairs []pair
		want  []int
	}{
		{"empty", 3, nil, nil},
		{"self loop wins over longer cycles", 4, []pair{{0, 1}, {1, 0}, {3, 3}}, []int{3}},
		{"two-cycle", 3, []pair{{2, 1}, {1, 2}}, []int{1, 2}},
		{"shorter cycle not through smallest atom", 6,
			[]pair{{0, 1}, {1, 2}, {2, 3}, {3, 0}, {4, 5}, {5, 3}, {3, 4}}, []int{3, 4, 5}},
		{"chord shortens the ring", 5,
			[]pair{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 0}, {3, 1}}, []int{1, 2, 3}},
		{"dag", 4, []pair{{0, 1}, {0, 2}, {1, 3}, {2, 3}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := NewRel(tt.n)
			for _, p := range tt.pairs {
				r.Add(p[0], p[1])
			}
			cycle, ok := r.Acyclic()
			assert.Equal(t, tt.want == nil, ok)
			assert.Equal(t, tt.want, cycle)
		})
	}
}
