package graph

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Edges of an SVG picture: their paths, the areas that catch clicks, and
// labels placed so that no two overlap.

type point struct{ x, y float64 }

// curve is an edge's path: a line (two points), a quadratic (three) or a
// cubic Bézier curve (four).
type curve []point

// d is the curve as SVG path data.
func (c curve) d() string {
	switch len(c) {
	case 2:
		return fmt.Sprintf("M%.1f,%.1f L%.1f,%.1f", c[0].x, c[0].y, c[1].x, c[1].y)
	case 3:
		return fmt.Sprintf("M%.1f,%.1f Q%.1f,%.1f %.1f,%.1f", c[0].x, c[0].y, c[1].x, c[1].y, c[2].x, c[2].y)
	}
	return fmt.Sprintf("M%.1f,%.1f C%.1f,%.1f %.1f,%.1f %.1f,%.1f", c[0].x, c[0].y, c[1].x, c[1].y, c[2].x, c[2].y, c[3].x, c[3].y)
}

// at is the point of the curve at parameter t in [0, 1].
func (c curve) at(t float64) point {
	u := 1 - t
	switch len(c) {
	case 2:
		return point{u*c[0].x + t*c[1].x, u*c[0].y + t*c[1].y}
	case 3:
		return point{u*u*c[0].x + 2*u*t*c[1].x + t*t*c[2].x, u*u*c[0].y + 2*u*t*c[1].y + t*t*c[2].y}
	}
	a, b, cc, d := u*u*u, 3*u*u*t, 3*u*t*t, t*t*t
	return point{a*c[0].x + b*c[1].x + cc*c[2].x + d*c[3].x, a*c[0].y + b*c[1].y + cc*c[2].y + d*c[3].y}
}

// rect is a label's (or an event's) box.
type rect struct{ x0, y0, x1, y1 float64 }

func (r rect) overlaps(o rect) bool {
	return r.x0 < o.x1 && o.x0 < r.x1 && r.y0 < o.y1 && o.y0 < r.y1
}

// Label geometry: an 11px monospace character, and the room around the
// text that keeps labels apart.
const (
	labelCharW = 6.7
	labelH     = 14
	labelPad   = 3
)

// labelRect is the box of a label of text centred at p.
func labelRect(p point, text string) rect {
	w := float64(len([]rune(text)))*labelCharW + 2*labelPad
	return rect{p.x - w/2, p.y - labelH/2, p.x + w/2, p.y + labelH/2}
}

// writeEdges draws every edge and returns their labels, drawn last, and
// the bottom-right corner of the area the labels take. Edges between the
// same two events (of several relations, or both ways) are spread apart so
// each stays visible and clickable: the k-th of them bends further than the
// one before. The areas that catch clicks (class "edge-hit", wide and
// transparent) are drawn under every visible edge, so that a click on a
// line reaches the edge drawn there, not a wider area of another edge near
// it; each label is placed along its edge where it overlaps no other label
// and nothing in taken (the events, the thread headers). Each edge, hit
// area and label is a group with class "edge", "edge-hit" or "edge-label"
// and the edge's data attributes.
func writeEdges(b *strings.Builder, edges []svgEdge, boxes []box, taken []rect) (string, point) {
	type drawn struct {
		e                   svgEdge
		c                   curve
		color, width, class string
		text, attrs         string
	}
	var all []drawn
	seen := map[[2]int]int{}
	for _, e := range edges {
		pair := [2]int{min(e.from, e.to), max(e.from, e.to)}
		k := seen[pair]
		seen[pair]++
		d := drawn{e: e, c: edgePath(boxes[e.from], boxes[e.to], k), color: e.color, width: "1.6", text: e.rel}
		if e.checks != "" {
			d.color, d.width, d.class = WitnessColor, "3", " witness"
			d.text = e.rel + " (" + e.checks + ")"
		}
		d.attrs = fmt.Sprintf(`data-rel="%s" data-from="%d" data-to="%d"`, escapeXML(e.rel), e.from, e.to)
		if e.checks != "" {
			d.attrs += fmt.Sprintf(` data-checks="%s"`, escapeXML(e.checks))
		}
		all = append(all, d)
	}
	for _, d := range all {
		fmt.Fprintf(b, `<g class="edge-hit%s" %s><title>%s(e%d, e%d)</title><path class="hit" d="%s" fill="none" stroke="transparent" stroke-width="12"/></g>`+"\n",
			d.class, d.attrs, escapeXML(d.e.rel), d.e.from, d.e.to, d.c.d())
	}
	for _, d := range all {
		fmt.Fprintf(b, `<g class="edge%s" %s><title>%s(e%d, e%d)</title><path d="%s" fill="none" stroke="%s" stroke-width="%s" marker-end="url(#%s)"/></g>`+"\n",
			d.class, d.attrs, escapeXML(d.e.rel), d.e.from, d.e.to, d.c.d(), escapeXML(d.color), d.width, markerID(d.color))
	}
	var labels strings.Builder
	var corner point
	for _, d := range all {
		at := placeLabel(d.c, d.text, taken)
		r := labelRect(at, d.text)
		taken = append(taken, r)
		corner = point{math.Max(corner.x, r.x1), math.Max(corner.y, r.y1)}
		fmt.Fprintf(&labels, `<g class="edge-label%s" %s><title>%s(e%d, e%d)</title><text x="%.1f" y="%.1f" text-anchor="middle" font-size="11" fill="%s" stroke="#ffffff" stroke-width="3" paint-order="stroke">%s</text></g>`+"\n",
			d.class, d.attrs, escapeXML(d.e.rel), d.e.from, d.e.to, at.x, at.y+4, escapeXML(d.color), escapeXML(d.text))
	}
	return labels.String(), corner
}

