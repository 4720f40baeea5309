package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/litmus"
)

func TestGenOneCycle(t *testing.T) {
	var out bytes.Buffer
	require.Equal(t, cli.ExitOK, genCommand([]string{"-cycle", "PodWR Fre PodWR Fre", "-name", "SB-mine"}, &out))
	tests, err := litmus.Parse("SB.litmus", out.Bytes(), litmus.FormatHerd)
	require.NoError(t, err, out.String())
	assert.Equal(t, "SB-mine", tests[0].Name)
	assert.Equal(t, "exists (P0:r0 == 0 /\\ P1:r0 == 0)", tests[0].Condition.String())
}

func TestGenFamiliesToDirectory(t *testing.T) {
	dir := t.TempDir()
	var out bytes.Buffer
	status := genCommand([]string{"-family", "MP,SB,IRIW", "-po", "po,Fence.sc.gpu", "-placement", "gpu,cta", "-o", dir}, &out)
	require.Equal(t, cli.ExitOK, status)
	all, err := os.ReadFile(filepath.Join(dir, "@all"))
	require.NoError(t, err)
	files := strings.Fields(string(all))
	// MP: 4 choices of fences; SB and IRIW 3 each, as their two fenced
	// threads are alike (fence+po is po+fence); each in two placements.
	assert.Len(t, files, 20)
	assert.Contains(t, files, "SB+fence.sc.gpus+cta.litmus")
	assert.Contains(t, files, "MP.litmus")
	assert.Equal(t, "Generator produced 20 tests in "+dir+"\n", out.String())
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join(dir, f))
		require.NoError(t, err)
		_, err = litmus.Parse(f, src, litmus.FormatHerd)
		require.NoError(t, err, f)
	}
}

func TestGenEnumerates(t *testing.T) {
	var out bytes.Buffer
	require.Equal(t, cli.ExitOK, genCommand([]string{"-relax", "PodWR", "-safe", "Fre", "-size", "6"}, &out))
	assert.Equal(t, 2, strings.Count(out.String(), "PTX "), "SB and 3.SB")
}

func TestGenErrors(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"-cycle", "PodWW Rfe PodWR Fre"},
		{"-cycle", "PodWW Rfe PodRR Fre", "-placement", "warp"},
		{"-family", "NOPE"},
		{"-relax", "PodXX"},
		{"-cycle", "PodWW Rfe PodRR Fre", "extra"},
		{"-family", "MP,SB", "-name", "one"},
		{"-no-such-flag"},
	} {
		assert.Equal(t, cli.ExitError, genCommand(args, &bytes.Buffer{}), "%q", args)
	}
	assert.Equal(t, cli.ExitOK, genCommand([]string{"-h"}, &bytes.Buffer{}))
}
