package ptxmm_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/internal/loader"
)

// TestHostVerdicts checks host-side synchronization end to end, beyond the
// examples/host pairs: each case is a test with its verdict and, for a
// forbidden outcome, the API rules its explanation must name.
func TestHostVerdicts(t *testing.T) {
	cases := []struct {
		name, src string
		verdict   string
		edges     []string // relations the explanation of the forbidden outcome shows
	}{
		{"API synchronization preserves the surface proxy (8.9.4)", `PTX T
{ x = 0; s @ surface aliases x; }
 H0@host                  | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1  | sust s, 1                ;
 cudaStreamSynchronize s1 |                          ;
 ld r0, x                 |                          ;
exists (H0:r0 != 1)
`, "No", []string{"sync_kernel", "sync_return"}},
		{"API synchronization preserves aliases across kernels", `PTX T
{ x = 0; xa @ generic aliases x; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 | P1@cta 0,gpu 0,kernel K1 ;
 cudaLaunchKernel K0, s1 | st xa, 1                 | ld r0, x                  ;
 cudaLaunchKernel K1, s1 |                          |                           ;
exists (P1:r0 != 1)
`, "No", []string{"sync_stream"}},
		{"a graph's empty node joins its dependencies", `PTX T
{ x = 0; y = 0; }
 H0@host                          | P0@cta 0,gpu 0,kernel A | P1@cta 1,gpu 0,kernel B | P2@cta 2,gpu 0,kernel C ;
 cudaGraphAddKernelNode g, A      | st x, 1                 | st y, 1                 | ld r0, x                ;
 cudaGraphAddKernelNode g, B      |                         |                         | ld r1, y                ;
 cudaGraphAddEmptyNode g, j, A, B |                         |                         |                         ;
 cudaGraphAddKernelNode g, C, j   |                         |                         |                         ;
 cudaGraphLaunch g                |                         |                         |                         ;
exists (P2:r0 != 1 \/ P2:r1 != 1)
`, "No", []string{"sync_graph"}},
		{"the graph completes after its sink nodes", `PTX T
{ x = 0; }
 H0@host                      | P0@cta 0,gpu 0,kernel A | P1@cta 1,gpu 0,kernel B ;
 cudaGraphAddKernelNode g, A  | st x, 1                 | ld r0, x                ;
 cudaGraphLaunch g, s1        |                         |                         ;
 cudaLaunchKernel B, s1       |                         |                         ;
exists (P1:r0 != 1)
`, "No", []string{"sync_graph", "sync_stream"}},
		{"an event waited on across devices", `PTX T
{ x = 0; }
 H0@host                   | P0@cta 0,gpu 0,kernel K0 | P1@cta 0,gpu 1,kernel K1 ;
 cudaLaunchKernel K0, s1   | st x, 1                  | ld r0, x                  ;
 cudaEventRecord e, s1     |                          |                           ;
 cudaSetDevice 1           |                          |                           ;
 cudaStreamWaitEvent s2, e |                          |                           ;
 cudaLaunchKernel K1, s2   |                          |                           ;
exists (P1:r0 != 1)
`, "No", []string{"sync_event"}},
		{"the most recent record counts", `PTX T
{ x = 0; y = 0; }
 H0@host                   | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K1 | P2@cta 2,gpu 0,kernel K2 ;
 cudaLaunchKernel K0, s1   | st x, 1                  | st y, 1                   | ld r0, x                  ;
 cudaEventRecord e, s1     |                          |                           | ld r1, y                  ;
 cudaStreamWaitEvent s2, e |                          |                           |                           ;
 cudaLaunchKernel K1, s1   |                          |                           |                           ;
 cudaEventRecord e, s1     |                          |                           |                           ;
 cudaLaunchKernel K2, s2   |                          |                           |                           ;
exists (P2:r0 == 1 /\ P2:r1 == 0)
`, "Ok", nil},
		{"cudaEventSynchronize waits for the record only", `PTX T
{ x = 0; y = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K1 ;
 cudaLaunchKernel K0, s1 | st x, 1                  | st y, 1                   ;
 cudaEventRecord e, s1   |                          |                           ;
 cudaLaunchKernel K1, s1 |                          |                           ;
 cudaEventSynchronize e  |                          |                           ;
 ld r0, x                |                          |                           ;
 ld r1, y                |                          |                           ;
exists (H0:r0 != 1 \/ H0:r1 == 0)
`, "Ok", nil},
		{"cudaEventSynchronize sees what precedes the record", `PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1 | st x, 1                  ;
 cudaEventRecord e, s1   |                          ;
 cudaEventSynchronize e  |                          ;
 ld r0, x                |                          ;
exists (H0:r0 != 1)
`, "No", []string{"sync_stream", "sync_return"}},
		{"the per-thread stream synchronizes with the legacy stream", `PTX T
{ x = 0; }
 H0@host                                  | P0@cta 0,gpu 0,kernel K0 | P1@cta 0,gpu 0,kernel K1 ;
 cudaLaunchKernel K0, cudaStreamPerThread | st x, 1                  | ld r0, x                  ;
 cudaLaunchKernel K1                      |                          |                           ;
exists (P1:r0 != 1)
`, "No", []string{"sync_legacy"}},
		{"two threads of one kernel are not ordered by the launch", `PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1 | st x, 1                  | ld r0, x                  ;
exists (P1:r0 == 0)
`, "Ok", nil},
		{"cumulativity through a second host thread", `PTX T
{ x = 0; flag = 0; }
 H0@host                  | H1@host                  | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1  | L:                       | st x, 1                  ;
 cudaStreamSynchronize s1 | ld.acquire.sys r0, flag  |                          ;
 st.release.sys flag, 1   | bne r0, 1, L             |                          ;
                          | ld r1, x                 |                          ;
exists (H1:r1 != 1)
`, "No", []string{"sync_kernel", "sync_return"}},
		{"a device thread's .sys atomic and the host's lose no update when native", `PTX T
{ x = 0; cudaDevAttrHostNativeAtomicSupported = 1; }
 H0@host                  | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1  | atom.exch.sys r0, x, 1   ;
 atom.exch.sys r1, x, 2   |                          ;
exists (P0:r0 == 0 /\ H0:r1 == 0)
`, "No", nil},
		{"a device thread's .sys atomic and the host's may both read the old value", `PTX T
{ x = 0; }
 H0@host                  | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1  | atom.exch.sys r0, x, 1   ;
 atom.exch.sys r1, x, 2   |                          ;
exists (P0:r0 == 0 /\ H0:r1 == 0)
`, "Ok", nil},
		{"a host polls with setp and a guarded bra; its atomics default to .sys", `PTX T
{ x = 0; }
 H0@host                  | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1  | st x, 1                  ;
 L:                       |                          ;
 cudaStreamQuery r0, s1   |                          ;
 setp.eq.u32 p, r0, 0     |                          ;
 @p bra L                 |                          ;
 ld.acquire r1, x         |                          ;
exists (H0:r1 != 1)
`, "No", []string{"sync_query"}},
		{"an executable graph holds the nodes added before cudaGraphInstantiate", `PTX T
{ x = 0; }
 H0@host                        | P0@cta 0,gpu 0,kernel A | P1@cta 1,gpu 0,kernel B ;
 cudaGraphCreate g              | st x, 1                 | ld r0, x                ;
 cudaGraphAddKernelNode g, A    |                         |                         ;
 cudaGraphAddKernelNode g, B, A |                         |                         ;
 cudaGraphInstantiate ge, g, 0  |                         |                         ;
 cudaGraphLaunch ge, s1         |                         |                         ;
exists (P1:r0 != 1)
`, "No", []string{"sync_graph"}},
		{"a node added after cudaGraphInstantiate is not in the executable graph", `PTX T
{ x = 0; }
 H0@host                        | P0@cta 0,gpu 0,kernel A | P1@cta 1,gpu 0,kernel B ;
 cudaGraphCreate g              | st x, 1                 | ld r0, x                ;
 cudaGraphAddKernelNode g, A    |                         |                         ;
 cudaGraphInstantiate ge, g, 0  |                         |                         ;
 cudaGraphAddKernelNode g, B, A |                         |                         ;
 cudaGraphLaunch ge, s1         |                         |                         ;
 cudaLaunchKernel B, s2         |                         |                         ;
exists (P1:r0 != 1)
`, "Ok", nil},
		{"a stream waits for an event with cudaStreamWaitEvent's flags", `PTX T
{ x = 0; }
 H0@host                      | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K1 ;
 cudaEventCreate e            | st x, 1                  | ld r0, x                  ;
 cudaLaunchKernel K0, s1      |                          |                           ;
 cudaEventRecord e, s1        |                          |                           ;
 cudaStreamWaitEvent s2, e, 0 |                          |                           ;
 cudaLaunchKernel K1, s2      |                          |                           ;
exists (P1:r0 != 1)
`, "No", []string{"sync_event"}},
		{"device atomics stay atomic with each other without native host atomics", `PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1 | atom.exch.sys r0, x, 1   | atom.exch.sys r1, x, 2    ;
exists (P0:r0 == 0 /\ P1:r1 == 0)
`, "No", nil},
	}
	pm, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tests, err := ptxmm.ParseTests("t.litmus", []byte(c.src))
			require.NoError(t, err)
			r := pm.Check(tests[0], ptxmm.WithExplain())
			require.NoError(t, r.Err)
			require.Equal(t, c.verdict, r.Verdict, "states %v", r.States)
			if len(c.edges) == 0 {
				return
			}
			require.NotEmpty(t, r.Forbidden)
			var why []string
			for _, f := range r.Forbidden {
				why = append(why, f.Why...)
			}
			text := strings.Join(why, "\n")
			for _, e := range c.edges {
				// An edge of the chain reads " -e-> ", or " <-e- " backwards.
				named := strings.Contains(text, " -"+e+"-> ") || strings.Contains(text, " <-"+e+"- ")
				assert.True(t, named, "the explanation has a %s edge:\n%s", e, text)
			}
		})
	}
}

