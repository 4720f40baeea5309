package litmus

import (
	"bytes"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/source"
)

// checkDiagnostics asserts what every rejected input must get: a
// source.List whose diagnostics all point inside the file.
func checkDiagnostics(t *testing.T, file string, src []byte, err error) {
	t.Helper()
	list, ok := err.(source.List)
	if !ok {
		t.Fatalf("error is %T, not a source.List: %v", err, err)
	}
	if len(list) == 0 {
		t.Fatal("empty diagnostic list")
	}
	lines := bytes.Split(src, []byte("\n"))
	for _, e := range list {
		if e.Pos.File != file || e.Pos.Line < 1 || e.Pos.Line > len(lines) || e.Pos.Col < 1 || e.Pos.Col > len(lines[e.Pos.Line-1])+1 {
			t.Fatalf("diagnostic outside the file: %s", e)
		}
		if e.Msg == "" {
			t.Fatalf("diagnostic without a message at %s", e.Pos)
		}
	}
}

// lineColOffset turns a position back into a byte offset of src.
func lineColOffset(src []byte, p source.Pos) int {
	off := 0
	for line := 1; line < p.Line; line++ {
		i := bytes.IndexByte(src[off:], '\n')
		if i < 0 {
			return len(src)
		}
		off += i + 1
	}
	return min(off+p.Col-1, len(src))
}

func FuzzParseHerd(f *testing.F) {
	f.Add([]byte("PTX MP\n{ x=0; y=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.weak x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.weak r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 != 1)\n"))
	f.Add([]byte("PTX L\n{ P0:r1=x; }\n P0@cta 0,gpu 0 ;\n L0: ;\n ld r0, [r1] ;\n bne r0, 1, L0 ;\nforall (x == 0 \\/ ~(0:r0 = 2))\n"))
	f.Add([]byte("PTX B\n{}\n P0@cta 0,cluster 1,gpu 0 | P1@gpu 0,cta 0 ;\n bar.cta.sync 1, 0, 2 | bar.cta.arrive 1, r2 ;\n~exists (true)\n"))
	f.Add([]byte("PTX A\n{ x=7; y @ shared = 0; b @ mbarrier 1; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n mbarrier.arrive.expect_tx b, 16 | mapa.shared::cluster r5, b, 0 ;\n cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes y, x, 16, b | mbarrier.arrive.release.cluster.shared::cluster _, [r5] ;\n mbarrier.try_wait.parity.acquire.cta r0, b, 0 | barrier.cluster.arrive.relaxed.aligned ;\nexists (0:r0 == 1)\n"))
	f.Add([]byte("PTX C\n{ x=1; y @ shared = 0; }\n P0@cta 0,gpu 0 ;\n cp.async.ca.shared.global y, x, 4 ;\n cp.async.commit_group ;\n cp.async.wait_group 0 ;\n fence.proxy.async.shared::cta ;\n cp.async.bulk.global.shared::cta.bulk_group x, y, 16 ;\n cp.async.bulk.wait_group.read 0 ;\n wgmma.mma_async.sync.aligned r1, y, y ;\nexists (x == 1)\n"))
	f.Add([]byte("PTX H\n{ x=0; H0:r3=1; cudaDevAttrHostNativeAtomicSupported = 1; }\n P0@cta 0,gpu 0,kernel K0 | H0@host | P1@cta 1,gpu 0,kernel K1 ;\n st x, 1 | cudaStreamCreateWithFlags s2, cudaStreamNonBlocking | ld r0, x ;\n | cudaLaunchKernel K0, s1 | ;\n | cudaEventRecord e, s1 ;| ;\n | cudaStreamWaitEvent s2, e | ;\n | cudaLaunchKernel K1, s2 | ;\n | L: cudaStreamQuery r1, s2 | ;\n | bne r1, 1, L | ;\n | atom.add.sys r2, x, 1 | ;\nexists (H0:r2 == 1 /\\ 2:r0 == 0)\n"))
	f.Add([]byte("PTX G\n{ x=0; }\n H0@host | P0@cta 0,gpu 0,kernel A | P1@cta 1,gpu 0,kernel B ;\n cudaSetDevice 0 | st x, 1 | ld r0, x ;\n cudaGraphAddKernelNode g, A | | ;\n cudaGraphAddEmptyNode g, j, A | | ;\n cudaGraphAddKernelNode g, B | | ;\n cudaGraphAddDependencies g, j, B | | ;\n cudaGraphLaunch g, cudaStreamPerThread | | ;\n cudaDeviceSynchronize | | ;\n cudaEventSynchronize e | | ;\nexists (P1:r0 == 0)\n"))
	f.Add([]byte("PTX X\n{ x=0; }\n H0@host | P0@cta 0,gpu 0,kernel A ;\n cudaEventCreateWithFlags e, cudaEventDisableTiming | st x, 1 ;\n cudaGraphCreate g, 0 | bar.cta.sync 0, 0, 2 ;\n cudaGraphAddKernelNode g, A | ;\n cudaGraphInstantiate ge, g, 0 | ;\n cudaGraphLaunch ge, s1 | ;\n cudaEventRecord e, s1 | ;\n cudaStreamWaitEvent s2, e, cudaEventWaitDefault | ;\n setp.ne.u32 p, r0, 1 | ;\n @p bra L | ;\n L: cudaStreamSynchronize s1 | ;\nexists (x == 0)\n"))
	f.Add([]byte("PTX T\n{ g=7; s @ shared = 0; b @ mbarrier 1; tm @ tensormap g, 16; }\n P0@cta 0,cluster 0,gpu 0 ;\n mbarrier.arrive.expect_tx b, 16 ;\n cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes s, [tm, {0, r1}], b ;\n fence.proxy.async.shared::cta ;\n cp.reduce.async.bulk.tensor.1d.global.shared::cta.add.bulk_group.L2::cache_hint [tm, {0}], s, r2 ;\nexists (g == 7)\n"))
	f.Add([]byte("PTX R\n{ x=0; f=0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st x, 1 | ld.acquire.gpu r0, f ;\n st.async.release.gpu.global.u32 f, 1 | ld r1, x ;\n red.async.release.sys.add.u64 [f], r2 | ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"))
	f.Add([]byte("PTX M\n{ g=7; s @ shared = 0; b @ mbarrier 1; tm @ tensormap g, 16; }\n P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster s, g, 16, b, 3 | mbarrier.try_wait.acquire.cluster r0, b ;\n cp.async.bulk.tensor.1d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster::32b s, [tm, {0}], b, r5, r6 | ld.shared r1, s ;\n st.async.release.gpu.global.s16 [g], -1 | ;\nexists (P1:r1 == 0)\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		const file = "fuzz.litmus"
		test, err := ParseHerd(file, src)
		if err != nil {
			checkDiagnostics(t, file, src, err)
			return
		}
		if len(test.Threads) == 0 || test.Condition == nil || test.Condition.Expr == nil {
			t.Fatalf("accepted a test without threads or condition")
		}
		// The printed condition must parse back to itself.
		printed := test.Condition.String()
		_ = ExprString(test, test.Condition.Expr)
		off := lineColOffset(src, test.Condition.Pos)
		again, err := ParseHerd(file, append(bytes.Clone(src[:off]), printed...))
		if err != nil && strings.Contains(err.Error(), "nested too deeply") {
			return // printing adds parentheses, which may cross the limit
		}
		if err != nil {
			t.Fatalf("printed condition %q does not parse back: %v", printed, err)
		}
		if got := again.Condition.String(); got != printed {
			t.Fatalf("condition %q prints back as %q", printed, got)
		}
	})
}

