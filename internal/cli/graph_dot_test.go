package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/graph"
)

// TestGraphvizAcceptsEveryPicture renders with Graphviz's dot the picture
// ptxmm graph draws of every shipped test (its first consistent
// execution, and its first candidate), the focused pictures of outcomes,
// and the pictures check -show all -o DIR writes in each of herd7's
// layouts (-graph cluster, columns, free), all in one dot process, as
// "dot -Tsvg -O pics/*.dot" does: Debian's Graphviz 2.43 used to stop with
// "trouble in init_rank", or corrupt its memory on one picture and abort
// on a later one.
func TestGraphvizAcceptsEveryPicture(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz's dot is not installed (Debian package graphviz); .ci/run installs it")
	}
	m := specModel(t)
	ex := filepath.Join("..", "..", "examples")
	var files []string
	require.NoError(t, filepath.WalkDir(ex, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")) {
			files = append(files, p)
		}
		return err
	}))
	require.NotEmpty(t, files)
	var cfgs []GraphConfig
	for _, f := range files {
		cfgs = append(cfgs, GraphConfig{Test: f}, GraphConfig{Test: f, Exec: 1})
	}
	cfgs = append(cfgs,
		GraphConfig{Test: filepath.Join(ex, "MP+cta-scope.litmus"), Outcome: `P1:r0 == 1 /\ P1:r1 == 0`},
		GraphConfig{Test: filepath.Join(ex, "SB+fence.sc.litmus"), Outcome: `P0:r0 == 0 /\ P1:r1 == 0`},
		GraphConfig{Test: filepath.Join(ex, "idioms", "TMA-store-no-proxy-fence.litmus"), Outcome: `P0:r1 == 0`})
	var pictures []string
	for _, cfg := range cfgs {
		cfg.Model, cfg.Options = m, checker.DefaultOptions()
		var out, errs bytes.Buffer
		require.Equal(t, ExitOK, Graph(cfg, &out, &errs), "%+v: %s", cfg, errs.String())
		pictures = append(pictures, out.String())
	}
	for _, layout := range []string{"cluster", "columns", "free"} {
		style := graph.HerdStyle()
		style.Layout = layout
		dir := t.TempDir()
		var out, errs bytes.Buffer
		Check(CheckConfig{Model: m, Options: checker.DefaultOptions(), Files: []string{ex},
			Pictures: Pictures{Mode: ShowAll, Dir: dir, Max: 2, Style: &style}}, &out, &errs)
		dots, err := filepath.Glob(filepath.Join(dir, "*.dot"))
		require.NoError(t, err)
		require.NotEmpty(t, dots, "-graph %s: pictures written", layout)
		for _, f := range dots {
			data, err := os.ReadFile(f)
			require.NoError(t, err)
			pictures = append(pictures, string(data))
		}
	}
	render := func(pics []string) error {
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = strings.NewReader(strings.Join(pics, ""))
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = io.Discard, &stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%v: %s", err, stderr.String())
		}
		return nil
	}
	if err := render(pictures); err != nil {
		// Name the first picture dot fails on, laid out twice (memory it
		// corrupts shows on the second).
		for _, p := range pictures {
			if perr := render([]string{p, p}); perr != nil {
				t.Fatalf("dot rejects this picture: %v\n%s", perr, p)
			}
		}
		t.Fatalf("dot fails on the pictures together: %v", err)
	}
	assert.Greater(t, len(pictures), 2*len(files))
}

// TestGraphSVGWithoutGraphviz: -o FILE.svg without dot, or with a dot that
// fails, is drawn by ptxmm itself, with a note saying so; .png needs dot.
func TestGraphSVGWithoutGraphviz(t *testing.T) {
	m := specModel(t)
	failing := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(failing, "dot"), []byte("#!/bin/sh\necho 'Error: trouble in init_rank' >&2\nexit 1\n"), 0o755))
	cases := []struct{ name, path, note string }{
		{"no dot", t.TempDir(), "Graphviz's dot is not installed"},
		{"dot fails", failing, "dot failed: exit status 1: Error: trouble in init_rank"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("PATH", c.path)
			out := filepath.Join(t.TempDir(), "mp.svg")
			cfg := GraphConfig{Model: m, Options: checker.DefaultOptions(), Test: filepath.Join("..", "..", "examples", "MP+cta-scope.litmus"),
				Outcome: `P1:r0 == 1 /\ P1:r1 == 0`, Out: out}
			var stdout, errs bytes.Buffer
			require.Equal(t, ExitOK, Graph(cfg, &stdout, &errs), errs.String())
			assert.Contains(t, errs.String(), "drawn with ptxmm's own layout: "+c.note)
			svg, err := os.ReadFile(out)
			require.NoError(t, err)
			assert.True(t, strings.HasPrefix(string(svg), "<svg "), "an SVG picture")
			assert.Contains(t, string(svg), `data-checks="does not synchronize"`, "the focus and its highlights are there")
			assert.NotContains(t, string(svg), `data-event="1"`, "events that do not explain the outcome are left out")

			cfg.Out = filepath.Join(t.TempDir(), "mp.png")
			errs.Reset()
			assert.Equal(t, ExitError, Graph(cfg, &stdout, &errs))
		})
	}
}