// TestHostNVVerdict checks a .test file with a host thread end to end.
func TestHostNVVerdict(t *testing.T) {
	src := `.global x;
.kernel K0 d0.b0.t0;
h0 {
  cudaLaunchKernel K0, s1;
  cudaStreamQuery q, s1;
  ld r0, [x];
}
d0.b0.t0 { st [x], 1; }
assert (q == 0 || r0 == 1) as query_syncs;
permit (q == 0 && r0 == 0) as not_ready_is_stale;
`
	pm, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	tests, err := ptxmm.ParseTests("t.test", []byte(src))
	require.NoError(t, err)
	r := pm.Check(tests[0])
	require.NoError(t, r.Err)
	require.Len(t, r.Assertions, 2)
	for _, a := range r.Assertions {
		assert.True(t, a.Holds, "%s", a.Name)
	}
}

// TestSpecEventMonotone guards the spin-loop reduction: ptxmm leaves out
// failed spin-loop iterations only when every check of the model can only
// lose violations as events are removed (rules.Program.EventMonotone). The
// host rules of spec.dl use negation only on relations of the catalog, so
// the reduction stays on; without it the shared corpora would enumerate a
// hundred times more candidates.
func TestSpecEventMonotone(t *testing.T) {
	m, err := loader.Load(loader.Source{Name: ptxmm.DefaultModelName, FS: ptxmm.DefaultModelFS()}, loader.Options{})
	require.NoError(t, err)
	require.True(t, m.Program.EventMonotone())
}

