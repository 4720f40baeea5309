package graph

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// SVGRelation is one relation drawn as edges, in its colour.
type SVGRelation struct {
	Name  string
	Color string // any SVG colour, e.g. "#1f77b4"
}

// SVGOptions say what SVG draws.
type SVGOptions struct {
	Title     string
	Relations []SVGRelation
	// Witness holds the edges of failed checks' witnesses, per check name;
	// those of a drawn relation are highlighted and labelled with the check.
	Witness map[string][]rules.Edge
	// Only, when set, are the events drawn (Options.Only).
	Only []int
}

// WitnessColor is the colour of highlighted witness edges.
const WitnessColor = "#d7191c"

// svgPalette gives relations distinct colours that stay readable on white;
// SVGColor hands them out in turn.
var svgPalette = []string{
	"#222222", "#d62728", "#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd",
	"#8c564b", "#e377c2", "#17becf", "#7f7f00", "#393b79", "#637939",
}

// SVGColor returns the k-th colour of the palette (cycling).
func SVGColor(k int) string { return svgPalette[((k%len(svgPalette))+len(svgPalette))%len(svgPalette)] }

// Geometry of the drawing, in SVG user units (pixels).
const (
	svgMargin   = 24
	svgCharW    = 7.3 // width of one character of the 12px monospace font
	svgBoxH     = 28
	svgBoxPad   = 20
	svgMinBoxW  = 110
	svgColGap   = 70
	svgRowGap   = 46
	svgInitGap  = 18
	svgTitleH   = 26
	svgHeaderH  = 22
	svgArcReach = 34 // how far a same-column arc bulges out
	svgArcStep  = 16
	svgBendStep = 22
)

// box is one event's rectangle.
type box struct {
	cx, cy, w, h float64
	col          int // thread index, -1 for initial writes
	row          int
}

// svgEdge is one drawn edge.
type svgEdge struct {
	rel      string
	color    string
	from, to int
	checks   string // the failed checks whose witness holds it, or ""
}

// SVG renders an execution with the relations of inst (an instance of the
// model holding that execution) as an SVG picture laid out as herd draws
// executions: the initial writes in a row on top, then one column per
// thread with program order running down. It needs no Graphviz: positions
// follow from threads and program order. Every edge is a group with class
// "edge" and data-rel, data-from and data-to attributes (event numbers), and
// every event a group with class "event" and data-event, so that a page can
// style, hide or click them.
func SVG(x *execution.Execution, inst *rules.Instance, opts SVGOptions) (string, error) {
	keep := keepSet(opts.Only)
	boxes, width, height := layoutBoxes(x, opts.Title != "", keep)
	highlighted := witnessIndex(opts.Witness)
	var edges []svgEdge
	drawn := map[[3]string]bool{}
	for _, rel := range opts.Relations {
		r, err := inst.Rel(rel.Name)
		if err != nil {
			return "", fmt.Errorf("relation %s: %w", rel.Name, err)
		}
		r = restrict(r, keep)
		if rel.Name == "po" {
			r = immediate(r)
		}
		for i, j := range r.All() {
			if i >= len(x.Events) || j >= len(x.Events) {
				continue
			}
			key := [3]string{fmt.Sprint(i), fmt.Sprint(j), rel.Name}
			drawn[key] = true
			edges = append(edges, svgEdge{rel: rel.Name, color: rel.Color, from: i, to: j, checks: highlighted[key]})
		}
	}
	if keep != nil {
		// A focused picture draws the witness edges of relations not
		// listed too, as DOT does.
		var extra [][3]string
		for key := range highlighted {
			if !drawn[key] && keep[atoi(key[0])] && keep[atoi(key[1])] {
				extra = append(extra, key)
			}
		}
		sort.Slice(extra, func(a, c int) bool { return strings.Join(extra[a][:], " ") < strings.Join(extra[c][:], " ") })
		for _, key := range extra {
			edges = append(edges, svgEdge{rel: key[2], color: WitnessColor, from: atoi(key[0]), to: atoi(key[1]), checks: highlighted[key]})
		}
	}
	// Edges go under the events, so that a line passing a box does not
	// cross its text, and their labels over them, clear of the events and
	// the headers; the picture grows to hold a label placed beyond it.
	var edgeSVG strings.Builder
	labels, corner := writeEdges(&edgeSVG, edges, boxes, occupied(x, boxes, keep, opts.Title))
	width = math.Max(width, corner.x+svgMargin/2)
	height = math.Max(height, corner.y+svgMargin/2)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" class="execution" width="%d" height="%d" viewBox="0 0 %d %d" font-family="monospace" font-size="12">`+"\n",
		int(width), int(height), int(width), int(height))
	writeMarkers(&b, opts.Relations)
	if opts.Title != "" {
		fmt.Fprintf(&b, `<text class="title" x="%d" y="%d" font-family="sans-serif" font-size="13" font-weight="bold">%s</text>`+"\n",
			svgMargin, svgMargin+4, escapeXML(opts.Title))
	}
	writeHeaders(&b, x, boxes, keep)
	b.WriteString(edgeSVG.String())
	writeEvents(&b, x, boxes, keep)
	b.WriteString(labels)
	b.WriteString("</svg>\n")
	return b.String(), nil
}

