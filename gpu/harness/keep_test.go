package harness

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/gpu/fake"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
	"github.com/ptxmm/ptxmm/gpu/sass"
)

// fakeCuobjdump writes a script that prints a fixed cuobjdump listing of
// one function per kernel of the module compiled by the fake driver
// (whose "cubin" is the PTX itself), with the encodings.
func fakeCuobjdump(t *testing.T) sass.Disassembler {
	t.Helper()
	dir := t.TempDir()
	script := `#!/bin/sh
for f in $(grep -o 'entry [a-z0-9_]*' "$2" | cut -d' ' -f2); do
  echo "		Function : $f"
  echo "        /*0000*/                   LDS R4, [R3] ;   /* 0x0000000003047984 */"
  echo "                                                    /* 0x000ee20000000800 */"
  echo "        /*0010*/                   STG.E.EF.64 desc[UR4][R2.64], R4 ;"
done
`
	path := filepath.Join(dir, "cuobjdump")
	require.NoError(t, os.WriteFile(path, []byte(script), 0o755))
	return sass.Disassembler{Path: path}
}

// TestKeep writes the module that ran, its machine code and the listing
// with the control bits, and with -sass the optcheck module's too.
func TestKeep(t *testing.T) {
	test := parseTest(t, "MP+fences.litmus", mpFenced)
	dir := filepath.Join(t.TempDir(), "kept")
	d := fakeCuobjdump(t)
	plan, err := ptxgen.NewPlan(test)
	require.NoError(t, err)
	drv := fake.New(smallGPU(), player(func() *ptxgen.Plan { return plan }, func(_, _ int) (map[string]int64, bool) {
		return map[string]int64{"P1:r0": 0, "P1:r1": 0}, false
	}))
	drv.Compile = func(ptx string) ([]byte, error) { return []byte(ptx), nil }
	cfg := Config{Params: testParams(t, "plain"), Model: defaultModel(t), Options: checker.DefaultOptions(),
		Keep: &Keeper{Dir: dir, Disassembler: &d}, SASS: &sass.Checker{Disassembler: d}}
	o := Run(drv, test, cfg)
	require.NoError(t, o.Err)
	for _, f := range []string{"MP+fences.ptx", "MP+fences.cubin", "MP+fences.sass", "MP+fences.optcheck.ptx", "MP+fences.optcheck.cubin", "MP+fences.optcheck.sass"} {
		require.FileExists(t, filepath.Join(dir, f))
	}
	ptx, err := os.ReadFile(filepath.Join(dir, "MP+fences.ptx"))
	require.NoError(t, err)
	require.Equal(t, o.Module, string(ptx))
	listing, err := os.ReadFile(filepath.Join(dir, "MP+fences.optcheck.sass"))
	require.NoError(t, err)
	require.Equal(t, "Function role0\n0000  B------:R-:W3:Y:S01  LDS R4, [R3]\n0010  -                    STG.E.EF.64 desc[UR4][R2.64], R4\n\nFunction role1\n", string(listing[:strings.Index(string(listing), "Function role1\n")+len("Function role1\n")]))

	// Without a linker, the test fails and says why.
	drv.Compile = nil
	o = Run(drv, test, cfg)
	require.ErrorContains(t, o.Err, "-keep: compiling MP+fences.ptx to machine code: the fake driver compiles no machine code")
}

// TestRunRecovers: a bug of ptxmm's in one test (here a panic in the
// compiler the -sass check calls) fails that test with an error instead
// of ending the run.
func TestRunRecovers(t *testing.T) {
	test := parseTest(t, "MP+fences.litmus", mpFenced)
	drv := fake.New(smallGPU(), nil)
	cfg := Config{Params: testParams(t, "plain"), Model: defaultModel(t), Options: checker.DefaultOptions(),
		SASS: &sass.Checker{Compile: func(string) ([]byte, error) { panic("boom") }}}
	o := Run(drv, test, cfg)
	require.ErrorContains(t, o.Err, "internal error (a bug in ptxmm: please report it with the test): boom")
}

// TestKeepName: the file names of kept code need no quoting.
func TestKeepName(t *testing.T) {
	test := parseTest(t, "t.litmus", strings.Replace(mpFenced, "MP+fences", "MP+fences[a/b]", 1))
	require.Equal(t, "MP+fences_a_b_", keepName(&Outcome{Test: test}))
	test.Instance = 3
	require.Equal(t, "MP+fences_a_b_.3", keepName(&Outcome{Test: test}))
}
