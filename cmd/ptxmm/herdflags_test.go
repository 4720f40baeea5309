package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/cli"
)

// runCaptured runs a command with its standard output and error captured.
func runCaptured(t *testing.T, run func([]string) int, args ...string) (int, string, string) {
	t.Helper()
	outF, err := os.CreateTemp(t.TempDir(), "stdout")
	require.NoError(t, err)
	errF, err := os.CreateTemp(t.TempDir(), "stderr")
	require.NoError(t, err)
	oldOut, oldErr := os.Stdout, os.Stderr
	os.Stdout, os.Stderr = outF, errF
	status := run(args)
	os.Stdout, os.Stderr = oldOut, oldErr
	read := func(f *os.File) string {
		_, err := f.Seek(0, io.SeekStart)
		require.NoError(t, err)
		b, err := io.ReadAll(f)
		require.NoError(t, err)
		return string(b)
	}
	return status, read(outF), read(errF)
}

var (
	mpFile = filepath.Join("..", "..", "examples", "MP.litmus")
	sbFile = filepath.Join("..", "..", "examples", "SB+fence.sc.litmus")
	lbFile = filepath.Join("..", "..", "examples", "LB.litmus")
	// CoRR+weak: exists, one of its four states satisfies the condition.
	corrFile = filepath.Join("..", "..", "examples", "CoRR+weak.litmus")
)

func writeFile(t *testing.T, dir, name, text string) string {
	t.Helper()
	p := filepath.Join(dir, name)
	require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
	require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	return p
}

// TestHerdFlags: each of herd7's options has its herd meaning.
func TestHerdFlags(t *testing.T) {
	dir := t.TempDir()
	abs := func(p string) string { a, err := filepath.Abs(p); require.NoError(t, err); return a }
	cases := []struct {
		name   string
		args   []string
		status int
		out    []string // substrings of stdout
		errs   []string // substrings of stderr
	}{
		{"candidates", []string{"-candidates", mpFile}, cli.ExitOK, []string{"\nCandidates MP 4\nHash="}, nil},
		{"candidates true, herd's way", []string{"-candidates", "true", mpFile}, cli.ExitOK, []string{"\nCandidates MP 4\n"}, nil},
		{"candidates false", []string{"-candidates", "false", mpFile}, cli.ExitOK, []string{"\nTime MP "}, nil},
		{"through all", []string{"-through", "all", sbFile}, cli.ExitOK, []string{"States 4\n", "\nOk\n"}, nil},
		{"through invalid", []string{"-through", "invalid", sbFile}, cli.ExitOK, []string{"States 4\n"}, nil},
		{"through none", []string{"-through", "none", sbFile}, cli.ExitOK, []string{"States 3\n", "\nNo\n"}, nil},
		{"through bad", []string{"-through", "some", sbFile}, cli.ExitError, nil, []string{"-through some: expected all, invalid or none"}},
		{"skipchecks", []string{"-skipchecks", "causality", sbFile}, cli.ExitOK, []string{"States 4\n", "\nOk\n"}, nil},
		{"skipchecks list", []string{"-skipchecks", "causality,fence_sc", "-skipchecks", "coherence", sbFile}, cli.ExitOK, []string{"States 4\n"}, nil},
		{"skipchecks unknown", []string{"-skipchecks", "nosuch", sbFile}, cli.ExitError, nil, []string{"the model has no check named nosuch"}},
		{"strictskip", []string{"-skipchecks", "causality", "-strictskip", sbFile}, cli.ExitOK, []string{"States 3\n0:r0=0; 1:r1=0;\n"}, nil},
		{"strictskip alone", []string{"-strictskip", sbFile}, cli.ExitOK, []string{"States 3\n"}, nil},
		{"speedcheck fast", []string{"-speedcheck", "fast", corrFile}, cli.ExitOK, []string{"\nOk\n", "Positive: 1 Negative: ", "Observation CoRR+weak Always 1 0\n", "\nSpeedcheck CoRR+weak: stopped"}, nil},
		{"speedcheck true", []string{"-speedcheck", "true", corrFile}, cli.ExitOK, []string{"States 1\n1:r0=1; 1:r1=0;\nOk\n", "Positive: 1 Negative: 0\n", "Observation CoRR+weak Always 1 0\n", "\nSpeedcheck CoRR+weak: only the executions that may decide"}, nil},
		{"speedcheck fast json", []string{"-speedcheck", "fast", "-json", corrFile}, cli.ExitOK, []string{`"verdict":"Ok"`, `"speedcheck":"stopped"`}, nil},
		{"speedcheck false", []string{"-speedcheck", "false", corrFile}, cli.ExitOK, []string{"States 4\n", "Positive: 1 Negative: 3\n"}, nil},
		{"speedcheck bad", []string{"-speedcheck", "slow", corrFile}, cli.ExitError, nil, []string{"-speedcheck slow: expected false, true or fast"}},
		{"show without -o", []string{"-show", "all", mpFile}, cli.ExitOK, []string{"Test MP Allowed"}, nil},
		{"-o without -show", []string{"-o", filepath.Join(dir, "nopics"), mpFile}, cli.ExitOK, []string{"Test MP Allowed"}, nil},
		{"show bad", []string{"-show", "some", "-o", dir, mpFile}, cli.ExitError, nil, []string{"-show some: expected prop, neg, cond, wit, all or none"}},
		{"nshow negative", []string{"-show", "all", "-o", dir, "-nshow", "-1", mpFile}, cli.ExitError, nil, []string{"-nshow -1"}},
		{"list", []string{"@" + writeFile(t, dir, "tests.txt", "# MP and SB\n"+abs(mpFile)+"\n\n"+abs(sbFile)+"\n")}, cli.ExitOK, []string{"Test MP Allowed", "Test SB+fence.sc Allowed"}, nil},
		{"list, herd's name", []string{writeFile(t, dir, "sub/@all", "../tests.txt\n")}, cli.ExitError, nil, []string{"tests.txt"}},
		{"list of lists", []string{writeFile(t, dir, "@top", "sub/@mp\n"), "@" + writeFile(t, dir, "sub/@mp", abs(mpFile)+"\n")}, cli.ExitOK, []string{"Test MP Allowed"}, nil},
		{"list cycle", []string{writeFile(t, dir, "@loop", "@loop\n")}, cli.ExitError, nil, []string{"includes itself"}},
		{"empty list", []string{"@" + writeFile(t, dir, "empty.txt", "# nothing\n")}, cli.ExitError, nil, []string{"names no test"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, out, errs := runCaptured(t, runCheck, c.args...)
			require.Equal(t, c.status, status, "stdout:\n%s\nstderr:\n%s", out, errs)
			for _, s := range c.out {
				require.Contains(t, out, s)
			}
			for _, s := range c.errs {
				require.Contains(t, errs, s)
			}
		})
	}
}

