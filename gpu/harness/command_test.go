package harness

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/fake"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
	"github.com/ptxmm/ptxmm/litmus"
)

// fakeForFiles is a fake device whose kernel plays every instance's
// outcome from values, whatever the test (registers and locations the
// values do not name stay 0).
func fakeForFiles(t *testing.T, values map[string]int64) *fake.Driver {
	t.Helper()
	var plan *ptxgen.Plan
	drv := fake.New(smallGPU(), nil)
	drv.Run = func(ptx string, l gpu.Launch, mem *fake.Memory) error {
		if plan == nil || !strings.Contains(ptx, "test "+plan.Test.Name+" ") {
			plan = planOf(t, ptx)
		}
		return player(func() *ptxgen.Plan { return plan }, func(int, int) (map[string]int64, bool) { return values, false })(ptx, l, mem)
	}
	return drv
}

// planOf finds the plan of the test a module was made of (its header
// names the test's file).
func planOf(t *testing.T, ptx string) *ptxgen.Plan {
	t.Helper()
	for _, tc := range testFiles {
		if strings.Contains(ptx, "("+filepath.Base(tc.path)+")") {
			tests, err := litmus.ParseFile(tc.path)
			require.NoError(t, err)
			p, err := ptxgen.NewPlan(tests[0])
			require.NoError(t, err)
			return p
		}
	}
	t.Fatalf("no test for the module")
	return nil
}

var testFiles []struct{ path, src string }

// writeTests writes test files into a directory.
func writeTests(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	testFiles = nil
	for name, src := range files {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(src), 0o644))
		testFiles = append(testFiles, struct{ path, src string }{p, src})
	}
	return dir
}

const mpTest = "PTX MP\n{ x = 0; y = 0; }\n P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;\n st.relaxed.gpu x, 1 | ld.acquire.gpu r0, y ;\n st.release.gpu y, 1 | ld.relaxed.gpu r1, x ;\nexists (P1:r0 == 1 /\\ P1:r1 == 0)\n"

const tcTest = "PTX TC\n{ d @ tmem = 0; a @ shared = 1; b @ shared = 2; }\n P0@cta 0,gpu 0 ;\n tcgen05.mma d, a, b ;\nexists (x == 0)\n"

// TestMainExitStatus: an alarm exits 1; a refused test exits 2 unless
// -skip-unsupported; the log names the refusal.
func TestMainExitStatus(t *testing.T) {
	cfg := Config{Params: testParams(t, "pte"), Model: defaultModel(t), Options: checker.DefaultOptions()}
	for _, tc := range []struct {
		name   string
		files  map[string]string
		values map[string]int64
		skip   bool
		status int
		out    string
	}{
		{"allowed", map[string]string{"MP.litmus": mpTest}, map[string]int64{"P1:r0": 1, "P1:r1": 1}, false, ExitOK, "Histogram (1 states)"},
		{"alarm", map[string]string{"MP.litmus": mpTest}, map[string]int64{"P1:r0": 1, "P1:r1": 0}, false, ExitAlarm, "Alarm MP 1:r0=1; 1:r1=0; observed"},
		{"refused", map[string]string{"TC.litmus": strings.Replace(tcTest, "x == 0", "P0:r0 == 0", 1)}, nil, false, ExitError, "Refused TC:"},
		{"skipped", map[string]string{"TC.litmus": strings.Replace(tcTest, "x == 0", "P0:r0 == 0", 1)}, nil, true, ExitOK, "sm_100a"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := writeTests(t, tc.files)
			var stdout, stderr, table bytes.Buffer
			status := Main(Command{Config: cfg, Files: []string{dir}, SkipUnsupported: tc.skip, Table: &table}, fakeForFiles(t, tc.values), &stdout, &stderr)
			require.Equal(t, tc.status, status, stderr.String())
			require.Contains(t, stdout.String()+stderr.String(), tc.out)
			require.Contains(t, table.String(), "| test | model | instances |")
		})
	}
}

// TestClusterLaunch: a test whose CTAs share a cluster launches clusters
// of that size, with the instances' shared memory.
func TestClusterLaunch(t *testing.T) {
	test := parseTest(t, "cl.litmus", `PTX CL
{ y @ shared = 0; b @ mbarrier 1; }
 P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;
 L: | mapa.shared::cluster r1, y, 0 ;
 mbarrier.try_wait.acquire.cluster r0, b | mapa.shared::cluster r2, b, 0 ;
 bne r0, 1, L | st.shared::cluster [r1], 42 ;
 ld.shared r3, y | mbarrier.arrive.release.cluster.shared::cluster _, [r2] ;
exists (P0:r3 != 42)
`)
	o, drv := runFake(t, test, testParams(t, "stress"), func(int, int) (map[string]int64, bool) {
		return map[string]int64{"P0:r3": 42}, false
	})
	require.NoError(t, o.Err)
	require.NoError(t, o.Refused)
	for _, l := range drv.Launches() {
		require.Equal(t, 2, l.Cluster)
		require.Zero(t, l.Grid%2)
		require.Equal(t, 64, l.Block) // two groups of one warp
		require.Equal(t, 64*o.Plan.SharedBytes, l.Shared)
	}
	require.Contains(t, o.Module, "mapa.shared::cluster.u64")
	require.Contains(t, o.Module, "barrier.cluster.arrive.release")
	require.Contains(t, o.Module, "$ALIVE0")
	require.Empty(t, o.Alarms())
}

