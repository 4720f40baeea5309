package graph_test

import (
	"encoding/xml"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/graph"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/rules"
)

// labelBoxes reads the edge labels of an SVG picture and the boxes of its
// events, in the picture's coordinates, and its size.
func labelBoxes(t *testing.T, svg string) (labels map[string][4]float64, events [][4]float64, size [2]float64) {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	labels = map[string][4]float64{}
	inLabel, inEvent := false, false
	var x, y float64
	num := func(s string) float64 {
		f, err := strconv.ParseFloat(s, 64)
		require.NoError(t, err)
		return f
	}
	for n := 0; ; {
		tok, err := dec.Token()
		if err == io.EOF {
			return labels, events, size
		}
		require.NoError(t, err)
		switch tok := tok.(type) {
		case xml.StartElement:
			a := map[string]string{}
			for _, at := range tok.Attr {
				a[at.Name.Local] = at.Value
			}
			switch {
			case tok.Name.Local == "svg":
				size = [2]float64{num(a["width"]), num(a["height"])}
			case tok.Name.Local == "g":
				inLabel = strings.HasPrefix(a["class"], "edge-label")
				inEvent = strings.HasPrefix(a["class"], "event")
			case tok.Name.Local == "text" && inLabel:
				x, y = num(a["x"]), num(a["y"])
			case tok.Name.Local == "rect" && inEvent:
				x0, y0 := num(a["x"]), num(a["y"])
				events = append(events, [4]float64{x0, y0, x0 + num(a["width"]), y0 + num(a["height"])})
			}
		case xml.CharData:
			if inLabel && x != 0 {
				n++
				labels[strconv.Itoa(n)+" "+string(tok)] = graph.LabelBox(x, y, string(tok))
				x = 0
			}
		case xml.EndElement:
			if tok.Name.Local == "g" {
				inLabel, inEvent = false, false
			}
		}
	}
}

func overlap(a, b [4]float64) bool {
	// The SVG rounds coordinates to a tenth: boxes that touch may seem to
	// overlap by that much.
	const eps = 0.2
	return a[0] < b[2]-eps && b[0] < a[2]-eps && a[1] < b[3]-eps && b[1] < a[3]-eps
}

// TestSVGLabelsNeverOverlap draws, for every shipped example, its first
// forbidden execution with its witness and its first consistent one, with
// the page's default relations and the model's derived orders (a crowded
// picture): no edge label overlaps another label or an event, and every
// label lies inside the picture.
func TestSVGLabelsNeverOverlap(t *testing.T) {
	m, err := loader.LoadFile(filepath.Join("..", "spec.dl"))
	require.NoError(t, err)
	var files []string
	require.NoError(t, filepath.WalkDir(filepath.Join("..", "examples"), func(path string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".litmus") {
			files = append(files, path)
		}
		return err
	}))
	require.NotEmpty(t, files)
	rels := []graph.SVGRelation{{Name: "po", Color: "#222222"}, {Name: "rf", Color: "#d62728"}, {Name: "co", Color: "#1f77b4"},
		{Name: "fr", Color: "#ff7f0e"}, {Name: "sync", Color: "#9467bd"}, {Name: "obs", Color: "#8c564b"}}
	drawn := 0
	for _, file := range files {
		tests, err := litmus.ParseFile(file)
		require.NoError(t, err, file)
		opts := checker.DefaultOptions()
		opts.MaxCandidates = 2000
		cands, res := m.Candidates(tests[0], opts, 0)
		if res.Err != nil {
			continue // a test too big for this check's candidate limit
		}
		var picked []checker.Candidate
		forbidden, consistent := false, false
		for _, c := range cands {
			if c.Consistent && !consistent {
				consistent = true
				picked = append(picked, c)
			} else if !c.Consistent && len(c.Failures) > 0 && !forbidden {
				forbidden = true
				picked = append(picked, c)
			}
		}
		for _, c := range picked {
			inst, err := m.Instance(c)
			if err != nil {
				continue
			}
			witness := map[string][]rules.Edge{}
			for _, f := range c.Failures {
				if edges, err := m.Explain(c.Execution, f); err == nil {
					witness[f.Name] = edges
				}
			}
			var use []graph.SVGRelation
			for _, r := range rels {
				if _, err := inst.Rel(r.Name); err == nil {
					use = append(use, r)
				}
			}
			svg, err := graph.SVG(c.Execution, inst, graph.SVGOptions{Title: file, Relations: use, Witness: witness})
			require.NoError(t, err, file)
			drawn++
			labels, events, size := labelBoxes(t, svg)
			names := make([]string, 0, len(labels))
			for k := range labels {
				names = append(names, k)
			}
			for i, a := range names {
				la := labels[a]
				assert.True(t, la[0] >= 0 && la[1] >= 0 && la[2] <= size[0] && la[3] <= size[1], "%s: label %q outside the picture", file, a)
				for _, b := range names[i+1:] {
					assert.False(t, overlap(la, labels[b]), "%s: labels %q and %q overlap", file, a, b)
				}
				for _, e := range events {
					assert.False(t, overlap(la, e), "%s: label %q overlaps an event", file, a)
				}
			}
		}
	}
	require.Greater(t, drawn, 100, "pictures drawn")
}
