package fill

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/catalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
)

// hostSrc has a host thread that launches K0 and a graph of K1 and an empty
// node, records and waits on an event, queries and synchronizes.
const hostSrc = `PTX T
{ x = 0; cudaDevAttrHostNativeAtomicSupported = 1; }
 H0@host                          | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K1 ;
 st x, 2                          | st x, 1                  | ld r0, x                  ;
 cudaLaunchKernel K0, s1          |                          |                           ;
 cudaEventRecord e, s1            |                          |                           ;
 cudaStreamWaitEvent s2, e        |                          |                           ;
 cudaGraphAddKernelNode g, K1     |                          |                           ;
 cudaGraphAddEmptyNode g, j, K1   |                          |                           ;
 cudaGraphLaunch g, s2            |                          |                           ;
 cudaStreamQuery r1, s2           |                          |                           ;
 cudaStreamSynchronize s1         |                          |                           ;
exists (x == 0)
`

// setLabels lists a filled set's events by label without the thread,
// sorted.
func setLabels(x *execution.Execution, s *relations.Set) []string {
	var out []string
	for i := range x.Events {
		if s.Has(i) {
			l := x.Label(i)
			out = append(out, l[strings.Index(l, ":")+1:])
		}
	}
	sort.Strings(out)
	return out
}

// TestFillHostSets checks the catalog's sets about host threads on the
// first candidate of hostSrc (its query returns cudaSuccess).
func TestFillHostSets(t *testing.T) {
	x := firstCandidate(t, hostSrc)
	fill := func(name string) []string {
		s := relations.NewSet(len(x.Events))
		fillSet(s, name, x)
		return setLabels(x, s)
	}
	cases := []struct {
		set  string
		want []string
	}{
		{"API", []string{"cudaEventRecord e, s1", "cudaGraphLaunch g, s2", "cudaLaunchKernel K0, s1", "cudaStreamQuery r1, s2 [returns cudaSuccess]", "cudaStreamSynchronize s1", "cudaStreamWaitEvent s2, e"}},
		{"SYNC_CALL", []string{"cudaStreamSynchronize s1"}},
		{"QUERY_OK", []string{"cudaStreamQuery r1, s2 [returns cudaSuccess]"}},
		{"TASK_START", []string{
			"cudaEventRecord e, s1 [event record e in s1]", "cudaGraphLaunch g, s2 [empty node j]", "cudaGraphLaunch g, s2 [graph g start in s2]",
			"cudaGraphLaunch g, s2 [kernel K1 start]", "cudaLaunchKernel K0, s1 [kernel K0 start in s1]", "cudaStreamWaitEvent s2, e [event wait e in s2]"}},
		{"TASK_END", []string{
			"cudaEventRecord e, s1 [event record e in s1]", "cudaGraphLaunch g, s2 [empty node j]", "cudaGraphLaunch g, s2 [graph g end in s2]",
			"cudaGraphLaunch g, s2 [kernel K1 end]", "cudaLaunchKernel K0, s1 [kernel K0 end in s1]", "cudaStreamWaitEvent s2, e [event wait e in s2]"}},
		{"GRAPH_SOURCE", []string{"cudaGraphLaunch g, s2 [kernel K1 end]", "cudaGraphLaunch g, s2 [kernel K1 start]"}},
		{"GRAPH_SINK", []string{"cudaGraphLaunch g, s2 [empty node j]"}},
		{"THREAD_START", []string{"thread start", "thread start"}},
		{"THREAD_END", []string{"thread end", "thread end"}},
	}
	for _, tc := range cases {
		t.Run(tc.set, func(t *testing.T) {
			assert.Equal(t, tc.want, fill(tc.set))
		})
	}
	host := fill("HOST")
	assert.Len(t, host, 16, "the host's store, 6 calls and 9 task events")
	assert.Equal(t, host, fill("HOST_NATIVE_ATOMIC"), "the test declares native host atomics")
	assert.NotContains(t, fill("HOST"), "st x, 1", "device events are not host events")
}

