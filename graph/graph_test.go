package graph

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/relations"
)

// TestImmediateKeepsOnlyCoveringPairs checks that po is drawn as a chain:
// of the strict order 0<1<2<3 only 0->1, 1->2 and 2->3 remain, and
// unrelated threads keep their own chains.
func TestImmediateKeepsOnlyCoveringPairs(t *testing.T) {
	order := relations.NewRel(6)
	for i := 0; i < 4; i++ {
		for j := i + 1; j < 4; j++ {
			order.Add(i, j)
		}
	}
	order.Add(4, 5)
	var got [][2]int
	for i, j := range immediate(order).All() {
		got = append(got, [2]int{i, j})
	}
	require.Equal(t, [][2]int{{0, 1}, {1, 2}, {2, 3}, {4, 5}}, got)
	require.Equal(t, 7, order.Len(), "immediate must not change its argument")
}

func TestQuoteEscapesDOTStrings(t *testing.T) {
	cases := map[string]string{
		`plain`:          `"plain"`,
		`say "x"`:        `"say \"x\""`,
		`back\slash`:     `"back\\slash"`,
		"two\nlines":     `"two\nlines"`,
		`P0:st.weak x,1`: `"P0:st.weak x,1"`,
	}
	for in, want := range cases {
		require.Equal(t, want, quote(in), "quote(%q)", in)
	}
}

func TestWriteByExtension(t *testing.T) {
	dir := t.TempDir()
	const dot = "digraph g { a -> b; }\n"

	path := filepath.Join(dir, "g.dot")
	require.NoError(t, Write(path, dot))
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	require.Equal(t, dot, string(data))

	err = Write(filepath.Join(dir, "g.pdf"), dot)
	require.ErrorContains(t, err, "must end in .dot, .svg or .png")

	if _, err := exec.LookPath("dot"); err == nil {
		svg := filepath.Join(dir, "g.svg")
		require.NoError(t, Write(svg, dot))
		data, err := os.ReadFile(svg)
		require.NoError(t, err)
		require.Contains(t, string(data), "<svg")
		require.ErrorContains(t, Write(filepath.Join(dir, "bad.svg"), "digraph {"), "dot failed")
	} else {
		t.Log("Graphviz's dot is not installed: SVG rendering not exercised")
	}
}

func TestWriteWithoutGraphvizSaysHowToGetIt(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	err := Write(filepath.Join(t.TempDir(), "g.svg"), "digraph g {}\n")
	require.True(t, errors.Is(err, ErrNoDot), "got %v", err)
	require.Contains(t, err.Error(), "graphviz")
}
