package cli

import (
	"bytes"
	"path/filepath"
	"regexp"
	"sort"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
)

// TestDiffVariants runs ptxmm diff of spec.dl against each variant over the
// shipped tests and asserts exactly which tests differ.
func TestDiffVariants(t *testing.T) {
	spec := specModel(t)
	cases := []struct {
		variant string
		differ  []string
	}{
		{"fence-sc-not-acq-rel", []string{"MP+fence.sc+acquire"}},
		// The arrive-on operations of an mbarrier phase read one another's
		// updates: a one-step observation order loses the earlier arrives.
		{"obs-one-step", []string{"BulkLoad+expect_tx", "BulkLoad-complete_tx-before-expect_tx", "BulkLoad-complete_tx-prior-store+arrive", "BulkLoad-shared-cta-remote-destination", "BulkLoad-size-register",
			"BulkLoad-size-register-unaligned", "BulkLoad-source-overwritten-other-thread", "BulkLoad-two-copies-one-phase", "BulkLoad-two-copies-one-phase-short-tx", "CpAsync+mbarrier-inc", "CpAsync+mbarrier-inc-store+release", "MBar-local-plus-remote", "MBar-local-plus-remote-cta-wait", "MBar-two-arrivals", "MBar-two-arrivals+ctrl", "MBar-two-arrivals+try_wait-loop", "MP+red-chain", "MP+rmw-chain", "MP+rmw-chain-two",
			"RedAsync-one-of-two", "RedAsync-two-producers", "StAsync+wait", "StAsync-no-expect_tx", "StAsync-prior-store", "StAsync-two-stores",
			"TMA-load-wait-consume", "TMA-load-wait-consume-short-tx", "TMA-multicast", "TMA-remote-issuer-cluster-wait", "TMA-remote-loop-cluster-wait", "TMA-ring-2x3", "TMA-ring-2x3-no-empty-wait", "TMA-ring-2x3-read-before-wait",
			"TMA-ring-2x3-wrong-parity", "TMA-ring-refill-after-write", "TMA-ring-refill-after-write-flag",
			"TensorLoad+expect_tx", "TensorLoad-multicast", "TensorLoad-remote-cluster-wait", "TensorLoad-two-boxes-one-phase", "TensorLoad-two-boxes-short-tx"}},
		{"nta-data-only", []string{"LB+ctrl", "NTA+cas"}},
		{"causality-alloy", nil},
		{"no-sc-per-location", nil},
		// Without proxies, the missing proxy fences of the async-proxy,
		// surface, texture and alias tests make no difference; and a
		// generic store or atom on a bulk reduction's destination is
		// morally strong with it, so atomic.
		{"ptx-v6.0", []string{"BulkLoad-source-after-acquire", "BulkLoad-source-generic-store", "BulkLoad-source-generic-store+fence.proxy.async.shared", "BulkReduce-atom-on-destination", "BulkReduce-store-to-destination", "BulkStore-after-acquire", "BulkStore-no-proxy-fence", "BulkStore-source-refilled-by-generic-store", "CoWR+alias-nofence", "CoWW+surface-no-fence", "MBar-own-arrive-refill", "MP+alias-fence-before-write", "MP+alias-flag", "MP+ld-global-nc", "MP+surface-fence-no-texture-fence", "Multimem-alias-nofence", "ProxyFence-cta-space-remote-write", "ProxyFence-writer-other-cta-no-fence", "Smem-no-proxy-fence", "Smem-release-no-proxy-fence-other-thread", "Surface-host-roundtrip", "Surface-nofence", "Surface-same-kernel",
			"TMA-ring-refill-after-write-flag", "TMA-store-no-proxy-fence", "TMA-store[2]", "TensorLoad-source-generic-store", "TensorStore-no-proxy-fence", "Texture-running-kernel", "UniProxyFence-acquire-war-nofence", "WRC+alias-no-fence", "WRC+surface-fence-other-cta", "Wgmma-no-proxy-fence"}},
	}
	for _, c := range cases {
		t.Run(c.variant, func(t *testing.T) {
			v, err := loader.LoadFile(filepath.Join("..", "..", "variants", c.variant+".dl"))
			require.NoError(t, err)
			var out, errs bytes.Buffer
			status := Diff(DiffConfig{A: spec, B: v, NameA: "spec", NameB: c.variant, Options: checker.DefaultOptions(),
				Files: []string{filepath.Join("..", "..", "examples")}}, &out, &errs)
			require.Empty(t, errs.String())
			var got []string
			for _, m := range regexp.MustCompile(`(?m)^Test (\S+)$`).FindAllStringSubmatch(out.String(), -1) {
				got = append(got, m[1])
			}
			sort.Strings(got)
			require.Equal(t, c.differ, got, out.String())
			if len(c.differ) == 0 {
				require.Equal(t, ExitOK, status)
			} else {
				require.Equal(t, ExitMismatch, status)
				// Every difference names a candidate and the rejecting check's witness.
				require.Contains(t, out.String(), "candidate: ")
				require.Regexp(t, `rejects it by \w+: .* -\w+-> `, out.String())
			}
		})
	}
}