// TestFitShape: the CTAs of a launch must all fit on the device; the
// stress is cut first, then the testing CTAs, each with a note.
func TestFitShape(t *testing.T) {
	test := parseTest(t, "mp.litmus", mpTest)
	plan, err := ptxgen.NewPlan(test)
	require.NoError(t, err)
	drv := fake.New(smallGPU(), nil)
	drv.BlocksPerSM = 2 // 8 CTAs on the device
	k, err := drv.Load("// .entry litmus(", "litmus")
	require.NoError(t, err)
	par := testParams(t, "stress")
	par.CTAs, par.StressCTAs = 6, 6
	s, err := fitShape(par, plan, k)
	require.NoError(t, err)
	require.Equal(t, 3, s.rows)
	require.Equal(t, 2, s.stress)
	require.Len(t, s.notes, 1)
	require.Contains(t, s.notes[0], "stressing CTAs cut from 6 to 2")
	par.CTAs, par.StressCTAs = 20, 0
	s, err = fitShape(par, plan, k)
	require.NoError(t, err)
	require.Equal(t, 4, s.rows)
	require.Contains(t, s.notes[0], "testing CTAs cut from 20 to 8")
}

// TestParams: presets, and the flags' checks naming the flag.
func TestParams(t *testing.T) {
	for _, name := range PresetNames() {
		p, err := Preset(name, 132)
		require.NoError(t, err)
		require.NoError(t, p.Validate())
	}
	_, err := Preset("fast", 132)
	require.ErrorContains(t, err, `unknown preset "fast": expected plain, pte, stress`)
	p, _ := Preset("pte", 132)
	require.Equal(t, 264, p.CTAs)
	for _, tc := range []struct {
		set  func(*Params)
		want string
	}{
		{func(p *Params) { p.Iterations = 0 }, "-iterations"},
		{func(p *Params) { p.Groups = 40 }, "-groups"},
		{func(p *Params) { p.Pattern = "xx" }, "-stress-pattern"},
		{func(p *Params) { p.LineBytes = 100 }, "-stress-line-bytes"},
		{func(p *Params) { p.MemStride = 0 }, "-mem-stride"},
	} {
		q := p
		tc.set(&q)
		require.ErrorContains(t, q.Validate(), tc.want)
	}
}

// TestLostContextStops: after a kernel fault the device is unusable, so
// the remaining tests are reported as not run.
func TestLostContextStops(t *testing.T) {
	dir := writeTests(t, map[string]string{"A.litmus": mpTest, "B.litmus": strings.Replace(mpTest, "PTX MP", "PTX MP2", 1)})
	drv := fake.New(smallGPU(), func(string, gpu.Launch, *fake.Memory) error {
		return fmt.Errorf("the kernel: CUDA_ERROR_ILLEGAL_ADDRESS: %w", gpu.ErrContextLost)
	})
	cfg := Config{Params: testParams(t, "pte"), Model: defaultModel(t), Options: checker.DefaultOptions()}
	var stdout, stderr bytes.Buffer
	status := Main(Command{Config: cfg, Files: []string{dir}}, drv, &stdout, &stderr)
	require.Equal(t, ExitError, status)
	require.Len(t, drv.Launches(), 1)
	require.Contains(t, stderr.String(), "B.litmus not run: the GPU could not be used after MP's failure")
}

// TestStop: a run told to stop runs no further test, names those it
// leaves, and still writes the table of the tests that ran.
func TestStop(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for _, n := range []string{"a", "b"} {
		f := filepath.Join(dir, n+".litmus")
		require.NoError(t, os.WriteFile(f, []byte(strings.Replace(mpFenced, "MP+fences", "MP-"+n, 1)), 0o644))
		files = append(files, f)
	}
	stop := make(chan struct{})
	close(stop)
	var out, errs, table bytes.Buffer
	cmd := Command{Config: Config{Params: testParams(t, "plain"), Model: defaultModel(t), Options: checker.DefaultOptions()},
		Files: files, Table: &table, Stop: stop}
	status := Main(cmd, fake.New(smallGPU(), nil), &out, &errs)
	require.Equal(t, ExitError, status)
	require.Contains(t, errs.String(), "a.litmus not run: the run was told to stop (by a signal or a time limit)")
	require.Contains(t, errs.String(), "b.litmus not run")
	require.Contains(t, table.String(), "| test | model |")
}