// TestFillHostRelations checks the catalog's relations about host threads.
func TestFillHostRelations(t *testing.T) {
	x := firstCandidate(t, hostSrc)
	fill := func(name string) []string {
		r := relations.NewRel(len(x.Events))
		fillRel(r, name, x)
		return pairs(x, r)
	}
	cases := []struct {
		rel  string
		want []string
	}{
		{"stream_next", []string{
			"cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaEventRecord e, s1 [event record e in s1]",
			"cudaStreamWaitEvent s2, e [event wait e in s2] -> cudaGraphLaunch g, s2 [graph g start in s2]"}},
		{"event_wait", []string{"cudaEventRecord e, s1 [event record e in s1] -> cudaStreamWaitEvent s2, e [event wait e in s2]"}},
		{"barrier_wait", nil},
		{"graph_dep", []string{"cudaGraphLaunch g, s2 [kernel K1 end] -> cudaGraphLaunch g, s2 [empty node j]"}},
		{"api_wait", []string{
			"cudaEventRecord e, s1 [event record e in s1] -> cudaStreamSynchronize s1",
			"cudaGraphLaunch g, s2 [graph g end in s2] -> cudaStreamQuery r1, s2 [returns cudaSuccess]"}},
		{"graph_node", []string{
			"cudaGraphLaunch g, s2 [graph g end in s2] -> cudaGraphLaunch g, s2 [empty node j]",
			"cudaGraphLaunch g, s2 [graph g end in s2] -> cudaGraphLaunch g, s2 [kernel K1 end]",
			"cudaGraphLaunch g, s2 [graph g end in s2] -> cudaGraphLaunch g, s2 [kernel K1 start]",
			"cudaGraphLaunch g, s2 [graph g start in s2] -> cudaGraphLaunch g, s2 [empty node j]",
			"cudaGraphLaunch g, s2 [graph g start in s2] -> cudaGraphLaunch g, s2 [kernel K1 end]",
			"cudaGraphLaunch g, s2 [graph g start in s2] -> cudaGraphLaunch g, s2 [kernel K1 start]"}},
		{"kernel_thread", []string{
			"cudaGraphLaunch g, s2 [kernel K1 end] -> ld r0, x =0", "cudaGraphLaunch g, s2 [kernel K1 end] -> thread end", "cudaGraphLaunch g, s2 [kernel K1 end] -> thread start",
			"cudaGraphLaunch g, s2 [kernel K1 start] -> ld r0, x =0", "cudaGraphLaunch g, s2 [kernel K1 start] -> thread end", "cudaGraphLaunch g, s2 [kernel K1 start] -> thread start",
			"cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> st x, 1", "cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> thread end", "cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> thread start",
			"cudaLaunchKernel K0, s1 [kernel K0 start in s1] -> st x, 1", "cudaLaunchKernel K0, s1 [kernel K0 start in s1] -> thread end", "cudaLaunchKernel K0, s1 [kernel K0 start in s1] -> thread start"}},
	}
	for _, tc := range cases {
		t.Run(tc.rel, func(t *testing.T) {
			assert.Equal(t, tc.want, fill(tc.rel))
		})
	}
	// Host threads are in no CTA, cluster or GPU.
	for _, rel := range []string{"scta", "sclu", "sgpu"} {
		for _, p := range fill(rel) {
			require.NotContains(t, p, "cuda", "%s relates a host event: %s", rel, p)
		}
	}
}

// TestFillHostEmptyWithoutHost checks that a test without host threads has
// every host relation empty, and that the filler leaves them unset.
func TestFillHostEmptyWithoutHost(t *testing.T) {
	x := firstCandidate(t, "PTX T\n{ x = 0; }\n P0@cta 0,gpu 0 ;\n st x, 1 ;\nexists (x == 0)\n")
	for _, e := range catalog.Entries() {
		if !catalog.HostInput(e.Name) {
			continue
		}
		if e.Arity == 1 {
			s := relations.NewSet(len(x.Events))
			fillSet(s, e.Name, x)
			assert.Zero(t, s.Len(), e.Name)
			continue
		}
		r := relations.NewRel(len(x.Events))
		fillRel(r, e.Name, x)
		assert.Zero(t, r.Len(), e.Name)
	}
}

