package litmus

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/source"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// hostWith builds a herd test with host thread H0 running body (one
// instruction per line, from line 4) and device thread P0 in kernel K0.
// The launch of K0 comes first unless body launches it.
func hostWith(body ...string) string {
	launch := "cudaLaunchKernel K0, s1"
	for _, b := range body {
		if strings.Contains(b, "K0") {
			launch = ""
		}
	}
	rows := ""
	if launch != "" {
		rows += " " + launch + " | st x, 1 ;\n"
	}
	for i, b := range body {
		cell := ""
		if launch == "" && i == 0 {
			cell = "st x, 1"
		}
		rows += " " + b + " | " + cell + " ;\n"
	}
	return "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n" + rows + "exists (x == 0)\n"
}

// TestHostCalls checks the accepted forms of every CUDA call: what each
// parses into.
func TestHostCalls(t *testing.T) {
	cases := []struct {
		call string
		want APICall
		dst  string
	}{
		{"cudaStreamSynchronize s1", APICall{Fn: APIStreamSynchronize, Stream: "s1"}, ""},
		{"cudaStreamSynchronize 0", APICall{Fn: APIStreamSynchronize, Stream: LegacyStream}, ""},
		{"cudaStreamSynchronize cudaStreamLegacy", APICall{Fn: APIStreamSynchronize, Stream: LegacyStream}, ""},
		{"cudaStreamSynchronize cudaStreamPerThread", APICall{Fn: APIStreamSynchronize, Stream: PerThreadStream}, ""},
		{"cudaStreamQuery r1, s1", APICall{Fn: APIStreamQuery, Stream: "s1"}, "r1"},
		{"cudaEventRecord e", APICall{Fn: APIEventRecord, Event: "e", Stream: LegacyStream}, ""},
		{"cudaEventRecord e, s2", APICall{Fn: APIEventRecord, Event: "e", Stream: "s2"}, ""},
		{"cudaStreamWaitEvent s2, e", APICall{Fn: APIStreamWaitEvent, Event: "e", Stream: "s2"}, ""},
		{"cudaStreamWaitEvent s2, e, 0", APICall{Fn: APIStreamWaitEvent, Event: "e", Stream: "s2"}, ""},
		{"cudaStreamWaitEvent s2, e, cudaEventWaitDefault", APICall{Fn: APIStreamWaitEvent, Event: "e", Stream: "s2"}, ""},
		{"cudaEventCreate e", APICall{Fn: APIEventCreate, Event: "e"}, ""},
		{"cudaEventCreateWithFlags e, cudaEventDisableTiming", APICall{Fn: APIEventCreate, Event: "e"}, ""},
		{"cudaGraphCreate g", APICall{Fn: APIGraphCreate, Graph: "g"}, ""},
		{"cudaGraphCreate g, 0", APICall{Fn: APIGraphCreate, Graph: "g"}, ""},
		{"cudaEventSynchronize e", APICall{Fn: APIEventSynchronize, Event: "e"}, ""},
		{"cudaEventQuery %r2, e", APICall{Fn: APIEventQuery, Event: "e"}, "%r2"},
		{"cudaDeviceSynchronize", APICall{Fn: APIDeviceSynchronize}, ""},
		{"cudaSetDevice 0", APICall{Fn: APISetDevice}, ""},
		{"cudaStreamCreate s3", APICall{Fn: APIStreamCreate, Stream: "s3"}, ""},
		{"cudaStreamCreateWithFlags s3, cudaStreamNonBlocking", APICall{Fn: APIStreamCreate, Stream: "s3", NonBlocking: true}, ""},
		{"cudaStreamCreateWithFlags s3, cudaStreamDefault", APICall{Fn: APIStreamCreate, Stream: "s3"}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.call, func(t *testing.T) {
			test := mustHerd(t, hostWith(tc.call))
			h := test.Threads[0]
			require.True(t, h.Host)
			require.Len(t, h.Instrs, 2)
			in := h.Instrs[1]
			require.Equal(t, OpAPI, in.Op)
			assert.Equal(t, tc.want, *in.API)
			assert.Equal(t, tc.dst, in.Dst)
			launch := h.Instrs[0].API
			assert.Equal(t, APICall{Fn: APILaunchKernel, Kernel: "K0", Stream: "s1"}, *launch)
		})
	}
}

