package execution

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/litmus/families"
)

// countCases are tests whose abandoned branches are counted, besides the
// shipped examples: exchange loops (the shape of Dartagnan's forward
// progress tests), values flowing from one thread's reads into another's
// constraints, and a bar.red result.
var countCases = []string{
	`PTX exch-loops
{ x=0; }
 P0@cta 0,gpu 0                  | P1@cta 0,gpu 0                  ;
 L0:                             | L1:                             ;
 atom.relaxed.gpu.exch r0, x, 1  | atom.relaxed.gpu.exch r1, x, 0  ;
 bne r0, 0, E0                   | bne r1, 1, E1                   ;
 goto L0                         | goto L1                         ;
 E0:                             | E1:                             ;
                                 | st.relaxed.gpu x, 0             ;
exists (0==0)
`,
	`PTX flow
{ x=0; y=0; z=0; }
 P0@cta 0,gpu 0       | P1@cta 0,gpu 0       | P2@cta 0,gpu 0       ;
 ld.relaxed.gpu r0, x | ld.relaxed.gpu r1, y | st.relaxed.gpu x, 2  ;
 add r2, r0, 1        | bne r1, 3, L         | ld.relaxed.gpu r3, z ;
 st.relaxed.gpu y, r2 | st.relaxed.gpu z, r1 | st.relaxed.gpu y, r3 ;
 ld.relaxed.gpu r4, z | L:                   | st.relaxed.gpu x, 1  ;
exists (P0:r4 == 3)
`,
	`PTX red
{ x=0; P1:q=1; }
 P0@cta 0,gpu 0                    | P1@cta 0,gpu 0                    ;
 ld.relaxed.gpu p, x               | st.relaxed.gpu x, 1               ;
 bar.red.popc.u32 r1, 0, 0, 2, p   | bar.red.popc.u32 r1, 0, 0, 2, q   ;
 bne r1, 2, L                      | ld.relaxed.gpu r2, x              ;
 st.relaxed.gpu x, 2               |                                   ;
 L:                                |                                   ;
exists (0==0)
`,
	`PTX mbar-two-roots
{ b @ mbarrier 2; }
 P0@cta 0,gpu 0    | P1@cta 0,gpu 0    | P2@cta 0,gpu 0     ;
 mbarrier.arrive b | mbarrier.arrive b | mbarrier.init b, 2 ;
 mbarrier.arrive b |                   | mbarrier.arrive b  ;
exists (0==0)
`,
	`PTX mbar-poll
{ b @ mbarrier 3; }
 P0@cta 0,gpu 0    | P1@cta 0,gpu 0    | P2@cta 0,gpu 0                    ;
 mbarrier.arrive b | mbarrier.arrive b | L:                                ;
 mbarrier.arrive b | mbarrier.arrive b | mbarrier.try_wait.parity r0, b, 1 ;
                   |                   | bne r0, 1, L                      ;
exists (0==0)
`,
}

// TestCountMatchesWalk checks that counting a branch's candidates by the
// choices of its interfaces, and by independent parts, gives the number
// walking every completion gives, for every combination of runs of the
// count cases, of random tests with loops, barriers and awaits and of the
// shipped examples (their mbarrier rings among them): from no choice, and
// at every node of the walk, with the memo kept from node to node.
func TestCountMatchesWalk(t *testing.T) {
	var tests []*litmus.Test
	for _, src := range countCases {
		tests = append(tests, herd(t, src))
	}
	for seed := uint64(0); seed < 40; seed++ {
		src := families.Random(seed, families.RandomShape{Threads: 3, Locations: 2, Instrs: 3, CTAs: 1, Barriers: true})
		tests = append(tests, herd(t, src))
		src = families.Random(seed, families.RandomShape{Threads: 3, Locations: 2, Instrs: 3, CTAs: 2, Spins: true, Sizes: true})
		if tc := herd(t, src); walkable(t, tc) {
			tests = append(tests, tc)
		}
	}
	err := filepath.WalkDir(filepath.Join("..", "examples"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		switch {
		case strings.HasSuffix(path, ".litmus"):
			tc, err := litmus.ParseHerd(path, src)
			if err != nil {
				return err
			}
			tests = append(tests, tc)
		case strings.HasSuffix(path, ".test"):
			tcs, err := litmus.ParseNV(path, src)
			if err != nil {
				return err
			}
			tests = append(tests, tcs...)
		}
		return nil
	})
	require.NoError(t, err)
	counted, byParts := 0, 0
	for _, tc := range tests {
		a, err := Prepare(tc, opts(2, true))
		require.NoError(t, err, tc.Name)
		a.eachCombo(func(_ int, s *comboSearch) bool {
			if !s.fixGroupings() {
				return true // searchCombo leaves it out
			}
			for _, parts := range []bool{true, false} {
				st := &Stats{}
				s.st, s.opts, s.payoff = st, &Search{}, &Payoff{}
				s.values, s.chains, s.jump = s.newValueIndex(), s.newChainIndex(), -1
				s.counter = nil
				if len(s.reads) > 0 && !parts {
					s.counter = s.newCounter()
					if s.counter != nil {
						s.counter.parts = nil
					}
				}
				s.counting, s.leaves = true, 0
				s.search(0)
				s.counting = false
				walked := s.leaves
				require.NoError(t, s.err, tc.Name)
				require.Equal(t, walked, s.countAt(0), "%s, combination %v", tc.Name, s.x.Combo)
				if parts && s.counter != nil && s.counter.parts != nil {
					byParts++
				}
				require.Equal(t, walked, walkChecking(t, s, 0), "%s, combination %v", tc.Name, s.x.Combo)
				counted += walked
			}
			return true
		})
	}
	require.Positive(t, counted)
	require.Positive(t, byParts, "no combination was counted by parts")
}

