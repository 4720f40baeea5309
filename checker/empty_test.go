package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEmptyReasons: a test without a final state says why, and only then;
// herd's Loop flag is set where the unrolling bound cut runs. These tests
// printed "States 0" and a verdict without a word.
func TestEmptyReasons(t *testing.T) {
	cases := []struct {
		name  string
		model *Model
		test  func() []*Result
		kind  string
		text  string
		loop  bool
	}{
		{name: "loop that never exits", kind: EmptyLoop, loop: true, text: "thread P0 has no run that finishes: every path through it is still in a loop at the unrolling bound",
			test: func() []*Result {
				return []*Result{check(t, spec(t), herd(t, "PTX F\n{ x=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n ld.weak r0, x ;\n st.weak x, 1 ;\n goto L ;\nexists (P0:r0 == 0)\n"))}
			}},
		{name: "await that never exits", kind: EmptyHang, text: "every consistent execution hangs: P0: ld.weak r0, x waits forever",
			test: func() []*Result {
				return []*Result{check(t, spec(t), herd(t, "PTX F\n{ x=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n ld.weak r0, x ;\n goto L ;\nexists (P0:r0 == 0)\n"))}
			}},
		{name: "await unrolled without spin reduction", kind: EmptyHang, loop: true, text: "every consistent execution hangs",
			test: func() []*Result {
				o := DefaultOptions()
				o.Exec.SpinReduction = false
				r := spec(t).Check(herd(t, "PTX F\n{ x=0; }\n P0@cta 0,gpu 0 ;\n L: ;\n ld.weak r0, x ;\n goto L ;\nexists (P0:r0 == 0)\n"), o)
				require.NoError(t, r.Err)
				assert.Positive(t, r.Cut)
				return []*Result{r}
			}},
		{name: "loaded value as an address", kind: EmptyAddress, text: `at t.litmus:5:2 ("st.weak [r0], 1") it uses a register loaded from memory as an address`,
			test: func() []*Result {
				return []*Result{check(t, spec(t), herd(t, "PTX A\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n st.weak [r0], 1 ;\nexists (P0:r0 == 0)\n"))}
			}},
		{name: "no write provides the address", kind: EmptyConstraints, text: "no candidate execution",
			test: func() []*Result {
				return []*Result{check(t, spec(t), herd(t, "PTX A\n{ x=0; y=0; P0:r2=y; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\n st.weak [r0], 1 ;\nexists (P0:r0 == 0)\n"))}
			}},
		{name: "restrictions", kind: EmptyRestrictions, text: `"== v" restrictions`,
			test: func() []*Result {
				return []*Result{check(t, spec(t), nv(t, ".global x;\nd0.b0.t0 { st [x], 1; }\nd0.b1.t0 { ld r0, [x] == 7; }\npermit (r0 == 7) as p;\n"))}
			}},
		{name: "forbidden", kind: EmptyForbidden, text: "the model forbids all 2 candidate execution(s)",
			test: func() []*Result {
				return []*Result{check(t, loadModel(t, "testdata", "nothing.dl"), herd(t, "PTX N\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, x ;\nexists (P1:r0 == 0)\n"))}
			}},
		{name: "thin air only", kind: EmptyThinAir, text: "the model allows only the 1 execution(s) whose values are not determined",
			test: func() []*Result {
				return []*Result{check(t, loadModel(t, "testdata", "thin-air-only.dl"), herd(t, "PTX LB+data\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n ld.weak r0, x | ld.weak r1, y ;\n st.weak y, r0 | st.weak x, r1 ;\nexists (P0:r0 == 0)\n"))}
			}},
		{name: "every execution hangs", kind: EmptyHang, text: "every consistent execution hangs: P1: mbarrier.try_wait r0, b waits forever",
			test: func() []*Result {
				src, err := os.ReadFile(filepath.Join("..", "examples", "async", "MBar-never-completes.litmus"))
				require.NoError(t, err)
				return []*Result{check(t, spec(t), herd(t, string(src)))}
			}},
		{name: "states: no reason", test: func() []*Result {
			return []*Result{check(t, spec(t), herd(t, "PTX S\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.weak r0, x ;\nexists (P1:r0 == 0)\n"))}
		}},
		{name: "loop cut but states", loop: true, test: func() []*Result {
			o := DefaultOptions()
			o.Exec.Unroll = 1
			r := spec(t).Check(herd(t, "PTX Spin\n{ x=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n L: | st.weak x, 1 ;\n ld.weak r0, x | ;\n add r1, r1, 1 | ;\n beq r0, 0, L | ;\nexists (P0:r1 == 2)\n"), o)
			require.NoError(t, r.Err)
			return []*Result{r}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, r := range c.test() {
				assert.Equal(t, c.loop, r.Loop, "Loop")
				if c.kind == "" {
					assert.Nil(t, r.Empty)
					assert.NotEmpty(t, r.States)
					continue
				}
				require.NotNil(t, r.Empty)
				assert.Empty(t, r.States)
				assert.Equal(t, c.kind, r.Empty.Kind)
				assert.Contains(t, r.Empty.Text, c.text)
			}
		})
	}
}
