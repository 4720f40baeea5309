package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/fake"
)

// runWith runs ptxmm run with a fake driver whose kernel leaves the
// results at 0 (every instance of a test reads the initial values).
func runWith(t *testing.T, drv gpu.Driver, args ...string) (int, string, string) {
	t.Helper()
	var out, errs bytes.Buffer
	status := runCommand(args, &out, &errs, func(string) (gpu.Driver, error) {
		if drv == nil {
			return nil, errors.Join(gpu.ErrNoDriver, errors.New("libcuda.so.1 not found"))
		}
		return drv, nil
	})
	return status, out.String(), errs.String()
}

// ranAll marks every role as having run: the fake kernel writes status 1.
func ranAll(_ string, l gpu.Launch, mem *fake.Memory) error { return nil }

// TestRunWithoutDriver: no driver, exit 2, and a word on what is needed.
func TestRunWithoutDriver(t *testing.T) {
	status, _, errs := runWith(t, nil, filepath.Join("..", "..", "examples", "MP.litmus"))
	require.Equal(t, 2, status)
	require.Contains(t, errs, "needs an NVIDIA GPU and its driver")
}

// TestRunFlags: bad flags and presets are refused before the driver is
// opened.
func TestRunFlags(t *testing.T) {
	mp := filepath.Join("..", "..", "examples", "MP.litmus")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-preset", "fast", mp}, `unknown preset "fast"`},
		{[]string{"-groups", "99", mp}, "-groups must be 1 to 32"},
		{[]string{"-stress-pattern", "zz", mp}, "-stress-pattern"},
		{[]string{}, "no tests given"},
	} {
		status, _, errs := runWith(t, nil, tc.args...)
		require.Equal(t, 2, status, tc.args)
		require.Contains(t, errs, tc.want)
	}
}

// TestRunFakeJSON: a run on the fake device whose kernel leaves results
// unwritten reports the harness fault, and the flags reach the
// parameters.
func TestRunFakeJSON(t *testing.T) {
	d := fake.New(fake.H100(), ranAll)
	status, out, errs := runWith(t, d, "-json", "-seed", "5", "-iterations", "2", "-ctas", "4", "-preset", "plain", filepath.Join("..", "..", "examples", "MP.litmus"))
	require.Equal(t, 2, status)
	require.Contains(t, errs, "did not run (a fault of the harness")
	var rec map[string]any
	require.NoError(t, json.Unmarshal([]byte(strings.TrimSpace(out)), &rec))
	require.Contains(t, rec["params"], "-preset plain -seed 5 -iterations 2 -ctas 4")
	require.Equal(t, "Fake H100", rec["gpu"].(map[string]any)["name"])
	require.True(t, d.Closed())
}

// TestRunKeep: -keep writes each test's module and the driver's machine
// code of it, and says when no disassembler makes the listings.
func TestRunKeep(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir := filepath.Join(t.TempDir(), "kept")
	d := fake.New(fake.H100(), ranAll)
	d.Compile = func(ptx string) ([]byte, error) { return []byte("cubin of " + ptx), nil }
	_, _, errs := runWith(t, d, "-keep", dir, "-iterations", "1", filepath.Join("..", "..", "examples", "MP.litmus"))
	require.Contains(t, errs, "-keep: neither cuobjdump nor nvdisasm is on the PATH")
	require.FileExists(t, filepath.Join(dir, "MP.ptx"))
	require.FileExists(t, filepath.Join(dir, "MP.cubin"))
	require.NoFileExists(t, filepath.Join(dir, "MP.sass"))
}
