package execution

import (
	"os"
	"path/filepath"
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
}

// TestCountMatchesWalk checks that counting a branch's candidates by the
// choices of its interfaces gives the number walking every completion
// gives, for every combination of runs of the count cases, of random
// tests with loops and of the shipped examples.
func TestCountMatchesWalk(t *testing.T) {
	var tests []*litmus.Test
	for _, src := range countCases {
		tests = append(tests, herd(t, src))
	}
	for seed := uint64(0); seed < 40; seed++ {
		src := families.Random(seed, families.RandomShape{Threads: 3, Locations: 2, Instrs: 3, CTAs: 1, Barriers: true})
		tests = append(tests, herd(t, src))
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
	counted := 0
	for _, tc := range tests {
		a, err := Prepare(tc, opts(2, true))
		require.NoError(t, err, tc.Name)
		a.eachCombo(func(_ int, s *comboSearch) bool {
			st := &Stats{}
			s.st, s.opts, s.payoff = st, &Search{}, &Payoff{}
			s.values, s.chains, s.jump = s.newValueIndex(), s.newChainIndex(), -1
			s.counting, s.leaves = true, 0
			s.search(0)
			s.counting = false
			walked := s.leaves
			require.NoError(t, s.err, tc.Name)
			require.Equal(t, walked, s.countAt(0), "%s, combination %v", tc.Name, s.x.Combo)
			counted += walked
			return true
		})
	}
	require.Positive(t, counted)
}
