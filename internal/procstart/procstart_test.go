package procstart

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childEnv makes the test binary print the processors its package
// initialization left instead of running its tests.
const childEnv = "STARTPROCS_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		fmt.Println(runtime.GOMAXPROCS(0))
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestInit runs the test binary again as "BINARY check ARGS" and reads
// the processors it has once the packages are initialized.
func TestInit(t *testing.T) {
	if runtime.NumCPU() < 2 {
		t.Skip("one CPU: nothing to lower")
	}
	cases := []struct {
		name string
		args []string
		env  string
		want int
	}{
		{"check -j 1", []string{"check", "-j", "1", "dir"}, "", 1},
		{"check -j=1 after the folder", []string{"check", "dir", "-j=1"}, "", 1},
		{"the environment wins", []string{"check", "-j", "1", "dir"}, "GOMAXPROCS=2", 2},
		{"not check", []string{"diff", "-j", "1", "dir"}, "", runtime.NumCPU()},
		{"no -j", []string{"check", "dir"}, "", runtime.NumCPU()},
		{"a form left to the flags", []string{"check", "-j", "0x1", "dir"}, "", runtime.NumCPU()},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], c.args...)
			env := []string{childEnv + "=1"}
			for _, kv := range os.Environ() {
				if !strings.HasPrefix(kv, "GOMAXPROCS=") {
					env = append(env, kv)
				}
			}
			if c.env != "" {
				env = append(env, c.env)
			}
			cmd.Env = env
			out, err := cmd.CombinedOutput()
			require.NoError(t, err, "%s", out)
			assert.Equal(t, fmt.Sprintf("%d\n", c.want), string(out))
		})
	}
}

// TestPlain: the last -j given plainly, in each of the flag package's
// spellings, and none where it is not given plainly or does not parse.
func TestPlain(t *testing.T) {
	cases := []struct {
		args []string
		j    int
		ok   bool
	}{
		{[]string{"-j", "1", "dir"}, 1, true},
		{[]string{"dir", "-j=3"}, 3, true},
		{[]string{"--j", "2", "dir"}, 2, true},
		{[]string{"--j=4"}, 4, true},
		{[]string{"-j", "1", "dir", "-j", "2"}, 2, true},
		{[]string{"-j", "1", "-j", "many"}, 1, true},
		{[]string{"-j", "0x2"}, 0, false},
		{[]string{"dir"}, 0, false},
		{[]string{"-j"}, 0, false},
		{[]string{"-j="}, 0, false},
		{[]string{"-j", "many"}, 0, false},
		{[]string{"--", "-j", "1"}, 0, false},
		{[]string{"j", "1"}, 0, false},
		{[]string{"-jj", "1"}, 0, false},
		{[]string{"---j", "1"}, 0, false},
		{[]string{"-", "1"}, 0, false},
		{[]string{"-json", "dir"}, 0, false},
	}
	for _, c := range cases {
		j, ok := Plain(c.args, Decimal)
		assert.Equal(t, c.ok, ok, "%q", c.args)
		assert.Equal(t, c.j, j, "%q", c.args)
	}
}

func TestDecimal(t *testing.T) {
	cases := []struct {
		s  string
		n  int
		ok bool
	}{
		{"1", 1, true},
		{"0", 0, true},
		{"007", 7, true},
		{"123456", 123456, true},
		{"1234567", 0, false},
		{"", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"1_0", 0, false},
		{"0x10", 0, false},
		{"٣", 0, false},
	}
	for _, c := range cases {
		n, ok := Decimal(c.s)
		assert.Equal(t, c.ok, ok, "%q", c.s)
		assert.Equal(t, c.n, n, "%q", c.s)
	}
}

func TestManyTests(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "MP.litmus")
	assert.NoError(t, os.WriteFile(file, []byte("PTX MP\n"), 0o644))
	cases := []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{file}, false},
		{[]string{"-j", "1", file}, false},
		{[]string{"-json", "-model", "m.dl", file}, false},
		{[]string{file, "other.test"}, true},
		{[]string{file, "x.litmus.txt"}, false},
		{[]string{"-j", "1", dir}, true},
		{[]string{"@list.txt"}, true},
		{[]string{"-expect", "x.csv", filepath.Join(dir, "missing")}, false},
		{[]string{"-", file}, false},
		{[]string{"", file}, false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, ManyTests(c.args), "%q", c.args)
	}
}

// TestStartReservesOnlyForRunsOfTests: no reservation but for a check of
// more than one test (the reservation itself: heappages.TestReserve).
func TestStartReservesOnlyForRunsOfTests(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{nil, {"version"}, {"check"}, {"check", "MP.litmus"}, {"diff", dir}} {
		assert.Zero(t, Start(args), "%q", args)
	}
}