// TestFillHostIdleTasks checks that a task that never starts or never
// completes, because a device thread of a kernel waits forever, is in
// neither TASK_START nor TASK_END: K0's thread waits forever at a barrier
// no other thread joins, so K0 never completes and K1, behind it in s1,
// never starts; the host's store and launches still happen.
func TestFillHostIdleTasks(t *testing.T) {
	tc, err := litmus.ParseHerd("t.litmus", []byte(`PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 | P1@cta 1,gpu 0,kernel K1 ;
 cudaLaunchKernel K0, s1 | bar.cta.sync 0, 0, 2     | st x, 1                  ;
 cudaLaunchKernel K1, s1 |                          |                          ;
exists (x == 0)
`))
	require.NoError(t, err)
	a, err := execution.Prepare(tc, execution.DefaultOptions())
	require.NoError(t, err)
	var combos [][2]bool // per combination: P0 blocked, P1 started
	var hung *execution.Execution
	_, err = a.Enumerate(0, func(c *execution.Execution) bool {
		combos = append(combos, [2]bool{c.Blocked(1), !c.Runs[2].NotStarted})
		if c.Blocked(1) && hung == nil {
			hung = c.Clone()
		}
		return true
	})
	require.NoError(t, err)
	for _, c := range combos {
		assert.Equal(t, !c[0], c[1], "K1 starts exactly when K0's thread finishes")
	}
	require.NotNil(t, hung, "some candidate has K0's thread blocked")
	fill := func(name string) []string {
		s := relations.NewSet(len(hung.Events))
		fillSet(s, name, hung)
		return setLabels(hung, s)
	}
	assert.Equal(t, []string{"cudaLaunchKernel K0, s1 [kernel K0 start in s1]"}, fill("TASK_START"))
	assert.Empty(t, fill("TASK_END"))
	assert.Equal(t, []string{"thread start"}, fill("THREAD_START"), "P1 never starts")
}

// TestFillCTAPerLaunch checks that scta and sclu relate the threads of one
// kernel launch only (Table 21, 8.3): P0 and P1 name CTA 0 of two kernels,
// P2 CTA 0 of K0 again.
func TestFillCTAPerLaunch(t *testing.T) {
	x := firstCandidate(t, `PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,gpu 0,kernel K0 | P1@cta 0,gpu 0,kernel K1 | P2@cta 0,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1 | st x, 1                  | st x, 2                  | st x, 3                  ;
 cudaLaunchKernel K1, s2 |                          |                          |                          ;
exists (x == 0)
`)
	store := func(v int64) int {
		for i := range x.Events {
			if ev := &x.Events[i]; ev.IsMemory() && !ev.IsInit() && ev.Value.N == v {
				return i
			}
		}
		t.Fatalf("no store of %d", v)
		return -1
	}
	p0, p1, p2 := store(1), store(2), store(3)
	for _, name := range []string{"scta", "sclu"} {
		r := relations.NewRel(len(x.Events))
		fillRel(r, name, x)
		assert.True(t, r.Has(p0, p2), "%s: P0 and P2 are in CTA 0 of K0", name)
		assert.False(t, r.Has(p0, p1), "%s: CTA 0 of K0 is not CTA 0 of K1", name)
		assert.False(t, r.Has(p1, p2), name)
	}
	r := relations.NewRel(len(x.Events))
	fillRel(r, "sgpu", x)
	assert.True(t, r.Has(p0, p1), "both kernels run on gpu 0")
}

// TestFillDeviceTask checks device_task: from the completion of each task
// of another host thread on the device to each cudaDeviceSynchronize that
// returns (8.9.4 API item 6), and nothing for a device the call does not
// synchronize.
func TestFillDeviceTask(t *testing.T) {
	x := firstCandidate(t, `PTX T
{ x = 0; }
 H0@host                 | H1@host                 | P0@cta 0,gpu 0,kernel K0 | P1@cta 0,gpu 1,kernel K1 ;
 cudaDeviceSynchronize   | cudaLaunchKernel K0, s1 | st x, 1                  | st x, 2                  ;
                         | cudaEventRecord e, s1   |                          |                          ;
                         | cudaSetDevice 1         |                          |                          ;
                         | cudaLaunchKernel K1, s2 |                          |                          ;
                         | cudaDeviceSynchronize   |                          |                          ;
exists (x == 0)
`)
	r := relations.NewRel(len(x.Events))
	fillRel(r, "device_task", x)
	assert.Equal(t, []string{
		"cudaEventRecord e, s1 [event record e in s1] -> cudaDeviceSynchronize",
		"cudaLaunchKernel K0, s1 [kernel K0 end in s1] -> cudaDeviceSynchronize",
	}, pairs(x, r), "H0's call covers H1's tasks on gpu 0; H1's call on gpu 1 covers nothing of H0")
}