// TestHostThreadsAndKernels checks the thread header: host threads in any
// column, device threads with kernels, register initialisations and
// conditions naming host threads, and the native-atomics entry.
func TestHostThreadsAndKernels(t *testing.T) {
	src := `PTX T
{ x = 0; H0:r5 = 7; 1:r6 = 8; cudaDevAttrHostNativeAtomicSupported = 1; }
 P0@cta 0,gpu 0,kernel K0 | H0@host                 | P1@kernel K1,gpu 0,cta 1 ;
 st x, 1                  | cudaLaunchKernel K0      | ld r0, x                 ;
                          | cudaLaunchKernel K1, s2  |                          ;
                          | ld.acquire.sys r1, x     |                          ;
                          | atom.add r2, x, 1        |                          ;
exists (H0:r1 == 1 /\ P1:r0 == 0 /\ 1:r6 == 8)
`
	test := mustHerd(t, src)
	require.Len(t, test.Threads, 3)
	p0, h0, p1 := test.Threads[0], test.Threads[1], test.Threads[2]
	assert.Equal(t, []string{"P0", "H0", "P1"}, []string{p0.Name, h0.Name, p1.Name})
	assert.Equal(t, []int{0, 1, 2}, []int{p0.Index, h0.Index, p1.Index})
	assert.True(t, h0.Host)
	assert.Equal(t, []int{-1, -1, -1}, []int{h0.GPU, h0.Cluster, h0.CTA}, "a host thread is in no GPU, cluster or CTA")
	assert.Equal(t, "K0", p0.Kernel)
	assert.Equal(t, "K1", p1.Kernel)
	assert.Equal(t, 1, p1.CTA)
	assert.True(t, test.HostNativeAtomics)
	require.Len(t, test.RegInits, 2)
	assert.Equal(t, 1, test.RegInits[0].Thread, "H0 is column 1")
	assert.Equal(t, 2, test.RegInits[1].Thread, "1:r6 is P1, column 2")
	assert.Equal(t, "(H0:r1 == 1 /\\ P1:r0 == 0 /\\ P1:r6 == 8)", ExprString(test, test.Condition.Expr))
	assert.Equal(t, APICall{Fn: APILaunchKernel, Kernel: "K0", Stream: LegacyStream}, *h0.Instrs[0].API, "the stream defaults to the legacy default stream")
	ld := h0.Instrs[2]
	assert.Equal(t, []any{OpLoad, SemAcquire, ScopeSys}, []any{ld.Op, ld.Sem, ld.Scope})
	atom := h0.Instrs[3]
	assert.Equal(t, ScopeSys, atom.Scope, "a host atom is .sys by default (the host has no other scope)")
	assert.False(t, mustHerd(t, hostWith("cudaDeviceSynchronize")).HostNativeAtomics, "native host atomics are off by default")
}

// TestHostGraphs checks that a graph is built from its calls and attached
// to its launch.
func TestHostGraphs(t *testing.T) {
	src := `PTX T
{ x = 0; }
 H0@host                           | P0@cta 0,gpu 0,kernel A | P1@cta 1,gpu 0,kernel B ;
 cudaGraphAddKernelNode g, A       | st x, 1                 | ld r0, x                ;
 cudaGraphAddEmptyNode g, join, A  |                         |                         ;
 cudaGraphAddKernelNode g, B       |                         |                         ;
 cudaGraphAddDependencies g, join, B |                       |                         ;
 cudaGraphLaunch g, s1             |                         |                         ;
exists (P1:r0 == 0)
`
	test := mustHerd(t, src)
	launch := test.Threads[0].Instrs[4]
	require.Equal(t, APIGraphLaunch, launch.API.Fn)
	require.NotNil(t, launch.API.Def)
	var got []string
	for _, n := range launch.API.Def.Nodes {
		got = append(got, fmt.Sprintf("%s/%s%v", n.Name, n.Kernel, n.Deps))
	}
	assert.Equal(t, []string{"A/A[]", "join/[0]", "B/B[1]"}, got)
}

