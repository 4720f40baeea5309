package execution

import (
	"fmt"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/payoff"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// searchCases are tests whose candidates the search tests count: one
// where every choice of reads-from is a candidate (counted by a product),
// and ones with atomics, branches and barriers, whose abandoned branches
// are counted by enumerating them.
var searchCases = []struct {
	name, src string
	free      bool
}{
	{"CoWR-3", families.CoWRThreads(3), true},
	{"MP-3", families.MPPayload(3), true},
	{"cas and branch", `PTX NTA
{ x=0; y=0; }
 P0@cta 0,gpu 0                   | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       ;
 atom.relaxed.gpu.cas r0, x, 1, 2 | ld.relaxed.gpu r1, x | ld.relaxed.gpu r2, y ;
                                  | bne r1, 2, L1        | st.relaxed.gpu x, r2 ;
                                  | st.relaxed.gpu y, 1  |                      ;
                                  | L1:                  |                      ;
exists (P0:r0 == 1 /\ P1:r1 == 2)
`, false},
	{"barrier", `PTX MPbar
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 0,gpu 0 | P2@cta 1,gpu 0 ;
 st.weak x, 1   | ld.weak r0, y  | st.weak y, 2   ;
 bar.cta.sync 0 | bar.cta.sync 0 | ld.weak r0, x  ;
 st.weak y, 1   | ld.weak r1, x  |                ;
exists (P1:r0 == 1)
`, false},
}

// rfKey identifies a candidate by its reads-from and barrier groups.
func rfKey(x *Execution) string { return fmt.Sprint(x.RF, x.BarGroups) }

// TestSearchPrune checks a search that abandons branches: it yields the
// candidates of the full enumeration that no abandoned branch contains,
// in the same order, and counts the others exactly.
func TestSearchPrune(t *testing.T) {
	for _, c := range searchCases {
		t.Run(c.name, func(t *testing.T) {
			a := prepare(t, herd(t, c.src), DefaultOptions())
			var full []string
			fst, err := a.Enumerate(0, func(x *Execution) bool { full = append(full, rfKey(x)); return true })
			require.NoError(t, err)
			// Abandon every partial candidate whose last chosen read
			// reads an initial write.
			var cut [][]int
			reject := func(x *Execution) bool {
				last := -1
				for i, w := range x.RF {
					if w >= 0 {
						last = i
					}
				}
				return last >= 0 && x.Events[x.RF[last]].Thread < 0
			}
			var got []string
			pruned := 0
			st, err := a.Search(Search{
				Prune: func(x *Execution) bool {
					if reject(x) {
						cut = append(cut, slices.Clone(x.RF))
						return true
					}
					return false
				},
				Pruned: func(x *Execution, n int) { pruned += n },
			}, func(x *Execution) bool { got = append(got, rfKey(x)); return true })
			require.NoError(t, err)
			require.NotEmpty(t, cut, "the search abandons branches")
			assert.Equal(t, pruned, st.Pruned)
			assert.Equal(t, fst.Candidates, st.Candidates+st.Pruned, "every candidate is yielded or counted")
			// What is yielded is the full enumeration less the abandoned
			// branches, in order.
			var want []string
			_, err = a.Enumerate(0, func(x *Execution) bool {
				for _, rf := range cut {
					if extends(x.RF, rf) {
						return true
					}
				}
				want = append(want, rfKey(x))
				return true
			})
			require.NoError(t, err)
			assert.Equal(t, want, got)
			cs := a.newComboSearchFirst()
			assert.Equal(t, c.free, cs.isFree())
		})
	}
}

// extends reports whether full reads-from rf extends partial.
func extends(rf, partial []int) bool {
	for i, w := range partial {
		if w >= 0 && rf[i] != w {
			return false
		}
	}
	return true
}

// newComboSearchFirst builds the first combination of runs of a.
func (a *Analysis) newComboSearchFirst() *comboSearch {
	var first *comboSearch
	a.eachCombo(func(_ int, s *comboSearch) bool { first = s; return false })
	return first
}

// TestSearchLimitCountsBuilt: the bound on candidates counts those the
// search builds; the candidates of abandoned branches are counted without
// being built and cost nothing against it.
func TestSearchLimitCountsBuilt(t *testing.T) {
	a := prepare(t, herd(t, families.CoWRThreads(3)), DefaultOptions()) // 64 candidates
	all := Search{Prune: func(*Execution) bool { return true }, MaxCandidates: 1}
	st, err := a.Search(all, func(*Execution) bool { return true })
	require.NoError(t, err)
	assert.Equal(t, 64, st.Candidates+st.Pruned)
	assert.LessOrEqual(t, st.Candidates, 1)
	none := Search{MaxCandidates: 63}
	_, err = a.Search(none, func(*Execution) bool { return true })
	var limit *LimitError
	require.ErrorAs(t, err, &limit)
	none.MaxCandidates = 64
	st, err = a.Search(none, func(*Execution) bool { return true })
	require.NoError(t, err)
	assert.Equal(t, 64, st.Candidates)
}

// TestSplitCoversSearch checks that the parts of a split search are the
// whole search: together they yield every candidate once, in order.
func TestSplitCoversSearch(t *testing.T) {
	for _, c := range searchCases {
		a := prepare(t, herd(t, c.src), DefaultOptions())
		var whole, parts []string
		_, err := a.Enumerate(0, func(x *Execution) bool { whole = append(whole, rfKey(x)); return true })
		require.NoError(t, err)
		for _, per := range []int{1, 2, 5, 1000} {
			parts = parts[:0]
			for _, p := range a.Split(per) {
				_, err := a.Search(Search{Part: &p}, func(x *Execution) bool { parts = append(parts, rfKey(x)); return true })
				require.NoError(t, err)
			}
			require.Equal(t, whole, parts, "%s split into parts of %d", c.name, per)
		}
		assert.GreaterOrEqual(t, a.Choices(1<<30), len(whole), "Choices bounds the candidates")
	}
}

// TestSplitGroupsCombinations checks that a test with many small
// combinations of runs (three unrolled polling loops) and one bigger one
// is split into about as many parts as asked, not into as many for each
// combination, and that the parts are still the whole search, in order.
func TestSplitGroupsCombinations(t *testing.T) {
	tc := herd(t, `PTX polls
{ x=0; y=0; z=0; }
 P0@cta 0,gpu 0       | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       | P3@cta 0,gpu 0       ;
 st.relaxed.gpu x, 1  | L1:                  | L2:                  | L3:                  ;
 st.relaxed.gpu y, 1  | ld.relaxed.gpu r0, x | ld.relaxed.gpu r0, y | ld.relaxed.gpu r0, z ;
 st.relaxed.gpu z, 1  | bne r0, 1, L1        | bne r0, 1, L2        | bne r0, 1, L3        ;
 st.relaxed.gpu x, 2  | ld.relaxed.gpu r1, y | ld.relaxed.gpu r1, z | ld.relaxed.gpu r1, x ;
exists (0==0)
`)
	a := prepare(t, tc, opts(2, false))
	combos := 0
	a.eachCombo(func(int, *comboSearch) bool { combos++; return true })
	require.Greater(t, combos, 8, "the test should have many combinations of runs")
	var whole []string
	_, err := a.Enumerate(0, func(x *Execution) bool { whole = append(whole, rfKey(x)); return true })
	require.NoError(t, err)
	for _, per := range []int{2, 4, 8} {
		parts := a.Split(per)
		assert.Less(t, len(parts), combos, "split into %d", per)
		grouped, split := false, false
		var got []string
		for _, p := range parts {
			grouped = grouped || len(p.Combos) > 1
			split = split || len(p.Prefix) > 0
			_, err := a.Search(Search{Part: &p}, func(x *Execution) bool { got = append(got, rfKey(x)); return true })
			require.NoError(t, err)
		}
		assert.True(t, grouped, "some small combinations share a part (%d)", per)
		if per == 8 {
			assert.True(t, split, "the biggest combination is split (%d)", per)
		}
		require.Equal(t, whole, got, "split into %d", per)
	}
}

// TestPayoff checks where the search keeps asking: everywhere at first,
// then only at depths where asking leaves candidates out, and now and
// then at the others.
func TestPayoff(t *testing.T) {
	var p Payoff
	asked := func(d int) int {
		n := 0
		for i := 0; i < 320; i++ {
			if p.Worth(d) {
				n++
				saved := 0
				if d == 0 {
					saved = 3 // pays: three candidates left out per question
				}
				p.Record(d, saved)
			}
		}
		return n
	}
	assert.Equal(t, 320, asked(0))
	// The first 16 visits, then the visits numbered by a power of two:
	// 32, 64, 128 and 256.
	pol := payoff.Prune.Policy()
	require.Zero(t, pol.Every, "retried at powers of two")
	assert.Equal(t, int(pol.Warmup)+4, asked(1))
}

// TestSearchNogoods: a branch containing a learned nogood is abandoned
// without asking, complete candidates included, and counted exactly.
func TestSearchNogoods(t *testing.T) {
	for _, c := range searchCases {
		t.Run(c.name, func(t *testing.T) {
			a := prepare(t, herd(t, c.src), DefaultOptions())
			full, fst := enumerateAll(t, a)
			// The nogood: the first two reads' choices in the last
			// candidate (a complete candidate when there is one read).
			last := full[len(full)-1]
			var reads []int
			for r, w := range last.RF {
				if w >= 0 && len(reads) < 2 {
					reads = append(reads, r)
				}
			}
			nogoods := &Nogoods{}
			learned := false
			var got []string
			st, err := a.Search(Search{
				Prune: func(x *Execution) bool {
					if !learned && slices.Equal(x.Combo, last.Combo) {
						// Learned at the first question in the last
						// candidate's combination of runs.
						nogoods.Add(last, reads)
						learned = true
					}
					require.False(t, learned && extends(x.RF, restrict(last.RF, reads)), "asked about a branch a nogood covers")
					return false
				},
				Nogoods: nogoods,
			}, func(x *Execution) bool { got = append(got, rfKey(x)); return true })
			require.NoError(t, err)
			var want []string
			for _, x := range full {
				if !slices.Equal(x.Combo, last.Combo) || !extends(x.RF, restrict(last.RF, reads)) {
					want = append(want, rfKey(x))
				}
			}
			assert.Equal(t, want, got)
			assert.Equal(t, fst.Candidates, st.Candidates+st.Pruned)
			assert.Positive(t, st.Pruned)
		})
	}
}

// TestSearchBackjumps: a set learned from a complete candidate that
// leaves out its last reads holds for every other choice of them, so the
// search backs up to the set's deepest read: no further candidate with
// the set is yielded, and those it leaves out are counted.
func TestSearchBackjumps(t *testing.T) {
	for _, c := range searchCases {
		t.Run(c.name, func(t *testing.T) {
			a := prepare(t, herd(t, c.src), DefaultOptions())
			full, fst := enumerateAll(t, a)
			nogoods := &Nogoods{}
			var set []int // the first read of the first candidate, once learned
			var combo []int
			var got []string
			st, err := a.Search(Search{
				// Prune is never asked to reject anything: what is left
				// out, the set leaves out.
				Prune:   func(*Execution) bool { return false },
				Nogoods: nogoods,
			}, func(x *Execution) bool {
				got = append(got, rfKey(x))
				if set == nil {
					for r, w := range x.RF {
						if w >= 0 {
							set, combo = []int{r}, slices.Clone(x.Combo)
							break
						}
					}
					require.NotNil(t, set, "a candidate with a read")
					// Learned at the candidate, as the checker learns
					// from a rejected one.
					nogoods.Add(x, set)
				}
				return true
			})
			require.NoError(t, err)
			first := full[0]
			var want []string
			for i, x := range full {
				if i == 0 || !slices.Equal(x.Combo, combo) || !extends(x.RF, restrict(first.RF, set)) {
					want = append(want, rfKey(x))
				}
			}
			assert.Equal(t, want, got)
			assert.Less(t, len(got), len(full), "the set leaves candidates out")
			assert.Equal(t, fst.Candidates, st.Candidates+st.Pruned)
		})
	}
}

// enumerateAll returns every candidate of the full enumeration, in its
// order, with its statistics.
func enumerateAll(t *testing.T, a *Analysis) ([]*Execution, Stats) {
	t.Helper()
	var full []*Execution
	st, err := a.Enumerate(0, func(x *Execution) bool { full = append(full, x.Clone()); return true })
	require.NoError(t, err)
	return full, st
}

// restrict keeps rf's writes for reads, -1 elsewhere.
func restrict(rf, reads []int) []int {
	out := make([]int, len(rf))
	for i := range out {
		out[i] = -1
	}
	for _, r := range reads {
		out[r] = rf[r]
	}
	return out
}

// TestSearchConfirmsHints: a set learned in one combination of runs is a
// hint for the others, where it names the same reads and writes by their
// places in the program. The search asks Confirm about it there, with the
// reads it names; when the host confirms it, the branches holding it are
// abandoned and counted, and when it does not, nothing is left out.
func TestSearchConfirmsHints(t *testing.T) {
	src := `PTX hints
{ x=0; y=0; }
 P0@cta 0,gpu 0       | P1@cta 1,gpu 0      ;
 ld.relaxed.gpu r0, x | st.relaxed.gpu x, 1 ;
 ld.relaxed.gpu r1, y | st.relaxed.gpu y, 1 ;
 ld.relaxed.gpu r3, y |                     ;
 beq r3, 1, L         |                     ;
 ld.relaxed.gpu r2, x |                     ;
 L:                   |                     ;
exists (P0:r0 == 1)`
	a := prepare(t, herd(t, src), DefaultOptions())
	full, fst := enumerateAll(t, a)
	// holds reports whether x's first read of P0 reads P1's write.
	holds := func(x *Execution) bool {
		r := x.ThreadStart[0]
		return x.RF[r] >= 0 && !x.Events[x.RF[r]].IsInit()
	}
	for _, confirm := range []bool{true, false} {
		nogoods := &Nogoods{}
		var first []int
		var confirmed [][]int
		var got []*Execution
		st, err := a.Search(Search{
			Prune: func(x *Execution) bool {
				if first == nil && holds(x) {
					first = slices.Clone(x.Combo)
					nogoods.Add(x, []int{x.ThreadStart[0]})
				}
				return false
			},
			Confirm: func(x *Execution, reads []int) bool {
				require.NotEqual(t, first, x.Combo, "a set is not confirmed where it was learned")
				confirmed = append(confirmed, slices.Clone(reads))
				require.Equal(t, []int{x.ThreadStart[0]}, reads, "the hint names P0's first read")
				return confirm
			},
			Nogoods: nogoods,
		}, func(x *Execution) bool { got = append(got, x.Clone()); return true })
		require.NoError(t, err)
		require.NotNil(t, first, "a question holds P0's read of P1's write")
		require.NotEmpty(t, confirmed, "the hint is asked about in another combination")
		assert.Equal(t, fst.Candidates, st.Candidates+st.Pruned)
		others := func(xs []*Execution) (all, holding int) {
			for _, x := range xs {
				if !slices.Equal(x.Combo, first) {
					all++
					if holds(x) {
						holding++
					}
				}
			}
			return all, holding
		}
		fullAll, fullHolding := others(full)
		gotAll, gotHolding := others(got)
		require.Positive(t, fullHolding)
		if confirm {
			assert.Zero(t, gotHolding, "confirmed: left out in the other combinations")
			assert.Equal(t, fullAll-fullHolding, gotAll)
		} else {
			assert.Equal(t, fullAll, gotAll, "not confirmed: nothing left out")
		}
	}
}

// TestSearchCombos: a search given the indices of some combinations of
// runs yields the candidates of those combinations only, in the order of
// the whole search, with the filter still asked; ComboIndex numbers a
// combination as Part.Combo does.
func TestSearchCombos(t *testing.T) {
	for _, c := range searchCases {
		t.Run(c.name, func(t *testing.T) {
			a := prepare(t, herd(t, c.src), DefaultOptions())
			type cand struct {
				combo int
				key   string
			}
			var all []cand
			combos := 0
			_, err := a.Search(Search{}, func(x *Execution) bool {
				k := a.ComboIndex(x.Combo)
				all = append(all, cand{k, rfKey(x)})
				combos = max(combos, k+1)
				return true
			})
			require.NoError(t, err)
			for k := range combos {
				got := make([]int, len(a.Runs))
				a.comboOf(k, got)
				require.Equal(t, k, a.ComboIndex(got), "ComboIndex inverts comboOf")
			}
			// Every other combination, of which the filter refuses the
			// first.
			var only []int
			for k := 0; k < combos; k += 2 {
				only = append(only, k)
			}
			filter := func(runs []*Run) bool {
				for t, r := range runs {
					if r != a.Runs[t][0] {
						return true
					}
				}
				return false
			}
			var want, got []cand
			for _, x := range all {
				if x.combo%2 == 0 && x.combo != 0 {
					want = append(want, x)
				}
			}
			_, err = a.Search(Search{Combos: only, Filter: filter}, func(x *Execution) bool {
				got = append(got, cand{a.ComboIndex(x.Combo), rfKey(x)})
				return true
			})
			require.NoError(t, err)
			assert.Equal(t, want, got)
			n := 0
			_, err = a.Search(Search{Combos: []int{}}, func(*Execution) bool { n++; return true })
			require.NoError(t, err)
			assert.Zero(t, n, "an empty list searches nothing")
		})
	}
}
