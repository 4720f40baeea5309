package graph

import (
	"fmt"
	"strings"
)

// Pinned layout. The pictures of the "cluster" and "columns" layouts give
// every node its position (pos="x,y!") and ask Graphviz for its neato
// engine (layout=neato), which then only routes the edges: threads are
// columns with program order running down, the initial writes on top, the
// events of one row side by side, as herd7 draws them (herd7 pins its
// nodes too). Laid out by dot instead, with its ranks, these pictures
// made Graphviz 2.43 (Debian's) stop with "trouble in init_rank", or
// corrupt its memory and abort on the next graph of the file, on edges
// that do not constrain the ranks (constraint=false) beside clusters,
// rank=same groups and invisible edges. "dot -Tsvg FILE.dot" reads
// layout=neato and draws them all.

// Geometry of a pinned picture, in points.
const (
	pinRowH   = 72  // from one row to the next
	pinColGap = 48  // between columns
	pinCharW  = 7.2 // a wide character of the 11pt label font (an overestimate keeps boxes apart)
	pinPad    = 22  // a box's margins
	pinMinW   = 70
)

// pinned reports whether the picture gives its nodes positions.
func (d *drawer) pinned() bool { return d.st.Layout == "cluster" || d.st.Layout == "columns" }

// pinnedAttrs are the graph attributes of a pinned picture.
func (d *drawer) pinnedAttrs() string {
	if !d.pinned() {
		return ""
	}
	a := ", layout=neato, inputscale=72"
	if d.st.Splines == "" {
		a += ", splines=true"
	}
	if d.st.Overlap == "" {
		a += ", overlap=true"
	}
	return a
}

// pos is the position attribute of a node, "" when not pinned.
func (d *drawer) pos(node string) string {
	p, ok := d.pins[node]
	if !ok {
		return ""
	}
	return fmt.Sprintf(", pos=\"%.0f,%.0f!\"", p[0], p[1])
}

// textWidth estimates the width of a node labelled text.
func textWidth(text string) float64 {
	longest := 0
	for _, line := range strings.Split(text, "\n") {
		longest = max(longest, len([]rune(line)))
	}
	return max(pinMinW, float64(longest)*pinCharW+pinPad)
}

// pin places the nodes: the initial writes (or the init node) in the top
// row, then a header row when the columns have headers, then the rows of
// the threads, each thread a column and its asynchronous lane a column
// beside it.
func (d *drawer) pin() {
	d.pins = map[string][2]float64{}
	if !d.pinned() {
		return
	}
	x := d.x
	scaleX, scaleY := d.st.Scale*d.st.XScale, d.st.Scale*d.st.YScale
	if scaleX <= 0 {
		scaleX = 1
	}
	if scaleY <= 0 {
		scaleY = 1
	}
	y := 0.0
	if d.st.ShowInitWrites {
		if d.st.OneInit {
			d.pins[initNode] = [2]float64{0, 0}
		} else {
			xPos := 0.0
			for i := 0; i < d.nInit; i++ {
				if !kept(d.keep, i) {
					continue
				}
				w := textWidth(fmt.Sprintf("e%d: %s", i, x.Label(i)))
				d.pins[fmt.Sprintf("e%d", i)] = [2]float64{(xPos + w/2) * scaleX, 0}
				xPos += w + pinColGap
			}
		}
		y -= pinRowH * scaleY
	}
	if d.headed() {
		// A header row.
		y -= pinRowH * scaleY * 3 / 4
	}
	top := y
	xPos := 0.0
	rows := 0
	for t, th := range x.Test.Threads {
		lanes := keptLanesOf(x, t, d.keep)
		if len(lanes.sync)+len(lanes.async) == 0 {
			continue
		}
		rows = max(rows, lanes.rows)
		w := float64(pinMinW)
		if d.headed() {
			w = max(w, textWidth(d.threadLabel(t)))
		}
		for _, e := range lanes.sync {
			w = max(w, textWidth(d.label(e, th.Name)))
		}
		cx := (xPos + w/2) * scaleX
		if d.headed() {
			d.pins[headNode(t)] = [2]float64{cx, top + pinRowH*scaleY*3/4}
		}
		for _, e := range lanes.sync {
			d.pins[fmt.Sprintf("e%d", e)] = [2]float64{cx, top - float64(lanes.row[e])*pinRowH*scaleY}
		}
		xPos += w + pinColGap
		if len(lanes.async) > 0 {
			aw := float64(pinMinW)
			for _, e := range lanes.async {
				aw = max(aw, textWidth(d.label(e, th.Name)))
			}
			ax := (xPos + aw/2) * scaleX
			for _, e := range lanes.async {
				d.pins[fmt.Sprintf("e%d", e)] = [2]float64{ax, top - float64(lanes.row[e])*pinRowH*scaleY}
			}
			xPos += aw + pinColGap
		}
		// Extra room between threads for the clusters' frames.
		if d.st.Layout == "cluster" {
			xPos += pinColGap / 2
		}
	}
	d.pins[finalNode] = [2]float64{0, top - float64(rows)*pinRowH*scaleY}
	if d.st.OneInit {
		// The init node above the middle of the columns.
		d.pins[initNode] = [2]float64{(xPos - pinColGap) / 2 * scaleX, 0}
	}
}