// witnessIndex maps each witness edge (from, to, relation), in the
// direction of the relation, to the checks it belongs to, in name order.
func witnessIndex(witness map[string][]rules.Edge) map[[3]string]string {
	var checks []string
	for c := range witness {
		checks = append(checks, c)
	}
	sort.Strings(checks)
	out := map[[3]string]string{}
	for _, c := range checks {
		for _, ed := range witness[c] {
			from, to := ed.From, ed.To
			if ed.Inverse {
				from, to = to, from
			}
			key := [3]string{fmt.Sprint(from), fmt.Sprint(to), ed.Rel}
			switch old, ok := out[key]; {
			case !ok:
				out[key] = c
			case old != c && !strings.HasSuffix(old, ", "+c):
				out[key] = old + ", " + c
			}
		}
	}
	return out
}

// layoutBoxes places the events: initial writes in the top row, thread t's
// k-th event in column t, row k. Columns are as wide as their longest label.
func layoutBoxes(x *execution.Execution, titled bool, keep map[int]bool) ([]box, float64, float64) {
	boxes := make([]box, len(x.Events))
	labelW := func(i int) float64 {
		return math.Max(svgMinBoxW, float64(len([]rune(eventText(x, i))))*svgCharW+svgBoxPad)
	}
	top := float64(svgMargin)
	if titled {
		top += svgTitleH
	}
	nInit := len(x.Layout.Locs)
	xPos := float64(svgMargin)
	for i := 0; i < nInit && i < len(x.Events); i++ {
		if !kept(keep, i) {
			continue
		}
		w := labelW(i)
		boxes[i] = box{cx: xPos + w/2, cy: top + svgBoxH/2, w: w, h: svgBoxH, col: -1}
		xPos += w + svgInitGap
	}
	width := xPos - svgInitGap
	colTop := top + svgBoxH + svgRowGap + svgHeaderH
	xPos = float64(svgMargin)
	rows := 0
	for t := range x.Test.Threads {
		lanes := keptLanesOf(x, t, keep)
		if len(lanes.sync)+len(lanes.async) == 0 {
			continue
		}
		w := math.Max(svgMinBoxW, headerWidth(x, t))
		for _, e := range lanes.sync {
			w = math.Max(w, labelW(e))
		}
		for _, e := range lanes.sync {
			k := lanes.row[e]
			boxes[e] = box{cx: xPos + w/2, cy: colTop + float64(k)*(svgBoxH+svgRowGap) + svgBoxH/2, w: w, h: svgBoxH, col: t, row: k}
		}
		xPos += w + svgColGap
		if len(lanes.async) > 0 {
			// The asynchronous operations get a lane of their own, right of
			// the thread's program order.
			aw := float64(svgMinBoxW)
			for _, e := range lanes.async {
				aw = math.Max(aw, labelW(e))
			}
			for _, e := range lanes.async {
				k := lanes.row[e]
				boxes[e] = box{cx: xPos + aw/2, cy: colTop + float64(k)*(svgBoxH+svgRowGap) + svgBoxH/2, w: aw, h: svgBoxH, col: t, row: k}
			}
			xPos += aw + svgColGap
		}
		rows = max(rows, lanes.rows)
	}
	width = math.Max(width, xPos-svgColGap) + svgMargin + svgArcReach + 4*svgArcStep
	height := colTop + float64(rows)*(svgBoxH+svgRowGap) + svgMargin
	return boxes, width, height
}

// CoveringPairs counts the pairs of a strict order that SVG and DOT draw:
// those with nothing between them.
func CoveringPairs(r *relations.Rel) int { return immediate(r).Len() }

// eventText is the text in an event's box: its number and instruction.
func eventText(x *execution.Execution, i int) string {
	ev := x.Events[i]
	label := x.Label(i)
	if !ev.IsInit() {
		label = strings.TrimPrefix(label, x.Test.Threads[ev.Thread].Name+":")
	}
	return fmt.Sprintf("e%d: %s", i, label)
}

func threadHeader(x *execution.Execution, t int) string {
	th := x.Test.Threads[t]
	label := fmt.Sprintf("%s (%s)", th.Name, placement(th))
	if note := stuckNote(x, t); note != "" {
		label += ": " + note
	}
	return label
}

func headerWidth(x *execution.Execution, t int) float64 {
	return float64(len([]rune(threadHeader(x, t)))) * svgCharW
}

