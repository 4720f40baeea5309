package graph_test

import (
	"encoding/xml"
	"io"
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

// element is one start tag of the SVG with its attributes.
type element struct {
	name  string
	attrs map[string]string
}

// parseSVG checks that svg is well-formed XML and returns its elements.
func parseSVG(t *testing.T, svg string) []element {
	t.Helper()
	dec := xml.NewDecoder(strings.NewReader(svg))
	var out []element
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return out
		}
		require.NoError(t, err, "the SVG is well-formed XML")
		if se, ok := tok.(xml.StartElement); ok {
			e := element{name: se.Name.Local, attrs: map[string]string{}}
			for _, a := range se.Attr {
				e.attrs[a.Name.Local] = a.Value
			}
			out = append(out, e)
		}
	}
}

// forbiddenMP returns MP's forbidden candidate, an instance holding it and
// the witness of its failing check.
func forbiddenMP(t *testing.T) (*checker.Model, checker.Candidate, *rules.Instance, map[string][]rules.Edge) {
	t.Helper()
	m, err := loader.LoadFile(filepath.Join("..", "spec.dl"))
	require.NoError(t, err)
	tests, err := litmus.ParseFile(filepath.Join("..", "examples", "MP.litmus"))
	require.NoError(t, err)
	cands, res := m.Candidates(tests[0], checker.DefaultOptions(), 0)
	require.NoError(t, res.Err)
	for _, c := range cands {
		if c.Consistent {
			continue
		}
		inst, err := m.Instance(c)
		require.NoError(t, err)
		witness := map[string][]rules.Edge{}
		for _, f := range c.Failures {
			edges, err := m.Explain(c.Execution, f)
			require.NoError(t, err)
			witness[f.Name] = edges
		}
		return m, c, inst, witness
	}
	t.Fatal("MP has no forbidden candidate")
	return nil, checker.Candidate{}, nil, nil
}

// TestSVG draws MP's forbidden execution and checks the picture's
// structure: one box per event in thread columns with program order down,
// one edge per pair of each relation drawn (po as a chain) in its colour,
// the witness highlighted, and text escaped.
func TestSVG(t *testing.T) {
	_, c, inst, witness := forbiddenMP(t)
	rels := []graph.SVGRelation{{Name: "po", Color: "#000000"}, {Name: "rf", Color: "#ff0000"}, {Name: "co", Color: "#0000ff"},
		{Name: "fr", Color: "#00aa00"}, {Name: "sync", Color: "#884488"}}
	svg, err := graph.SVG(c.Execution, inst, graph.SVGOptions{Title: `MP <"forbidden"> & more`, Relations: rels, Witness: witness})
	require.NoError(t, err)
	elems := parseSVG(t, svg)

	boxes := map[int][2]float64{} // event -> rect x, y
	edges := map[string]int{}     // relation -> edges
	hits := map[string]int{}      // relation -> areas catching clicks
	var witnessed []string
	var title string
	for i, e := range elems {
		switch {
		case e.name == "g" && strings.HasPrefix(e.attrs["class"], "event"):
			ev, err := strconv.Atoi(e.attrs["data-event"])
			require.NoError(t, err)
			rect := elems[i+2] // g, title, rect
			require.Equal(t, "rect", rect.name)
			x, _ := strconv.ParseFloat(rect.attrs["x"], 64)
			y, _ := strconv.ParseFloat(rect.attrs["y"], 64)
			boxes[ev] = [2]float64{x, y}
		case e.name == "g" && (e.attrs["class"] == "edge" || e.attrs["class"] == "edge witness"):
			rel := e.attrs["data-rel"]
			edges[rel]++
			stroke := elems[i+2].attrs["stroke"] // g, title, path
			if e.attrs["class"] == "edge witness" {
				assert.Equal(t, "causality", e.attrs["data-checks"])
				assert.Equal(t, graph.WitnessColor, stroke)
				witnessed = append(witnessed, rel)
			} else {
				for _, r := range rels {
					if r.Name == rel {
						assert.Equal(t, r.Color, stroke, "%s edges are drawn in its colour", rel)
					}
				}
			}
		case e.name == "g" && strings.HasPrefix(e.attrs["class"], "edge-hit"):
			hits[e.attrs["data-rel"]]++
			assert.Equal(t, "transparent", elems[i+2].attrs["stroke"], "a hit area is invisible")
		case e.name == "text" && e.attrs["class"] == "title":
			title = "found"
		}
	}
	require.Equal(t, "found", title)
	assert.Contains(t, svg, `MP &lt;&quot;forbidden&quot;&gt; &amp; more`)

	x := c.Execution
	require.Len(t, boxes, len(x.Events), "one box per event")
	for th := range x.Test.Threads {
		start := x.ThreadStart[th]
		for k := 1; k < len(x.Runs[th].Events); k++ {
			prev, cur := boxes[start+k-1], boxes[start+k]
			assert.Equal(t, prev[0], cur[0], "a thread's events share a column")
			assert.Greater(t, cur[1], prev[1], "program order runs down")
		}
	}
	assert.Greater(t, boxes[x.ThreadStart[1]][0], boxes[x.ThreadStart[0]][0], "threads are columns, left to right")
	for i := range x.Layout.Locs {
		assert.Less(t, boxes[i][1], boxes[x.ThreadStart[0]][1], "the initial writes are above the threads")
	}

	for _, r := range rels {
		rel, err := inst.Rel(r.Name)
		require.NoError(t, err)
		want := rel.Len()
		if r.Name == "po" {
			want = graph.CoveringPairs(rel)
		}
		assert.Equal(t, want, edges[r.Name], "one edge per pair of %s", r.Name)
	}
	assert.ElementsMatch(t, []string{"fr", "po", "sync", "po"}, witnessed)
	assert.Equal(t, edges, hits, "one area catching clicks per edge")
	first := func(class string) int { return strings.Index(svg, `<g class="`+class) }
	assert.Less(t, first("edge-hit"), first(`edge"`), "the hit areas are under every edge")
}

// TestSVGDrawsOnlyWhatIsAsked: relations not listed are not drawn, not
// even their witness edges, and an unknown relation is an error.
func TestSVGDrawsOnlyWhatIsAsked(t *testing.T) {
	_, c, inst, witness := forbiddenMP(t)
	svg, err := graph.SVG(c.Execution, inst, graph.SVGOptions{Relations: []graph.SVGRelation{{Name: "rf", Color: "red"}}, Witness: witness})
	require.NoError(t, err)
	for _, rel := range []string{"po", "fr", "sync", "co"} {
		assert.NotContains(t, svg, `data-rel="`+rel+`"`)
	}
	assert.Equal(t, 2, strings.Count(svg, `<g class="edge" data-rel="rf"`))
	_, err = graph.SVG(c.Execution, inst, graph.SVGOptions{Relations: []graph.SVGRelation{{Name: "nosuch", Color: "red"}}})
	assert.ErrorContains(t, err, "nosuch")
}

func TestSVGColorCycles(t *testing.T) {
	assert.NotEqual(t, graph.SVGColor(0), graph.SVGColor(1))
	assert.Equal(t, graph.SVGColor(0), graph.SVGColor(12))
	assert.Equal(t, graph.SVGColor(11), graph.SVGColor(-1))
}
