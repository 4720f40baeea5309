package fake

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/gpu"
)

// TestFakeRefusesWhatTheDriverRefuses: bad launches fail as the driver's
// would; memory outside allocations is an illegal address.
func TestFakeRefusesWhatTheDriverRefuses(t *testing.T) {
	d := New(H100(), nil)
	k, err := d.Load(".visible .entry litmus(.param .u64 p)\n{ ret; }", "litmus")
	require.NoError(t, err)
	_, err = d.Load("// nothing", "litmus")
	require.ErrorContains(t, err, "no entry litmus")
	for _, tc := range []struct {
		l    gpu.Launch
		want string
	}{
		{gpu.Launch{Grid: 4, Block: 2048}, "1 to 1024"},
		{gpu.Launch{Grid: 3, Block: 64, Cluster: 2}, "not a whole number of clusters"},
		{gpu.Launch{Grid: 16, Block: 64, Cluster: 16}, "not portable"},
		{gpu.Launch{Grid: 1, Block: 64, Shared: 1 << 20}, "shared memory"},
	} {
		require.ErrorContains(t, k.Launch(tc.l), tc.want)
	}
	require.NoError(t, k.Launch(gpu.Launch{Grid: 4, Block: 64, Cluster: 2}))
	require.Len(t, d.Launches(), 1)
	p, err := d.Alloc(16)
	require.NoError(t, err)
	require.NoError(t, d.Write(p, []byte{1, 2, 3}))
	b := make([]byte, 3)
	require.NoError(t, d.Read(b, p))
	require.Equal(t, []byte{1, 2, 3}, b)
	require.ErrorContains(t, d.Read(make([]byte, 32), p), "ILLEGAL_ADDRESS")
	require.NoError(t, d.Free(p))
	require.Error(t, d.Free(p))
	n, err := k.MaxActiveBlocks(64, 0, 2)
	require.NoError(t, err)
	require.Equal(t, 8*132, n)
}
