package cuda

import (
	"errors"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/gpu"
)

// TestOpenWithoutDriver: a missing library is gpu.ErrNoDriver, with the
// places looked in.
func TestOpenWithoutDriver(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "libcuda.so.1")
	_, err := Open(missing)
	require.Error(t, err)
	require.True(t, errors.Is(err, gpu.ErrNoDriver))
	require.Contains(t, err.Error(), missing)
	require.Contains(t, err.Error(), "-driver or $PTXMM_LIBCUDA")
}

// TestLibraryPaths: $PTXMM_LIBCUDA comes first, then the loader's path.
func TestLibraryPaths(t *testing.T) {
	t.Setenv("PTXMM_LIBCUDA", "/opt/x/libcuda.so.1")
	paths := libraryPaths()
	require.Equal(t, []string{"/opt/x/libcuda.so.1", "libcuda.so.1"}, paths[:2])
	require.Contains(t, paths, "/usr/local/nvidia/lib64/libcuda.so.1")
}

// TestLaunchConfig: the cluster attribute is CUlaunchConfig's layout.
func TestLaunchConfig(t *testing.T) {
	var attrs [1]launchAttribute
	cfg := config(gpu.Launch{Grid: 8, Block: 64, Cluster: 2, Shared: 4096}, &attrs)
	require.Equal(t, uint32(8), cfg.gridX)
	require.Equal(t, uint32(4096), cfg.shared)
	require.Equal(t, uint32(1), cfg.numAttrs)
	require.Equal(t, uint32(launchAttrClusterDimision), attrs[0].id)
	require.Equal(t, uint64(2|1<<32), attrs[0].value[0])
	cfg = config(gpu.Launch{Grid: 8, Block: 64, Cluster: 1}, &attrs)
	require.Zero(t, cfg.numAttrs)
}
