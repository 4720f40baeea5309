package sass

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
	"github.com/ptxmm/ptxmm/litmus"
)

// ptxas finds ptxas ($PTXMM_PTXAS, or on the PATH), skipping the test
// without it: CI has no CUDA toolkit.
func ptxas(t *testing.T) string {
	t.Helper()
	if p := os.Getenv("PTXMM_PTXAS"); p != "" {
		return p
	}
	p, err := exec.LookPath("ptxas")
	if err != nil {
		t.Skip("ptxas not found (set $PTXMM_PTXAS or put the CUDA toolkit on the PATH); skipping the machine-code check of the examples")
	}
	return p
}

// ptxasCompile compiles PTX for sm_90 with ptxas.
func ptxasCompile(path string) func(string) ([]byte, error) {
	return func(ptx string) ([]byte, error) {
		dir, err := os.MkdirTemp("", "ptxmm-ptxas")
		if err != nil {
			return nil, err
		}
		defer os.RemoveAll(dir)
		in, out := filepath.Join(dir, "m.ptx"), filepath.Join(dir, "m.cubin")
		if err := os.WriteFile(in, []byte(ptx), 0o644); err != nil {
			return nil, err
		}
		if msg, err := exec.Command(path, "-arch=sm_90", in, "-o", out).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("ptxas: %v\n%s", err, msg)
		}
		return os.ReadFile(out)
	}
}

// TestExamplesKept compiles every supported shipped example's threads
// with ptxas and checks that ptxas kept their memory operations and
// fences (the modules that need a newer PTX ISA than ptxas knows are
// skipped).
func TestExamplesKept(t *testing.T) {
	path := ptxas(t)
	d, err := FindDisassembler()
	if err != nil {
		t.Skip(err)
	}
	dev := gpu.Device{Major: 9, Minor: 0, Driver: 13000, Clusters: true}
	c := &Checker{Disassembler: d, Compile: ptxasCompile(path)}
	root := filepath.Join("..", "..", "examples")
	checked := 0
	err = filepath.WalkDir(root, func(p string, de os.DirEntry, err error) error {
		if err != nil || de.IsDir() || !(strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")) {
			return err
		}
		tests, err := litmus.ParseFile(p)
		require.NoError(t, err)
		for _, tc := range tests {
			if ptxgen.Support(tc, dev) != nil {
				continue
			}
			plan, err := ptxgen.NewPlan(tc)
			if err != nil {
				continue
			}
			if plan.Version != "8.4" {
				continue
			}
			rep, err := c.Check(nil, plan, "sm_90")
			if err != nil {
				if strings.Contains(err.Error(), "ptxas") || strings.Contains(err.Error(), "address") {
					require.NoError(t, err, p)
				}
				continue
			}
			checked++
			for _, th := range rep.Threads {
				if th.Changed != "" {
					t.Errorf("%s %s: %s (PTX %v, machine code %v)", tc.Name, th.Name, th.Changed, th.Want, th.Got)
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	require.Greater(t, checked, 50)
}