// TestHostGraphInstantiate checks executable graphs: a copy of the graph
// as built when instantiated, which later nodes do not change, launched by
// its own name.
func TestHostGraphInstantiate(t *testing.T) {
	src := `PTX T
{ x = 0; }
 H0@host                        | P0@cta 0,gpu 0,kernel A | P1@cta 1,gpu 0,kernel B ;
 cudaGraphCreate g              | st x, 1                 | ld r0, x                ;
 cudaGraphAddKernelNode g, A    |                         |                         ;
 cudaGraphInstantiate ge, g, 0  |                         |                         ;
 cudaGraphAddKernelNode g, B, A |                         |                         ;
 cudaGraphLaunch ge, s1         |                         |                         ;
 cudaLaunchKernel B, s1         |                         |                         ;
exists (P1:r0 == 0)
`
	test := mustHerd(t, src)
	inst := test.Threads[0].Instrs[2].API
	assert.Equal(t, APICall{Fn: APIGraphInstantiate, Graph: "g", Exec: "ge"}, *inst)
	launch := test.Threads[0].Instrs[4].API
	require.NotNil(t, launch.Def)
	assert.Equal(t, "ge", launch.Def.Name)
	require.Len(t, launch.Def.Nodes, 1, "B was added to g after ge was instantiated")
	assert.Equal(t, "A", launch.Def.Nodes[0].Kernel)
}

// TestHostNV checks the .test spelling: hN threads, .kernel and .attribute
// declarations.
func TestHostNV(t *testing.T) {
	src := `.global x;
.attribute cudaDevAttrHostNativeAtomicSupported = 1;
d0.b0.t0 { st [x], 1; }
.kernel K0 d0.b0.t0, d0.b1.t0;
h0 {
  cudaLaunchKernel K0, s1;
  cudaStreamQuery q, s1;
  ld r0, [x];
}
d0.b1.t0 { ld r1, [x]; }
assert (q == 0 || r0 == 1) as synced;
`
	tests := mustNV(t, "t.test", src)
	require.Len(t, tests, 1)
	test := tests[0]
	assert.True(t, test.HostNativeAtomics)
	assert.Equal(t, "K0", test.Threads[0].Kernel)
	assert.True(t, test.Threads[1].Host)
	assert.Equal(t, "h0", test.Threads[1].Name)
	assert.Equal(t, "K0", test.Threads[2].Kernel)
	assert.Equal(t, "(h0:q == 0 \\/ h0:r0 == 1)", ExprString(test, test.Assertions[0].Expr))
}

