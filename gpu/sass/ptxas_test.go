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

// knownChanges are the changes ptxas (12.4 and later, for sm_90) makes
// to the shipped examples' threads, by test and thread, with what the
// check says of each. Each is a legal compilation of the PTX the check
// must still detect and report; the test fails on any other report (a
// false change of the check, or a new change to look at and add here
// with its reason).
var knownChanges = map[string]string{
	// Two weak loads of one location with nothing between them: merged
	// into one (allowed: weak loads may be merged).
	"CoRR+weak/P1": "changed its memory operations: ld 2 in the PTX, 1 in the machine code",
	// The load after the thread's own byte store of the location is
	// forwarded from the store (allowed for a weak load).
	"Store-u8-truncates/P0": "changed its memory operations: ld 1 in the PTX, 0 in the machine code",
	// atom.cas.b16 has no 16-bit machine instruction: a 32-bit CAS loop
	// that first loads the word.
	"Mixed-size-atomics/P1": "changed its memory operations: ld 0 in the PTX, 1 in the machine code",
	// The acquire of a .cta test_wait or try_wait whose result is not
	// branched on is not waited for: the access after it issues before
	// SYNCS.PHASECHK returns (docs/hardware.md, Alarms). At .cluster
	// scope ptxas adds a CCTL.IVALL, predicated on the result, that waits
	// for it (MBar-remote-arrive-cluster, MBar-local-plus-remote).
	"MBar-two-arrivals/P2":                     "does not wait for its acquire, memory operation 1 (mbar",
	"MP+mbarrier/P1":                           "does not wait for its acquire, memory operation 1 (mbar",
	"MBar-one-of-two-arrivals/P1":              "does not wait for its acquire, memory operation 1 (mbar",
	"MBar-local-plus-remote-cta-wait/P2":       "does not wait for its acquire, memory operation 1 (mbar",
	"MBar-local-plus-remote-cta-wait-stale/P2": "does not wait for its acquire, memory operation 1 (mbar",
}

// TestExamplesKept compiles every supported shipped example's threads
// with ptxas and checks them: every example is checked (those whose
// module needs a newer PTX ISA than ptxas knows are counted apart), the
// known changes (knownChanges) are detected and reported, and no other
// thread is reported changed.
func TestExamplesKept(t *testing.T) {
	path := ptxas(t)
	d, err := FindDisassembler()
	if err != nil {
		t.Skip(err)
	}
	dev := gpu.Device{Major: 9, Minor: 0, Driver: 13000, Clusters: true}
	c := &Checker{Disassembler: d, Compile: ptxasCompile(path)}
	new86 := supportsPTX86(path)
	root := filepath.Join("..", "..", "examples")
	checked, newer := 0, 0
	reported := map[string]string{}
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
				continue // refused when planned, as ptxmm run refuses it
			}
			if _, err := plan.Module("sm_90"); err != nil {
				continue // refused when generated, as ptxmm run refuses it
			}
			if plan.Version != "8.4" && !new86 {
				newer++
				continue
			}
			rep, err := c.Check(nil, plan, "sm_90")
			if err != nil {
				t.Errorf("%s (%s): %v", tc.Name, p, err)
				continue
			}
			checked++
			for _, th := range rep.Threads {
				if th.Changed != "" {
					reported[tc.Name+"/"+th.Name] = th.Changed
				}
			}
		}
		return nil
	})
	require.NoError(t, err)
	t.Logf("%d tests checked, %d need a newer ptxas", checked, newer)
	require.Greater(t, checked, 80)
	for k, msg := range reported {
		want, ok := knownChanges[k]
		if !ok || !strings.HasPrefix(msg, want) {
			t.Errorf("%s: unexpected report: %s", k, msg)
		}
	}
	for k, want := range knownChanges {
		if _, ok := reported[k]; !ok {
			t.Errorf("%s: the change %q was not reported", k, want)
		}
	}
}

// supportsPTX86 asks ptxas whether it knows PTX ISA 8.6 (CUDA 12.8).
func supportsPTX86(ptxas string) bool {
	out, _ := exec.Command(ptxas, "--version").CombinedOutput()
	var major, minor int
	if i := strings.Index(string(out), "release "); i >= 0 {
		fmt.Sscanf(string(out[i:]), "release %d.%d", &major, &minor)
	}
	return major > 12 || major == 12 && minor >= 8
}
