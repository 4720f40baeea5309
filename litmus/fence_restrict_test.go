package litmus

import "testing"

// TestRestrictedFencesUnsupported checks that the restricted fences, which
// ptxmm does not model, are rejected with an error that names them.
func TestRestrictedFencesUnsupported(t *testing.T) {
	cases := []struct{ fence, msg, at string }{
		{"fence.acquire.sync_restrict::shared::cluster.cluster", "fence.acquire.sync_restrict::shared::cluster.cluster is not supported: ptxmm does not model restricted fences", "4:15"},
		{"fence.release.sync_restrict::shared::cta.cluster", "fence.release.sync_restrict::shared::cta.cluster is not supported: ptxmm does not model restricted fences", "4:15"},
		{"fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster", "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster is not supported: ptxmm does not model the unidirectional proxy fences", "4:13"},
		{"fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster", "is not supported: ptxmm does not model the unidirectional proxy fences", "4:13"},
		{"fence.proxy.tensormap::generic.release.gpu", "fence.proxy.tensormap::generic.release.gpu is not supported: ptxmm does not model the unidirectional proxy fences", "4:13"},
	}
	for _, tc := range cases {
		t.Run(tc.fence, func(t *testing.T) {
			_, err := ParseHerd("t.litmus", []byte(herdWith(" "+tc.fence+" | ld r0, x ;")))
			requireDiagnostic(t, err, tc.msg, tc.at)
		})
	}
}
