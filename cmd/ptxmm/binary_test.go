package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// binDir holds the ptxmm binary the tests that run it as a user does
// (signals, a terminal) build once; TestMain removes it.
var binDir string

var builtBinary = sync.OnceValues(func() (string, error) {
	dir, err := os.MkdirTemp("", "ptxmm-bin")
	if err != nil {
		return "", err
	}
	binDir = dir
	bin := filepath.Join(dir, "ptxmm")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		return "", errors.New(string(out))
	}
	return bin, nil
})

// ptxmmBinary returns the path of a ptxmm binary built from this tree.
func ptxmmBinary(t *testing.T) string {
	t.Helper()
	bin, err := builtBinary()
	require.NoError(t, err)
	return bin
}

// removeBuiltBinary removes what builtBinary made.
func removeBuiltBinary() {
	if binDir != "" {
		os.RemoveAll(binDir)
	}
}