// walkChecking walks the completions of the choices made for reads[:k]
// and returns their candidates, checking at each node that countAt
// counts as many.
func walkChecking(t *testing.T, s *comboSearch, k int) int {
	if k == len(s.reads) {
		s.counting, s.leaves = true, 0
		s.chooseResults(0)
		s.counting = false
		return s.leaves
	}
	n := 0
	for _, w := range s.choicesAt(k) {
		if !s.available(k, w) {
			continue
		}
		mark, ok := s.pick(k, w)
		if ok {
			n += walkChecking(t, s, k+1)
		}
		s.unpick(k, w, mark)
	}
	require.Equal(t, n, s.countAt(k), "%s, combination %v, depth %d", s.a.Test.Name, s.x.Combo, k)
	return n
}

// walkable reports whether walking every choice of reads-from of a test
// is quick: a random test with awaits and partial accesses can have
// billions.
func walkable(t *testing.T, tc *litmus.Test) bool {
	a, err := Prepare(tc, opts(2, true))
	require.NoError(t, err, tc.Name)
	const most = 20_000
	return a.Choices(most) < most
}

// TestChainState checks what the counting memo's key says of the writes
// of an mbarrier's chains as updates and a final poll choose theirs:
// taken, read by the poll, or where the chain leads back to. (Counts
// rarely tell a wrong state apart: for updates that may read the same
// writes, the completions of a choice are as many whatever it is.)
func TestChainState(t *testing.T) {
	var two, poll *comboSearch
	for _, name := range []string{"mbar-two-roots", "mbar-poll"} {
		tc := herd(t, countCases[slices.IndexFunc(countCases, func(s string) bool { return strings.HasPrefix(s, "PTX "+name+"\n") })])
		a, err := Prepare(tc, opts(2, true))
		require.NoError(t, err)
		a.eachCombo(func(_ int, s *comboSearch) bool {
			s.st, s.opts, s.payoff = &Stats{}, &Search{}, &Payoff{}
			s.values, s.chains, s.jump = s.newValueIndex(), s.newChainIndex(), -1
			if name == "mbar-two-roots" {
				two = s
			} else if poll == nil {
				poll = s
			}
			return false
		})
	}
	// mbar-two-roots: updates read at events 1, 3 (P0), 5 (P1) and 8
	// (P2) and write 2, 4, 6 and 9; the initial write 0 and P2's
	// mbarrier.init 7 are the roots.
	s := two
	require.Equal(t, []int{1, 3, 5, 8}, s.reads)
	require.Equal(t, []int{0, 2, 4, 6, 7, 9}, s.choices[0])
	for _, w := range s.choices[0] {
		want := 3 + w
		if w == 0 || w == 7 {
			want = 2
		}
		require.Equal(t, want, s.chainState(w), "write %d before any choice", w)
	}
	m1, ok := s.pick(0, 6) // P0's first update reads P1's update's write
	require.True(t, ok)
	require.Equal(t, 0, s.chainState(6))
	require.Equal(t, 3+6, s.chainState(2), "P0's first write leads back to P1's update, not chosen")
	m2, ok := s.pick(1, 2) // P0's second update reads P0's first
	require.True(t, ok)
	require.Equal(t, 0, s.chainState(2))
	require.Equal(t, 3+6, s.chainState(4))
	m3, ok := s.pick(2, 7) // P1's update reads the mbarrier.init
	require.True(t, ok)
	require.Equal(t, 0, s.chainState(7))
	require.Equal(t, 2, s.chainState(4), "the chain now starts at a root")
	require.Equal(t, 2, s.chainState(0))
	_, ok = s.pick(3, 4)
	require.True(t, ok)
	s.unpick(3, 4, len(s.values.trail))
	s.unpick(2, 7, m3)
	s.unpick(1, 2, m2)
	s.unpick(0, 6, m1)
	require.Equal(t, 2, s.chainState(0))

	// mbar-poll: the final poll (depth 4) reads what P0's first update
	// writes (2).
	s = poll
	require.Equal(t, []int{9}, s.x.FinalPolls)
	m, ok := s.pick(4, 2)
	require.True(t, ok)
	require.Equal(t, 1, s.chainState(2))
	s.unpick(4, 2, m)
	require.Equal(t, 3+2, s.chainState(2))
}