func FuzzParseNV(f *testing.F) {
	f.Add([]byte(".global x;\nd0.b0.t0 { st [x], 1; }\nd0.b1.t0 { ld r0, [x] == 1; }\nassert (r0 == 1) as a;\n"))
	f.Add([]byte(".global x;\n.surfref s virtually aliases x;\nd0.b0.t0 {\n  $0, 1;\n  $1\n  ld r0, [x];\n}\n$2 (r0 $3 1) as r0;\n$$\nst [x] | | assert | ==\nsust [s] | fence.proxy.surface; | permit | !=\n"))
	f.Add([]byte("/* c */ .shared x = 3; .global y physically aliases x;\nd0.c1.b0.t0 { L: atom.cas r1, [y], 0, 1; bne r1, 0, L; bar.sync 0, 2; }\ncheck (!(r1 != 0) && x == 1 || y == 2) as ok;\n"))
	f.Add([]byte(".global o;\n.shared s;\n.mbarrier b 1;\n.tmem t;\nd0.c0.b0.t0 {\n  st.shared [s], 1;\n  $0\n  cp.async.bulk.global.shared::cta.bulk_group [o], [s], 16;\n  cp.async.bulk.commit_group;\n  mbarrier.arrive [b];\n  mbarrier.test_wait r1, [b];\n  cp.async.bulk.wait_group 0;\n  ld r0, [o];\n}\n$1 (r0 $2 0) as s;\n$$\nfence.proxy.async.shared::cta; | assert | !=\n | permit | ==\n"))
	f.Add([]byte(".global x;\n.attribute cudaDevAttrHostNativeAtomicSupported = 0;\n.kernel K0 d0.b0.t0;\nh0 {\n  cudaLaunchKernel K0, s1;\n  cudaEventRecord e, s1;\n  cudaEventQuery q, e;\n  ld r0, [x];\n}\nd0.b0.t0 { st [x], 1; }\nassert (q == 0 || r0 == 1) as ok;\n"))
	f.Add([]byte(".global g = 7;\n.shared s;\n.mbarrier b 1;\n.tensormap tm g, 32;\nd0.c0.b0.t0 {\n  cp.async.bulk.tensor.1d.shared::cta.global.mbarrier::complete_tx::bytes [s], [tm, {0}], [b];\n  cp.async.bulk.tensor.1d.global.shared::cta.bulk_group [tm, {1}], [s];\n  ld r0, [g];\n}\nassert (r0 == 7) as a;\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		const file = "fuzz.test"
		tests, err := ParseNV(file, src)
		if err != nil {
			checkDiagnostics(t, file, src, err)
			return
		}
		if len(tests) == 0 {
			t.Fatal("accepted a file without tests")
		}
		for i, test := range tests {
			if len(tests) > 1 || test.Instance != 0 {
				if test.Instance != i+1 {
					t.Fatalf("instance %d numbered %d", i+1, test.Instance)
				}
			}
			if len(test.Threads) == 0 || len(test.Assertions) == 0 {
				t.Fatal("accepted a test without threads or commands")
			}
			for _, a := range test.Assertions {
				_ = ExprString(test, a.Expr)
			}
		}
	})
}
