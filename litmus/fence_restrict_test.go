package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRestrictedFences checks the two restricted fences of the fence page
// (PTX ISA 8.6) and the two unidirectional proxy fences that take the same
// restrictions: the restriction becomes the fence's SpaceQ, the state
// space on whose objects its effect applies; the proxy fences are async
// proxy fences with a memory order.
func TestRestrictedFences(t *testing.T) {
	cases := []struct {
		fence string
		op    Op
		proxy Proxy
		sem   Sem
		space SpaceQual
	}{
		{"fence.release.sync_restrict::shared::cta.cluster", OpFence, ProxyGeneric, SemRelease, SpaceQShared},
		{"fence.acquire.sync_restrict::shared::cluster.cluster", OpFence, ProxyGeneric, SemAcquire, SpaceQCluster},
		{"fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster", OpProxyFence, ProxyAsync, SemRelease, SpaceQShared},
		{"fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster", OpProxyFence, ProxyAsync, SemAcquire, SpaceQCluster},
	}
	for _, tc := range cases {
		t.Run(tc.fence, func(t *testing.T) {
			tt, err := ParseHerd("t.litmus", []byte(herdWith(" "+tc.fence+" | ld r0, x ;")))
			require.NoError(t, err)
			in := tt.Threads[0].Instrs[0]
			assert.Equal(t, tc.op, in.Op)
			assert.Equal(t, tc.proxy, in.Proxy)
			assert.Equal(t, tc.sem, in.Sem)
			assert.Equal(t, ScopeCluster, in.Scope)
			assert.Equal(t, tc.space, in.SpaceQ)
		})
	}
}

// TestRestrictedFenceErrors checks the combinations the fence page rules
// out for the restricted fences and the unidirectional proxy fences, and
// the forms ptxmm does not model, each with an error at the qualifier at
// fault.
func TestRestrictedFenceErrors(t *testing.T) {
	cases := []struct{ fence, msg, at string }{
		{"fence.acquire.sync_restrict::shared::cta.cluster", ".sync_restrict::shared::cta requires .release", "4:7"},
		{"fence.release.sync_restrict::shared::cluster.cluster", ".sync_restrict::shared::cluster requires .acquire", "4:7"},
		{"fence.sync_restrict::shared::cta.cluster", ".sync_restrict::shared::cta requires .release", "4:7"},
		{"fence.acq_rel.sync_restrict::shared::cta.cluster", ".sync_restrict::shared::cta requires .release", "4:7"},
		{"fence.release.sync_restrict::shared::cta.gpu", "requires the scope .cluster, not .gpu", "4:42"},
		{"fence.release.sync_restrict::shared::cta", "needs a scope", "4:2"},
		{"fence.release.sync_restrict::shared::cluster::read.cluster", "is not supported: .sync_restrict::shared::cluster::read (PTX ISA 9.4)", "4:15"},
		{"fence.release.sync_restrict::global.cluster", "unknown restriction .sync_restrict::global", "4:15"},
		{"fence.release.sync_restrict::shared::cta.sync_restrict::shared::cta.cluster", "fence has two restrictions", "4:42"},
		{"fence.proxy.async::generic.acquire.sync_restrict::shared::cta.cluster", ".sync_restrict::shared::cta requires .release", "4:28"},
		{"fence.proxy.async::generic.release.sync_restrict::shared::cta.gpu", "requires the scope .cluster, not .gpu", "4:63"},
		{"fence.proxy.async::generic.release.cluster", "needs a memory order, a restriction and a scope", "4:13"},
		{"fence.proxy.async::generic.acq_rel.sync_restrict::shared::cta.cluster", "unexpected qualifier .acq_rel", "4:28"},
		{"fence.proxy.async::generic.release.sync_restrict::shared::cluster::read.cluster", "makes fence.proxy.async::generic.release a non-cumulative fence", "4:36"},
		{"fence.proxy.tensormap::generic.release.gpu", "fence.proxy.tensormap::generic.release.gpu is not supported: ptxmm does not model the tensormap proxy", "4:13"},
	}
	for _, tc := range cases {
		t.Run(tc.fence, func(t *testing.T) {
			_, err := ParseHerd("t.litmus", []byte(herdWith(" "+tc.fence+" | ld r0, x ;")))
			requireDiagnostic(t, err, tc.msg, tc.at)
		})
	}
}