// TestShowPictures: -show with -o writes NAME.dot per test, one graph per
// execution shown, at most -nshow of them.
func TestShowPictures(t *testing.T) {
	cases := []struct {
		show   string
		nshow  string
		graphs int // in SB+fence.sc.dot: 3 consistent executions, none satisfies the exists
	}{
		{"all", "0", 3}, {"all", "2", 2}, {"prop", "0", 0}, {"neg", "0", 3}, {"cond", "0", 0}, {"wit", "0", 0},
	}
	for _, c := range cases {
		dir := t.TempDir()
		status, _, errs := runCaptured(t, runCheck, "-show", c.show, "-nshow", c.nshow, "-o", dir, sbFile)
		require.Equal(t, cli.ExitOK, status, errs)
		data, err := os.ReadFile(filepath.Join(dir, "SB+fence.sc.dot"))
		if c.graphs == 0 {
			require.True(t, os.IsNotExist(err), "%s: no execution to draw, no file", c.show)
			continue
		}
		require.NoError(t, err)
		require.Equal(t, c.graphs, strings.Count(string(data), "digraph execution {"), c.show)
		require.Contains(t, string(data), "label=\"po\"")
	}
}

// TestConf: -conf reads herd7-style options, later options override it.
func TestConf(t *testing.T) {
	dir := t.TempDir()
	inner := writeFile(t, dir, "inner.cfg", "skipchecks causality\n")
	conf := writeFile(t, dir, "herd.cfg", "# herd options\n-candidates true\nconf "+inner+"\ngraph cluster\nthrough none\n")
	status, out, errs := runCaptured(t, runCheck, "-conf", conf, sbFile)
	require.Equal(t, cli.ExitOK, status, errs)
	require.Contains(t, out, "Candidates SB+fence.sc 4")
	require.Contains(t, out, "States 4\n", "the nested file skipped causality")
	status, out, _ = runCaptured(t, runCheck, "-conf="+conf, "-candidates=false", sbFile)
	require.Equal(t, cli.ExitOK, status)
	require.NotContains(t, out, "Candidates", "a later option overrides the file")

	bad := writeFile(t, dir, "bad.cfg", "\nfrobnicate 3\n")
	status, _, errs = runCaptured(t, runCheck, "-conf", bad, sbFile)
	require.Equal(t, cli.ExitError, status)
	require.Contains(t, errs, "bad.cfg:2:1: unknown option frobnicate for ptxmm check")
	loop := writeFile(t, dir, "loop.cfg", "conf "+filepath.Join(dir, "loop.cfg")+"\n")
	status, _, errs = runCaptured(t, runCheck, "-conf", loop, sbFile)
	require.Equal(t, cli.ExitError, status)
	require.Contains(t, errs, "the configuration includes itself")
	status, _, errs = runCaptured(t, runCheck, "-conf", filepath.Join(dir, "none.cfg"), sbFile)
	require.Equal(t, cli.ExitError, status)
	require.Contains(t, errs, "-conf: cannot read")
}

// TestExpectKinds: -expect-kinds compares with expected kinds like -expect.
func TestExpectKinds(t *testing.T) {
	dir := t.TempDir()
	good := writeFile(t, dir, "good.kinds", "# expected\nMP Forbidden\nSB+fence.sc Forbid\nLB Required\n")
	status, out, errs := runCaptured(t, runCheck, "-expect-kinds", good, mpFile, sbFile, lbFile)
	require.Equal(t, cli.ExitOK, status, errs)
	require.Contains(t, out, "\n3 passed, 0 failed\n")

	bad := writeFile(t, dir, "bad.kinds", "MP Allowed\nLB Forbidden\nGone Allowed\n")
	status, out, errs = runCaptured(t, runCheck, "-expect-kinds", bad, mpFile, lbFile)
	require.Equal(t, cli.ExitMismatch, status)
	require.Contains(t, out, "MISMATCH MP: expected Allowed, but 0 consistent execution(s) satisfy the condition's proposition and 3 do not\n")
	require.Contains(t, out, "MISMATCH LB: expected Forbidden, but 3 consistent execution(s)")
	require.Contains(t, out, "\n0 passed, 2 failed\n")
	require.Contains(t, errs, "names Gone, which no test of the run has")

	malformed := writeFile(t, dir, "m.kinds", "MP Allowed\nSB Maybe\n")
	status, _, errs = runCaptured(t, runCheck, "-expect-kinds", malformed, mpFile)
	require.Equal(t, cli.ExitError, status)
	require.Contains(t, errs, "m.kinds:2:4: a kind is Allowed, Forbidden or Required (or Allow, Forbid, Require), not \"Maybe\"")
}