// TestHostParseErrors checks that host mistakes are positioned errors
// naming what is allowed.
func TestHostParseErrors(t *testing.T) {
	cases := []struct {
		name, file, src, msg, at string
	}{
		{"device instruction on the host", "t.litmus", hostWith("bar.sync 0"), "bar is a device instruction: host thread H0 runs ld, st, atom, red, fence, register operations, branches and CUDA runtime calls", "5:2"},
		{"call on a device thread", "t.litmus", "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | cudaDeviceSynchronize ;\nexists (x == 0)\n", "cudaDeviceSynchronize is a CUDA runtime call: only host threads (H0@host) make them", "4:24"},
		{"unknown call", "t.litmus", hostWith("cudaMallocAsync p, 4"), "unknown CUDA runtime call cudaMallocAsync: expected cudaLaunchKernel", "5:2"},
		{"call with a qualifier", "t.litmus", hostWith("cudaDeviceSynchronize.sys"), "cudaDeviceSynchronize takes no qualifier, found .sys", "5:23"},
		{"gpu scope on the host", "t.litmus", hostWith("ld.relaxed.gpu r0, x"), "ld cannot be .gpu on a host thread: the host's only scope is .sys", "5:12"},
		{"volatile on the host", "t.litmus", hostWith("st.volatile x, 1"), "host accesses are plain (ld, st) or atomic", "5:2"},
		{"proxy fence on the host", "t.litmus", hostWith("fence.proxy.alias"), "fence.proxy.alias is a device instruction", "5:2"},
		{"bad stream", "t.litmus", hostWith("cudaStreamSynchronize 2"), "expected the stream of cudaStreamSynchronize: a name, 0 or cudaStreamLegacy (the legacy default stream), or cudaStreamPerThread, found \"2\"", "5:24"},
		{"query without register", "t.litmus", hostWith("cudaStreamQuery s1"), "expected ',' after the destination of cudaStreamQuery", "5:21"},
		{"bad flags", "t.litmus", hostWith("cudaStreamCreateWithFlags s2, 7"), "expected the flags of cudaStreamCreateWithFlags: cudaStreamDefault or cudaStreamNonBlocking", "5:32"},
		{"creating the legacy stream", "t.litmus", hostWith("cudaStreamCreate 0"), "cudaStreamCreate creates a stream: the legacy default stream and cudaStreamPerThread exist without it", "5:19"},
		{"stream created after use", "t.litmus", hostWith("cudaStreamCreate s1"), "stream s1 is already used at line 4: create a stream once, before it is used", "5:2"},
		{"trailing operand", "t.litmus", hostWith("cudaDeviceSynchronize 1"), "unexpected \"1\" after the operands of cudaDeviceSynchronize", "5:24"},
		{"host placement", "t.litmus", "PTX T\n{ x = 0; }\n H0@cta 0 | P0@cta 0,gpu 0 ;\n ld r0, x | ;\nexists (x == 0)\n", "expected host after H0@ (a host thread runs on the CPU: write H0@host)", "3:5"},
		{"host numbering", "t.litmus", "PTX T\n{ x = 0; }\n H0@host | H2@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | | ;\nexists (x == 0)\n", "expected thread H1 (host threads are named H0, H1, ... in order", "3:12"},
		{"header starting elsewhere", "t.litmus", "PTX T\n{ x = 0; }\n H1@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | ;\nexists (x == 0)\n", "expected the thread header row (P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;, or H0@host for a host thread), found \"H1\"", "3:2"},
		{"host shared memory", "t.litmus", "PTX T\n{ s @ shared = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | ld.shared r1, s ;\n ld r0, s | ;\nexists (H0:r0 == 0)\n", "s is shared memory: host thread H0 reaches global memory only", "5:9"},
		{"device thread without kernel", "t.litmus", "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0 ;\n ld r0, x | st x, 1 ;\nexists (x == 0)\n", "P0 names no kernel: in a test with host threads every device thread belongs to a kernel", "3:12"},
		{"kernel without host", "t.litmus", "PTX T\n{ x = 0; }\n P0@cta 0,gpu 0,kernel K0 ;\n st x, 1 ;\nexists (x == 0)\n", "P0 belongs to kernel K0, but the test has no host thread to launch it", "3:2"},
		{"kernel never launched", "t.litmus", "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n ld r0, x | st x, 1 ;\nexists (x == 0)\n", "kernel K0 is never launched", "3:12"},
		{"kernel launched twice", "t.litmus", hostWith("cudaLaunchKernel K0, s1", "cudaLaunchKernel K0, s2"), "kernel K0 is launched twice (first at line 4)", "5:2"},
		{"kernel without threads", "t.litmus", hostWith("cudaLaunchKernel K9, s1"), "kernel K9 has no device threads", "5:2"},
		{"kernel on two GPUs", "t.litmus", "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 | P1@cta 0,gpu 1,kernel K0 ;\n cudaLaunchKernel K0 | st x, 1 | ;\nexists (x == 0)\n", "kernel K0 runs on gpu 0 (P0) and gpu 1 (P1): a kernel runs on one device", "3:39"},
		{"register init of a missing host", "t.litmus", "PTX T\n{ x = 0; H3:r0 = 1; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | ;\nexists (x == 0)\n", "register init for thread H3, but the test has threads P0 to P0 and H0 to H0", "2:10"},
		{"condition on a missing host", "t.litmus", "PTX T\n{ x = 0; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | ;\nexists (H1:r0 == 0)\n", "unknown thread H1 in the condition: the test has threads P0 to P0 and H0 to H0", "5:9"},
		{"native atomics value", "t.litmus", "PTX T\n{ x = 0; cudaDevAttrHostNativeAtomicSupported = 2; }\n H0@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | ;\nexists (x == 0)\n", "cudaDevAttrHostNativeAtomicSupported is 0 (host and device atomics may not be atomic with respect to each other, the default) or 1 (native host atomics), found 2", "2:49"},
		{"graph without nodes", "t.litmus", hostWith("cudaGraphLaunch g, s1"), "graph g has no nodes", "5:2"},
		{"graph node missing dependency", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0, A", "cudaGraphLaunch g"), "graph g has no node A: a node depends on nodes added before it", "4:2"},
		{"graph cycle", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0", "cudaGraphAddEmptyNode g, n, K0", "cudaGraphAddDependencies g, n, K0", "cudaGraphLaunch g"), "the dependency n -> K0 makes a cycle in graph g", "6:2"},
		{"graph changed after launch", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0", "cudaGraphLaunch g", "cudaGraphAddEmptyNode g, n"), "cudaGraphAddEmptyNode changes graph g after it is launched (line 5)", "6:2"},
		{"graph launched twice", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0", "cudaGraphLaunch g", "cudaGraphLaunch g"), "graph g is launched twice (first at line 5)", "6:2"},
		{"bad wait flags", "t.litmus", hostWith("cudaEventRecord e, s1", "cudaStreamWaitEvent s2, e, 1"), "expected the flags of cudaStreamWaitEvent: 0 or cudaEventWaitDefault, found \"1\"", "6:29"},
		{"bad event flags", "t.litmus", hostWith("cudaEventCreateWithFlags e, cudaStreamNonBlocking"), "expected the flags of cudaEventCreateWithFlags: 0, cudaEventDefault, cudaEventBlockingSync or cudaEventDisableTiming", "5:30"},
		{"graph created twice", "t.litmus", hostWith("cudaGraphCreate g", "cudaGraphCreate g"), "graph g is already created at line 5", "6:2"},
		{"graph created after its nodes", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0", "cudaGraphCreate g", "cudaGraphLaunch g"), "graph g already exists: create a graph before adding its nodes", "5:2"},
		{"instantiating an empty graph", "t.litmus", hostWith("cudaGraphCreate g", "cudaGraphInstantiate ge, g"), "graph g has no nodes: add them before instantiating it", "6:2"},
		{"executable graph named as a graph", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0", "cudaGraphInstantiate g, g"), "g already names a graph: give the executable graph a name of its own", "5:2"},
		{"node added to an executable graph", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0", "cudaGraphInstantiate ge, g", "cudaGraphAddEmptyNode ge, n", "cudaGraphLaunch ge"), "ge is an executable graph: change the graph it was instantiated from", "6:2"},
		{"executable graph launched twice", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0", "cudaGraphInstantiate ge, g", "cudaGraphLaunch ge", "cudaGraphLaunch ge"), "graph ge is launched twice (first at line 6)", "7:2"},
		{"graph and its executable graph both launched", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0", "cudaGraphInstantiate ge, g", "cudaGraphLaunch ge", "cudaGraphLaunch g"), "kernel K0 is launched twice (first at line 6)", "7:2"},
		{"duplicate node", "t.litmus", hostWith("cudaGraphAddKernelNode g, K0", "cudaGraphAddEmptyNode g, K0", "cudaGraphLaunch g"), "graph g already has a node K0", "5:2"},
		{"stream of two host threads", "t.litmus", "PTX T\n{ x = 0; }\n H0@host | H1@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0, s1 | cudaStreamSynchronize s1 | ;\nexists (x == 0)\n", "stream s1 is used by H0 and H1", "4:28"},
		{"legacy stream and blocking stream of another host", "t.litmus", "PTX T\n{ x = 0; }\n H0@host | H1@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0 | cudaStreamSynchronize s1 | ;\nexists (x == 0)\n", "H1 uses blocking stream s1 while H0 uses the legacy default stream", "4:24"},
		{"event of two host threads", "t.litmus", "PTX T\n{ x = 0; }\n H0@host | H1@host | P0@cta 0,gpu 0,kernel K0 ;\n cudaLaunchKernel K0, s1 | cudaEventSynchronize e | ;\n cudaEventRecord e, s1 | | ;\nexists (x == 0)\n", "CUDA event e is used by H0 and H1: a CUDA event belongs to one host thread", "4:28"},
		{"nv host call on device", "t.test", ".global x;\nd0.b0.t0 { cudaDeviceSynchronize; }\nassert (x == 0) as a;\n", "only host threads (h0 { ... }) make them", "2:12"},
		{"nv kernel of a host", "t.test", ".global x;\n.kernel K0 h0;\nh0 { cudaLaunchKernel K0; }\nassert (x == 0) as a;\n", "kernel K0 names host thread h0: kernels are made of device threads", "2:12"},
		{"nv thread in two kernels", "t.test", ".global x;\n.kernel K0 d0.b0.t0;\n.kernel K1 d0.b0.t0;\nh0 { cudaLaunchKernel K0; }\nd0.b0.t0 { st [x], 1; }\nassert (x == 0) as a;\n", "d0.b0.t0 is already in kernel K0 (line 2)", "3:12"},
		{"nv unknown kernel thread", "t.test", ".global x;\n.kernel K0 d0.b9.t0;\nh0 { cudaLaunchKernel K0; }\nassert (x == 0) as a;\n", "kernel K0 names d0.b9.t0, which is not a thread of the test", "2:12"},
		{"nv unknown attribute", "t.test", ".global x;\n.attribute cudaDevAttrFoo = 1;\nd0.b0.t0 { st [x], 1; }\nassert (x == 0) as a;\n", "expected cudaDevAttrHostNativeAtomicSupported after .attribute", "2:12"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f, err := FormatForPath(tc.file)
			require.NoError(t, err)
			_, err = Parse(tc.file, []byte(tc.src), f)
			require.Error(t, err, "input must be rejected")
			var list source.List
			require.ErrorAs(t, err, &list)
			var found []string
			for _, e := range list {
				at := fmt.Sprintf("%d:%d", e.Pos.Line, e.Pos.Col)
				if strings.Contains(e.Msg, tc.msg) && at == tc.at {
					return
				}
				found = append(found, e.Error())
			}
			t.Errorf("no diagnostic %q at %s; got:\n%s", tc.msg, tc.at, strings.Join(found, "\n"))
		})
	}
}

// TestHostAccessDefaults checks that the host's strong accesses and fences
// take .sys, its only scope, when they name none.
func TestHostAccessDefaults(t *testing.T) {
	cases := []struct {
		instr string
		op    Op
		sem   Sem
		scope Scope
	}{
		{"ld r0, x", OpLoad, SemWeak, ScopeNone},
		{"st.relaxed x, 1", OpStore, SemRelaxed, ScopeSys},
		{"ld.acquire r0, x", OpLoad, SemAcquire, ScopeSys},
		{"ld.global.relaxed.u32 r0, x", OpLoad, SemRelaxed, ScopeSys},
		{"st.weak x, 1", OpStore, SemWeak, ScopeNone},
		{"setp.eq.u32 p, r0, 0", OpSetp, SemWeak, ScopeNone},
		{"st.release.sys x, 1", OpStore, SemRelease, ScopeSys},
		{"atom.add r0, x, 1", OpAtom, SemRelaxed, ScopeSys},
		{"atom.acq_rel.cas r0, x, 0, 1", OpAtom, SemAcqRel, ScopeSys},
		{"red.add x, 1", OpRed, SemRelaxed, ScopeSys},
		{"fence.sc", OpFence, SemSC, ScopeSys},
		{"fence", OpFence, SemAcqRel, ScopeSys},
		{"fence.acquire.sys", OpFence, SemAcquire, ScopeSys},
		{"membar.sys", OpFence, SemSC, ScopeSys},
	}
	for _, tc := range cases {
		t.Run(tc.instr, func(t *testing.T) {
			in := mustHerd(t, hostWith(tc.instr)).Threads[0].Instrs[1]
			assert.Equal(t, []any{tc.op, tc.sem, tc.scope}, []any{in.Op, in.Sem, in.Scope})
		})
	}
}

// TestHostCTAPerLaunch checks that CTA and cluster numbers are read per
// kernel launch (Table 21, 8.3): CTA 0 of K0 and CTA 0 of K1 are two CTAs,
// which may be placed in clusters of their own numbers, while two threads
// of one kernel's CTA must agree on its cluster.
func TestHostCTAPerLaunch(t *testing.T) {
	test := mustHerd(t, `PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,cluster 0,gpu 0,kernel K0 | P1@cta 0,cluster 1,gpu 0,kernel K1 | P2@cta 0,gpu 0,kernel K0 | P3@cta 0,gpu 0,kernel K1 ;
 cudaLaunchKernel K0, s1 | st x, 1                            | st x, 2                            | st x, 3                  | st x, 4                  ;
 cudaLaunchKernel K1, s2 |                                    |                                    |                          |                          ;
exists (x == 0)
`)
	var launch, cluster []int
	for _, th := range test.Threads[1:] {
		launch = append(launch, th.Launch)
		cluster = append(cluster, th.Cluster)
	}
	assert.Equal(t, 0, test.Threads[0].Launch, "a host thread is in no launch")
	assert.Equal(t, []int{1, 2, 1, 2}, launch, "launches are numbered by kernel, in order of appearance")
	assert.Equal(t, []int{0, 1, 0, 1}, cluster, "a thread naming no cluster joins the cluster its kernel's CTA is in")

	_, err := ParseHerd("t.litmus", []byte(`PTX T
{ x = 0; }
 H0@host                 | P0@cta 0,cluster 0,gpu 0,kernel K0 | P1@cta 0,cluster 1,gpu 0,kernel K0 ;
 cudaLaunchKernel K0, s1 | st x, 1                            | st x, 2                            ;
exists (x == 0)
`))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "thread P1 puts CTA 0 of kernel K0 in cluster 1, but thread P0 puts it in cluster 0")
}