// labelSpots are the places along an edge tried for its label, from its
// middle outwards.
var labelSpots = []float64{0.5, 0.45, 0.55, 0.4, 0.6, 0.35, 0.65, 0.3, 0.7, 0.25, 0.75, 0.2, 0.8, 0.15, 0.85, 0.1, 0.9}

// labelReach bounds how far from its edge a label may go, in label heights
// above or below and half label widths aside: far enough that a free
// place is always found for the pictures ptxmm draws (a picture is a few
// dozen events wide and high), near enough to stay cheap.
const labelReach = 24

// placeLabel finds where a label goes on curve c: the first place along
// it, from the middle outwards, then beside it, further and further,
// where it overlaps nothing taken and stays right of and below the
// picture's top-left corner. Failing that (only when more labels crowd
// one place than labelReach makes room for) it takes the place of least
// overlap.
func placeLabel(c curve, text string, taken []rect) point {
	best, bestCost := c.at(0.5), math.Inf(1)
	w := labelRect(point{}, text).x1 * 2
	for ring := 0; ring <= labelReach; ring++ {
		for _, off := range ringOffsets(ring) {
			spots := labelSpots
			if ring > 3 {
				// Far from the edge, where along it matters less.
				spots = labelSpots[:5]
			}
			for _, t := range spots {
				p := c.at(t)
				p.y += float64(off[0]) * labelH
				p.x += float64(off[1]) * w / 2
				r := labelRect(p, text)
				if r.x0 < 0 || r.y0 < 0 {
					continue
				}
				cost := 0.0
				for _, o := range taken {
					if r.overlaps(o) {
						cost += (math.Min(r.x1, o.x1) - math.Max(r.x0, o.x0)) * (math.Min(r.y1, o.y1) - math.Max(r.y0, o.y0))
					}
				}
				if cost == 0 {
					return p
				}
				if cost < bestCost {
					best, bestCost = p, cost
				}
			}
		}
	}
	return best
}

// ringOffsets are the offsets (rows, half label widths) at distance ring
// from the edge (the larger of the two is ring), in the order tried:
// nearest the edge's own column first, above before below.
func ringOffsets(ring int) [][2]int {
	var out [][2]int
	for dy := -ring; dy <= ring; dy++ {
		for dx := -ring; dx <= ring; dx++ {
			if max(abs(dy), abs(dx)) == ring {
				out = append(out, [2]int{dy, dx})
			}
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if abs(out[i][1]) != abs(out[j][1]) {
			return abs(out[i][1]) < abs(out[j][1])
		}
		return abs(out[i][0]) < abs(out[j][0])
	})
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// edgePath returns the path of the k-th edge between two boxes.
func edgePath(a, c box, k int) curve {
	if a == c {
		// An event related to itself: a loop on the box's right side.
		p0 := point{a.cx + a.w/2, a.cy - 6}
		p3 := point{a.cx + a.w/2, a.cy + 6}
		reach := float64(svgArcReach + k*svgArcStep)
		return curve{p0, {p0.x + reach, p0.y - 18}, {p3.x + reach, p3.y + 18}, p3}
	}
	if (a.col < 0) != (c.col < 0) && max(a.row, c.row) > 0 {
		return initPath(a, c, k)
	}
	if a.col == c.col && a.col >= 0 {
		if k == 0 && c.row == a.row+1 {
			return curve{{a.cx, a.cy + a.h/2}, {c.cx, c.cy - c.h/2}}
		}
		// Within a column: an arc out to the right, clear of program order.
		reach := float64(svgArcReach + k*svgArcStep)
		dir := 1.0
		if c.cy < a.cy {
			dir = -1
		}
		p0 := point{a.cx + a.w/2, a.cy + dir*4}
		p3 := point{c.cx + c.w/2, c.cy - dir*4}
		return curve{p0, {p0.x + reach, p0.y}, {p3.x + reach, p3.y}, p3}
	}
	p0 := borderPoint(a, point{c.cx, c.cy})
	p2 := borderPoint(c, point{a.cx, a.cy})
	// Bend alternately to either side: 0, +1, -1, +2, ... steps.
	bend := float64((k+1)/2) * svgBendStep
	if k%2 == 0 {
		bend = -bend
	}
	dx, dy := p2.x-p0.x, p2.y-p0.y
	length := math.Hypot(dx, dy)
	if length == 0 {
		length = 1
	}
	mid := point{(p0.x + p2.x) / 2, (p0.y + p2.y) / 2}
	return curve{p0, {mid.x - dy/length*bend*2, mid.y + dx/length*bend*2}, p2}
}

// initPath routes an edge between an initial write and an event below the
// first row of its column along the column's side, so that it does not
// cross the events above the one it reaches.
func initPath(a, c box, k int) curve {
	init, ev := a, c
	if c.col < 0 {
		init, ev = c, a
	}
	dir := 1.0 // the side of the column nearer the initial write
	if init.cx < ev.cx {
		dir = -1
	}
	reach := float64(svgArcReach + k*svgArcStep)
	side := ev.cx + dir*ev.w/2
	pInit := point{init.cx, init.cy + init.h/2}
	pEv := point{side, ev.cy}
	cInit := point{side + dir*reach, pInit.y + svgRowGap}
	cEv := point{side + dir*reach, ev.cy}
	if a.col < 0 {
		return curve{pInit, cInit, cEv, pEv}
	}
	return curve{pEv, cEv, cInit, pInit}
}
