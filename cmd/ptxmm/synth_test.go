package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
)

// TestDiffSynth runs ptxmm diff -synth on the embedded model and ISA 6.0's,
// which has no virtual aliases, and checks each test written to -o DIR
// against both models.
func TestDiffSynth(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	status := diffCommand([]string{"-synth", "-model", "../../variants/ptx-v6.0.dl", "-events", "2", "-vocab", "alias", "-o", dir}, &out)
	require.Equal(t, cli.ExitMismatch, status, out.String())
	assert.Contains(t, out.String(), "verdict: embedded spec.dl Ok, ../../variants/ptx-v6.0.dl No")
	assert.Contains(t, out.String(), "separating tests of up to 2 instructions between embedded spec.dl and ../../variants/ptx-v6.0.dl")
	all, err := os.ReadFile(filepath.Join(dir, "@all"))
	require.NoError(t, err)
	files := strings.Fields(string(all))
	require.NotEmpty(t, files)
	assert.Equal(t, "Synth2.1.litmus", files[0])
	spec, err := loader.LoadFile("../../spec.dl")
	require.NoError(t, err)
	v60, err := loader.LoadFile("../../variants/ptx-v6.0.dl")
	require.NoError(t, err)
	for _, f := range files {
		tests, err := litmus.ParseFile(filepath.Join(dir, f))
		require.NoError(t, err, f)
		d := checker.Diff(spec, v60, tests[0], checker.DefaultOptions())
		require.NoError(t, d.Err)
		assert.True(t, d.VerdictsDiffer(), f)
	}
}

func TestDiffSynthExplain(t *testing.T) {
	var out bytes.Buffer
	status := diffCommand([]string{"-synth", "-explain", "-model", "../../variants/ptx-v6.0.dl", "-events", "2", "-vocab", "alias"}, &out)
	require.Equal(t, cli.ExitMismatch, status, out.String())
	// ptxmm diff's account: the outcome, and the check that forbids it.
	assert.Contains(t, out.String(), "forbidden by")
}

func TestDiffSynthIdentical(t *testing.T) {
	var out bytes.Buffer
	status := diffCommand([]string{"-synth", "-model", "../../spec.dl", "-model", "../../spec.dl", "-events", "3"}, &out)
	require.Equal(t, cli.ExitOK, status, out.String())
	assert.True(t, strings.HasPrefix(out.String(), "0 separating tests of up to 3 instructions"), out.String())
}

func TestDiffSynthErrors(t *testing.T) {
	for _, args := range [][]string{
		{"-synth"},
		{"-synth", "-model", "a.dl", "-model", "b.dl", "-model", "c.dl"},
		{"-synth", "-model", "../../spec.dl", "-events", "0"},
		{"-synth", "-model", "../../spec.dl", "-events", "17"},
		{"-synth", "-model", "../../spec.dl", "-threads", "0"},
		{"-synth", "-model", "../../spec.dl", "-locations", "9"},
		{"-synth", "-model", "../../spec.dl", "-budget", "-1s"},
		{"-synth", "-model", "../../spec.dl", "-vocab", "atomics"},
		{"-synth", "-model", "../../spec.dl", "-scopes", "warp"},
		{"-synth", "-model", "../../spec.dl", "-j", "0"},
		{"-synth", "-model", "../../spec.dl", "tests/"},
		{"-synth", "-model", "no-such-model.dl"},
		{"-synth", "-no-such-flag"},
	} {
		assert.Equal(t, cli.ExitError, diffCommand(args, &bytes.Buffer{}), "%q", args)
	}
	assert.Equal(t, cli.ExitOK, diffCommand([]string{"-synth", "-h"}, &bytes.Buffer{}))
}

func TestWantsSynth(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want bool
	}{
		{[]string{"-synth", "-model", "a.dl"}, true},
		{[]string{"-model", "a.dl", "--synth"}, true},
		{[]string{"-synth=true"}, true},
		{[]string{"-synth=false", "x.litmus"}, false},
		{[]string{"-model", "a.dl", "x.litmus"}, false},
		{[]string{"--", "-synth"}, false},
	} {
		assert.Equal(t, tc.want, wantsSynth(tc.args), "%q", tc.args)
	}
}
