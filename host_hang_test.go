package ptxmm_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
)

// TestHostHangs checks what a device thread that waits forever does to the
// host and to the kernels behind its own (docs/model.md, section 23, "Hangs
// with host threads"): P0 below always waits forever at a barrier of two that no
// other thread joins, so kernel K0 never completes.
func TestHostHangs(t *testing.T) {
	cases := []struct {
		name, src string
		verdict   string
		states    int    // final states
		hangs     int    // consistent executions that hang
		unjudged  int    // of those, the ones without a final state
		stuck     string // a thread and the instruction it waits at forever
	}{
		{"cudaStreamSynchronize never returns from a kernel that hangs", `PTX T
{ x = 0; }
 H0@host                  | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1  | st x, 1                  ;
 cudaStreamSynchronize s1 | bar.cta.sync 0, 0, 2     ;
 ld r0, x                 |                          ;
exists (H0:r0 == 0)
`, "No", 0, 1, 1, "H0: cudaStreamSynchronize s1"},
		{"without the hang the host reads after the synchronize", `PTX T
{ x = 0; }
 H0@host                  | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1  | st x, 1                  ;
 cudaStreamSynchronize s1 |                          ;
 ld r0, x                 |                          ;
exists (H0:r0 == 1)
`, "Ok", 1, 0, 0, ""},
		{"a host waiting at its last call is judged, and the next kernel of the stream never starts", `PTX T
{ x = 0; y = 0; }
 H0@host                  | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K1 ;
 ld r0, y                 | st x, 1                  | st y, 1                  ;
 cudaLaunchKernel K0, s1  | bar.cta.sync 0, 0, 2     | ld r1, x                 ;
 cudaLaunchKernel K1, s1  |                          |                          ;
 cudaStreamSynchronize s1 |                          |                          ;
exists (P1:r1 == 1 \/ y == 1)
`, "No", 1, 1, 0, "H0: cudaStreamSynchronize s1"},
		{"a kernel in another stream still runs and completes", `PTX T
{ x = 0; y = 0; }
 H0@host                  | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K1 ;
 cudaLaunchKernel K0, s1  | st x, 1                  | st y, 1                  ;
 cudaLaunchKernel K1, s2  | bar.cta.sync 0, 0, 2     |                          ;
 cudaStreamSynchronize s2 |                          |                          ;
 ld r0, y                 |                          |                          ;
exists (H0:r0 != 1)
`, "No", 1, 1, 0, "P0: bar.cta.sync 0, 0, 2"},
		{"cudaDeviceSynchronize waits for the kernel that hangs", `PTX T
{ x = 0; y = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K1 ;
 cudaLaunchKernel K0, s1 | st x, 1                  | st y, 1                  ;
 cudaLaunchKernel K1, s2 | bar.cta.sync 0, 0, 2     |                          ;
 cudaDeviceSynchronize   |                          |                          ;
 ld r0, y                |                          |                          ;
exists (H0:r0 == 1)
`, "No", 0, 1, 1, "H0: cudaDeviceSynchronize"},
		{"cudaDeviceSynchronize waits for a kernel another host thread launched before it", `PTX T
{ x = 0; flag = 0; y = 0; }
 H0@host                 | H1@host                 | P0@cta 0,gpu 0,kernel K0 ;
 L:                      | cudaLaunchKernel K0, s1 | st x, 1                  ;
 ld.acquire.sys r0, flag | st.release.sys flag, 1  | bar.cta.sync 0, 0, 2     ;
 bne r0, 1, L            |                         |                          ;
 cudaDeviceSynchronize   |                         |                          ;
 st y, 1                 |                         |                          ;
exists (y == 1)
`, "No", 0, 1, 1, "H0: cudaDeviceSynchronize"},
		{"cudaDeviceSynchronize may return before another host thread launches a kernel that hangs", `PTX T
{ x = 0; flag = 0; y = 0; }
 H0@host                 | H1@host                 | P0@cta 0,gpu 0,kernel K0 ;
 L:                      | st.release.sys flag, 1  | st x, 1                  ;
 ld.acquire.sys r0, flag | cudaLaunchKernel K0, s1 | bar.cta.sync 0, 0, 2     ;
 bne r0, 1, L            |                         |                          ;
 cudaDeviceSynchronize   |                         |                          ;
 st y, 1                 |                         |                          ;
exists (y == 1)
`, "Ok", 1, 2, 1, "H0: cudaDeviceSynchronize"},
		{"cudaDeviceSynchronize does not wait for a kernel of another device", `PTX T
{ x = 0; flag = 0; y = 0; }
 H0@host                 | H1@host                 | P0@cta 0,gpu 1,kernel K0 ;
 L:                      | cudaSetDevice 1         | st x, 1                  ;
 ld.acquire.sys r0, flag | cudaLaunchKernel K0, s1 | bar.cta.sync 0, 0, 2     ;
 bne r0, 1, L            | st.release.sys flag, 1  |                          ;
 cudaDeviceSynchronize   |                         |                          ;
 st y, 1                 |                         |                          ;
exists (y == 1)
`, "Ok", 1, 1, 0, "P0: bar.cta.sync 0, 0, 2"},
		{"an event recorded after the kernel that hangs is never reached", `PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1 | st x, 1                  ;
 cudaEventRecord e, s1   | bar.cta.sync 0, 0, 2     ;
 cudaEventSynchronize e  |                          ;
 st x, 2                 |                          ;
exists (x == 2)
`, "No", 0, 1, 1, "H0: cudaEventSynchronize e"},
		{"a query never returns cudaSuccess for a kernel that hangs", `PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1 | st x, 1                  ;
 cudaStreamQuery r0, s1  | bar.cta.sync 0, 0, 2     ;
exists (H0:r0 == 1)
`, "No", 1, 1, 0, "P0: bar.cta.sync 0, 0, 2"},
		{"a query returns cudaSuccess for a kernel that finishes", `PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1 | st x, 1                  ;
 cudaStreamQuery r0, s1  |                          ;
exists (H0:r0 == 1)
`, "Ok", 2, 0, 0, ""},
		{"a stream waiting on an event behind the hang never starts its kernel", `PTX T
{ x = 0; }
 H0@host                   | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K1 ;
 cudaLaunchKernel K0, s1   | bar.cta.sync 0, 0, 2     | st x, 1                  ;
 cudaEventRecord e, s1     |                          |                          ;
 cudaStreamWaitEvent s2, e |                          |                          ;
 cudaLaunchKernel K1, s2   |                          |                          ;
exists (x == 1)
`, "No", 1, 1, 0, "P0: bar.cta.sync 0, 0, 2"},
		{"a graph node depending on the node that hangs never starts; an unrelated node runs", `PTX T
{ x = 0; y = 0; }
 H0@host                       | P0@cta 0,gpu 0,kernel A | P1@cta 1,gpu 0,kernel B | P2@cta 2,gpu 0,kernel C ;
 cudaGraphAddKernelNode g, A   | bar.cta.sync 0, 0, 2    | st x, 1                 | st y, 1                 ;
 cudaGraphAddKernelNode g, B, A |                        |                         |                         ;
 cudaGraphAddKernelNode g, C   |                         |                         |                         ;
 cudaGraphLaunch g, s1         |                         |                         |                         ;
exists (x == 1 \/ y == 0)
`, "No", 1, 1, 0, "P0: bar.cta.sync 0, 0, 2"},
	}
	pm, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tests, err := ptxmm.ParseTests("t.litmus", []byte(c.src))
			require.NoError(t, err)
			r := pm.Check(tests[0])
			require.NoError(t, r.Err)
			assert.Equal(t, c.verdict, r.Verdict, "states %v", r.States)
			assert.Len(t, r.States, c.states)
			assert.Equal(t, c.hangs, r.Hangs, "hangs")
			assert.Equal(t, c.unjudged, r.Unjudged, "hangs without a final state")
			if c.stuck != "" {
				assert.Contains(t, r.Stuck, c.stuck)
			}
		})
	}
}