// TestHostMixedSizeAtomicity: the 8.1.1 switch also governs the atomicity
// of partially overlapping atomics (8.7.2, 8.10.3): without native host
// atomics, the host's 32-bit increment and the device's 64-bit one may
// lose an update; with them, they may not. Both are mixed-size races, so
// the test is Undef either way; the states show the difference.
func TestHostMixedSizeAtomicity(t *testing.T) {
	pm, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	for _, c := range []struct {
		native string
		states int
	}{{"", 2}, {" cudaDevAttrHostNativeAtomicSupported = 1;", 1}} {
		src := `PTX T
{ x = 0;` + c.native + ` }
 H0@host                  | P0@cta 0,gpu 0,kernel K0  ;
 cudaLaunchKernel K0, s1  | atom.add.sys.u64 r0, x, 1 ;
 atom.add.u32 r1, x, 1    |                           ;
 cudaStreamSynchronize s1 |                           ;
 ld.u64 r2, x             |                           ;
exists (H0:r2 != 2)
`
		tests, err := ptxmm.ParseTests("t.litmus", []byte(src))
		require.NoError(t, err)
		r := pm.Check(tests[0])
		require.NoError(t, r.Err)
		assert.Equal(t, "Undef", r.Verdict)
		assert.Len(t, r.States, c.states, "native atomics declared: %q", c.native)
	}
}