func writeMarkers(b *strings.Builder, rels []SVGRelation) {
	b.WriteString("<defs>\n")
	colors := []string{WitnessColor}
	seen := map[string]bool{WitnessColor: true}
	for _, r := range rels {
		if !seen[r.Color] {
			seen[r.Color] = true
			colors = append(colors, r.Color)
		}
	}
	for _, c := range colors {
		fmt.Fprintf(b, `<marker id="%s" viewBox="0 0 10 10" refX="9" refY="5" markerUnits="userSpaceOnUse" markerWidth="9" markerHeight="9" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="%s"/></marker>`+"\n",
			markerID(c), escapeXML(c))
	}
	b.WriteString("</defs>\n")
}

// markerID names the arrowhead of a colour.
func markerID(color string) string {
	var b strings.Builder
	b.WriteString("arrow-")
	for _, r := range color {
		if ('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// occupied are the areas an edge label must not cover: the events' boxes
// the thread headers above the columns and the title.
func occupied(x *execution.Execution, boxes []box, keep map[int]bool, title string) []rect {
	var out []rect
	if title != "" {
		// 13px bold sans-serif: about 8px a character, at most.
		out = append(out, rect{svgMargin, svgMargin + 4 - 13, svgMargin + float64(len([]rune(title)))*8, svgMargin + 4 + 4})
	}
	for _, bx := range boxes {
		if bx.w > 0 {
			out = append(out, rect{bx.cx - bx.w/2, bx.cy - bx.h/2, bx.cx + bx.w/2, bx.cy + bx.h/2})
		}
	}
	for _, h := range headers(x, boxes, keep) {
		out = append(out, rect{h.x, h.y - 13, h.x + float64(len([]rune(h.text)))*svgCharW, h.y + 4})
	}
	return out
}

// header is the text above a thread's column (or its asynchronous lane),
// its left end and baseline.
type header struct {
	text, class string
	x, y        float64
}

// headers are the texts above the columns: each thread's, and over its
// asynchronous lane, if any, "asynchronous".
func headers(x *execution.Execution, boxes []box, keep map[int]bool) []header {
	var out []header
	for t := range x.Test.Threads {
		lanes := keptLanesOf(x, t, keep)
		if len(lanes.sync) == 0 {
			continue
		}
		first := boxes[lanes.sync[0]]
		top := first.cy - first.h/2 - float64(lanes.row[lanes.sync[0]])*(svgBoxH+svgRowGap)
		out = append(out, header{threadHeader(x, t), "thread", first.cx - first.w/2, top - 8})
		if len(lanes.async) > 0 {
			a := boxes[lanes.async[0]]
			out = append(out, header{"asynchronous", "lane", a.cx - a.w/2, top - 8})
		}
	}
	return out
}

func writeHeaders(b *strings.Builder, x *execution.Execution, boxes []box, keep map[int]bool) {
	for _, h := range headers(x, boxes, keep) {
		style := `font-weight="bold"`
		if h.class == "lane" {
			style = `font-style="italic"`
		}
		fmt.Fprintf(b, `<text class="%s" x="%.1f" y="%.1f" font-family="sans-serif" %s>%s</text>`+"\n",
			h.class, h.x, h.y, style, escapeXML(h.text))
	}
}

func writeEvents(b *strings.Builder, x *execution.Execution, boxes []box, keep map[int]bool) {
	for i, bx := range boxes {
		if !kept(keep, i) {
			continue
		}
		class := "event"
		dash := ""
		switch {
		case x.Events[i].IsInit():
			class += " init"
			dash = ` stroke-dasharray="4 3"`
		case x.Events[i].Async:
			class += " async"
			dash = ` stroke-dasharray="2 2"`
		}
		fmt.Fprintf(b, `<g class="%s" data-event="%d"><title>e%d %s</title>`, class, i, i, escapeXML(x.Label(i)))
		fmt.Fprintf(b, `<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" rx="6" fill="#ffffff" stroke="#555555"%s/>`,
			bx.cx-bx.w/2, bx.cy-bx.h/2, bx.w, bx.h, dash)
		fmt.Fprintf(b, `<text x="%.1f" y="%.1f" text-anchor="middle" dominant-baseline="central">%s</text></g>`+"\n",
			bx.cx, bx.cy, escapeXML(eventText(x, i)))
	}
}

// borderPoint is where the segment from the box's centre towards p leaves
// the box.
func borderPoint(bx box, p point) point {
	dx, dy := p.x-bx.cx, p.y-bx.cy
	if dx == 0 && dy == 0 {
		return point{bx.cx, bx.cy}
	}
	sx, sy := math.Inf(1), math.Inf(1)
	if dx != 0 {
		sx = (bx.w / 2) / math.Abs(dx)
	}
	if dy != 0 {
		sy = (bx.h / 2) / math.Abs(dy)
	}
	s := math.Min(sx, sy)
	return point{bx.cx + dx*s, bx.cy + dy*s}
}

var xmlEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;", "'", "&#39;")

func escapeXML(s string) string { return xmlEscaper.Replace(s) }
