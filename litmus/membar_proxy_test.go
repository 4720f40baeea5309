package litmus

import (
	"testing"

	"github.com/stretchr/testify/require"
)

// TestMembarProxyIsFenceProxy checks that the old spelling membar.proxy.KIND
// parses to the proxy fence that fence.proxy.KIND does.
func TestMembarProxyIsFenceProxy(t *testing.T) {
	cases := []struct{ membar, fence string }{
		{"membar.proxy.alias", "fence.proxy.alias"},
		{"membar.proxy.async", "fence.proxy.async"},
		{"membar.proxy.async.global", "fence.proxy.async.global"},
		{"membar.proxy.async.shared::cta", "fence.proxy.async.shared::cta"},
		{"membar.proxy.async.shared::cluster", "fence.proxy.async.shared::cluster"},
	}
	parse := func(t *testing.T, fence string) *Instr {
		t.Helper()
		test, err := ParseHerd("t.litmus", []byte(herdWith(" "+fence+" | ld r0, x ;")))
		require.NoError(t, err)
		return test.Threads[0].Instrs[0]
	}
	for _, tc := range cases {
		t.Run(tc.membar, func(t *testing.T) {
			got, want := parse(t, tc.membar), parse(t, tc.fence)
			require.Equal(t, OpProxyFence, got.Op)
			require.Equal(t, want.Op, got.Op)
			require.Equal(t, want.Proxy, got.Proxy)
			require.Equal(t, want.Alias, got.Alias)
			require.Equal(t, want.SpaceQ, got.SpaceQ)
		})
	}
}
