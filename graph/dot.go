package graph

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// Options say what to draw.
type Options struct {
	// Title labels the graph (the test name and what was selected).
	Title string
	// Show lists the relations drawn as edges, in order. po is drawn as
	// its immediate successors only.
	Show []string
	// Witness holds the highlighted edges, per failed check name.
	Witness map[string][]rules.Edge
	// Style is how the picture looks; nil is PtxmmStyle.
	Style *Style
	// Finals are the final writes, for Style.ShowFinalRF.
	Finals []int
}

// style is how one relation's edges look; relations beyond the palette
// reuse it in turn.
type style struct{ color, line string }

var palette = []style{
	{"black", "solid"}, {"red", "solid"}, {"blue", "solid"}, {"darkorange", "solid"},
	{"darkgreen", "dashed"}, {"purple", "dashed"}, {"brown", "dotted"}, {"deepskyblue4", "dotted"},
}

// initNode is the name of the init pseudo-event (Style.OneInit), and
// finalNode of the final one (Style.ShowFinalRF).
const (
	initNode  = "init"
	finalNode = "final"
)

// drawer writes one picture.
type drawer struct {
	x     *execution.Execution
	st    Style
	b     strings.Builder
	nInit int
	// shown holds the events drawn.
	shown map[int]bool
}

// DOT renders an execution with the relations of inst (an instance of the
// model holding that execution).
func DOT(x *execution.Execution, inst *rules.Instance, opts Options) (string, error) {
	st := PtxmmStyle()
	if opts.Style != nil {
		st = *opts.Style
	}
	d := &drawer{x: x, st: st, nInit: len(x.Layout.Locs), shown: map[int]bool{}}
	d.header(opts.Title)
	d.nodes()
	d.layout()
	if err := d.edges(inst, opts); err != nil {
		return "", err
	}
	d.b.WriteString("}\n")
	return d.b.String(), nil
}

// header writes the graph's attributes and legend.
func (d *drawer) header(title string) {
	st, b := d.st, &d.b
	if st.Header != "" {
		b.WriteString(st.Header)
		if !strings.HasSuffix(st.Header, "\n") {
			b.WriteString("\n")
		}
	}
	font := "Helvetica"
	if st.FontName != "" {
		font = st.FontName
	}
	b.WriteString("digraph execution {\n")
	fmt.Fprintf(b, "  graph [rankdir=TB, fontname=%s, labelloc=t, newrank=true%s];\n", quote(font), d.graphAttrs())
	nodeSize, edgeSize := 11, 9
	if st.FontSize > 0 {
		nodeSize, edgeSize = st.FontSize, st.FontSize+st.EdgeFontDelta
	}
	extra := ""
	if st.FixedSize {
		extra = ", fixedsize=true"
	}
	fmt.Fprintf(b, "  node [shape=box, style=rounded, fontname=%s, fontsize=%d%s];\n", quote(font), nodeSize, extra)
	fmt.Fprintf(b, "  edge [fontname=%s, fontsize=%d%s];\n", quote(font), edgeSize, d.edgeDefaults())
	if st.ShowLegend && title != "" {
		fmt.Fprintf(b, "  label=%s;\n", quote(title))
	}
}

// graphAttrs are the graph attributes the style sets.
func (d *drawer) graphAttrs() string {
	st := d.st
	var a []string
	for _, kv := range [][2]string{{"splines", st.Splines}, {"overlap", st.Overlap}, {"sep", st.Sep}} {
		if kv[1] != "" {
			a = append(a, kv[0]+"="+quote(kv[1]))
		}
	}
	for _, kv := range []struct {
		k string
		v float64
	}{{"margin", st.Margin}, {"pad", st.Pad}} {
		if kv.v != 0 {
			a = append(a, fmt.Sprintf("%s=%g", kv.k, kv.v))
		}
	}
	if st.Scale*st.XScale != 1 {
		a = append(a, fmt.Sprintf("nodesep=%g", 0.25*st.Scale*st.XScale))
	}
	if st.Scale*st.YScale != 1 {
		a = append(a, fmt.Sprintf("ranksep=%g", 0.5*st.Scale*st.YScale))
	}
	if len(a) == 0 {
		return ""
	}
	return ", " + strings.Join(a, ", ")
}

// edgeDefaults are the edge attributes the style sets.
func (d *drawer) edgeDefaults() string {
	var a []string
	if d.st.PenWidth != 0 {
		a = append(a, fmt.Sprintf("penwidth=%g", d.st.PenWidth))
	}
	if d.st.ArrowSize != 0 {
		a = append(a, fmt.Sprintf("arrowsize=%g", d.st.ArrowSize))
	}
	if d.st.MoveLabel {
		a = append(a, "labelfloat=true")
	}
	if len(a) == 0 {
		return ""
	}
	return ", " + strings.Join(a, ", ")
}

// drawn reports whether the style draws event e.
func (d *drawer) drawn(e int) bool {
	ev := &d.x.Events[e]
	if ev.IsInit() {
		return d.st.ShowInitWrites
	}
	switch d.st.Events {
	case "mem":
		return ev.IsMemory()
	case "memf":
		return ev.IsMemory() || ev.Kind == execution.KindFence || ev.Kind == execution.KindProxyFence
	}
	return true
}

// node names event e's node: the init pseudo-event stands for every
// initial write under OneInit.
func (d *drawer) node(e int) string {
	if e < d.nInit && d.st.OneInit {
		return initNode
	}
	return fmt.Sprintf("e%d", e)
}

// label is event e's label, without its thread's name.
func (d *drawer) label(e int, thread string) string {
	if d.st.Squished {
		return d.squished(e)
	}
	return fmt.Sprintf("e%d: %s", e, strings.TrimPrefix(d.x.Label(e), thread+":"))
}

// squished is the short label of an event: R[x]=1, W[y]=0, or the
// instruction's name.
func (d *drawer) squished(e int) string {
	ev := &d.x.Events[e]
	names := d.x.Layout.AddrNames()
	if ev.IsMemory() {
		kind := "R"
		if ev.Kind == execution.KindWrite {
			kind = "W"
		}
		loc := d.x.Layout.Locs[ev.Loc].Name
		if d.st.Brackets {
			loc = "[" + loc + "]"
		}
		return fmt.Sprintf("%s%s=%s", kind, loc, ev.Value.Format(names))
	}
	name, _, _ := strings.Cut(strings.TrimSpace(ev.Instr.Text), " ")
	return name
}

// nodes writes the events, thread by thread.
func (d *drawer) nodes() {
	b, st, x := &d.b, d.st, d.x
	if st.ShowInitWrites {
		if st.OneInit {
			label := "init"
			if st.LabelInit {
				var vals []string
				for i := 0; i < d.nInit; i++ {
					vals = append(vals, strings.TrimPrefix(x.Label(i), "init:"))
				}
				label = "init: " + strings.Join(vals, "; ")
			}
			fmt.Fprintf(b, "  %s [label=%s];\n", initNode, quote(label))
		} else {
			b.WriteString("  subgraph cluster_init {\n    label=\"initial writes\";\n    style=dashed;\n")
			for i := 0; i < d.nInit; i++ {
				fmt.Fprintf(b, "    e%d [label=%s];\n", i, quote(fmt.Sprintf("e%d: %s", i, x.Label(i))))
			}
			b.WriteString("  }\n")
		}
		for i := 0; i < d.nInit; i++ {
			d.shown[i] = true
		}
	}
	for t, th := range x.Test.Threads {
		label := fmt.Sprintf("%s (%s)", th.Name, placement(th))
		if note := stuckNote(x, t); note != "" {
			label += " — " + note
		}
		switch {
		case st.Layout == "cluster":
			fmt.Fprintf(b, "  subgraph cluster_t%d {\n", t)
			if st.ShowThread {
				fmt.Fprintf(b, "    label=%s;\n", quote(label))
			}
		default:
			fmt.Fprintf(b, "  subgraph t%d {\n", t)
		}
		lanes := lanesOf(x, t)
		boxes := d.boxes(lanes.sync)
		for _, e := range lanes.sync {
			if !d.drawn(e) {
				continue
			}
			d.shown[e] = true
			if box, ok := boxes[e]; ok && box.first == e {
				fmt.Fprintf(b, "    subgraph cluster_i%d {\n      style=dotted;\n", e)
				if st.LabelBox {
					fmt.Fprintf(b, "      label=%s;\n", quote(strings.TrimSpace(x.Events[e].Instr.Text)))
				} else {
					b.WriteString("      label=\"\";\n")
				}
				for _, m := range box.members {
					if d.drawn(m) {
						fmt.Fprintf(b, "      e%d [label=%s];\n", m, quote(d.label(m, th.Name)))
					}
				}
				b.WriteString("    }\n")
				continue
			}
			if _, inBox := boxes[e]; inBox {
				continue
			}
			fmt.Fprintf(b, "    e%d [label=%s];\n", e, quote(d.label(e, th.Name)))
		}
		if len(lanes.async) > 0 {
			// Asynchronous operations are in no program order (8.9.1.1):
			// they are drawn apart, dashed.
			fmt.Fprintf(b, "    subgraph cluster_t%d_async {\n      label=\"asynchronous\";\n      style=dashed;\n      node [style=\"rounded,dashed\"];\n", t)
			for _, e := range lanes.async {
				if d.drawn(e) {
					d.shown[e] = true
					fmt.Fprintf(b, "      e%d [label=%s];\n", e, quote(d.label(e, th.Name)))
				}
			}
			b.WriteString("    }\n")
		}
		b.WriteString("  }\n")
	}
}

// instrBox is the events of one instruction (Style.WithBox).
type instrBox struct {
	first   int
	members []int
}

// boxes groups a thread's events by instruction instance, when the style
// boxes them: each event of an instruction with several maps to its box.
func (d *drawer) boxes(events []int) map[int]*instrBox {
	out := map[int]*instrBox{}
	if !d.st.WithBox {
		return out
	}
	for k := 0; k < len(events); {
		j := k + 1
		for j < len(events) && d.x.Events[events[j]].Instr == d.x.Events[events[k]].Instr && d.x.Events[events[j]].Step == d.x.Events[events[k]].Step {
			j++
		}
		if j-k > 1 {
			bx := &instrBox{first: events[k], members: events[k:j]}
			for _, e := range events[k:j] {
				out[e] = bx
			}
		}
		k = j
	}
	return out
}

// layout writes the constraints that place the threads as herd does:
// threads as columns with program order running down, the initial writes
// above them, and only program order (plus invisible edges from the
// initial writes) constraining the layout, so that communication edges do
// not distort the columns. A free layout has none.
func (d *drawer) layout() {
	b, x := &d.b, d.x
	if d.st.Layout == "free" {
		return
	}
	if d.st.ShowInitWrites {
		for t := range x.Test.Threads {
			if len(x.Runs[t].Events) == 0 || !d.shown[x.ThreadStart[t]] {
				continue
			}
			if d.st.OneInit {
				fmt.Fprintf(b, "  %s -> e%d [style=invis];\n", initNode, x.ThreadStart[t])
				continue
			}
			for i := 0; i < d.nInit; i++ {
				fmt.Fprintf(b, "  e%d -> e%d [style=invis];\n", i, x.ThreadStart[t])
			}
		}
	}
	maxLen := 0
	var lanes []threadLanes
	for t := range x.Test.Threads {
		lanes = append(lanes, lanesOf(x, t))
		maxLen = max(maxLen, lanes[t].rows)
		// Invisible edges keep an asynchronous lane in issue order where no
		// other thread has an event at the same row.
		for k := 1; k < len(lanes[t].async); k++ {
			if d.shown[lanes[t].async[k-1]] && d.shown[lanes[t].async[k]] {
				fmt.Fprintf(b, "  e%d -> e%d [style=invis];\n", lanes[t].async[k-1], lanes[t].async[k])
			}
		}
	}
	for k := 0; k < maxLen; k++ {
		b.WriteString("  { rank=same;")
		for t := range x.Test.Threads {
			for _, e := range append(append([]int(nil), lanes[t].sync...), lanes[t].async...) {
				if lanes[t].row[e] == k && d.shown[e] {
					fmt.Fprintf(b, " e%d;", e)
				}
			}
		}
		b.WriteString(" }\n")
	}
}

// edge is one edge to draw.
type edge struct {
	from, to string
	rel      string
	attrs    string
	key      [3]string
}

// edges writes the relations' edges, the witnesses highlighted.
func (d *drawer) edges(inst *rules.Instance, opts Options) error {
	b, x, st := &d.b, d.x, d.st
	highlighted := witnessIndex(opts.Witness)
	drawn := map[[3]string]bool{}
	var out []edge
	for k, name := range opts.Show {
		if name == "po" && !st.ShowPo {
			continue
		}
		pal := palette[k%len(palette)]
		if st.Mono {
			pal = style{"black", pal.line}
		}
		r, err := inst.Rel(name)
		if err != nil {
			return fmt.Errorf("-show %s: %w", name, err)
		}
		if name == "po" && !st.Raw[name] {
			r = immediate(r)
		}
		symmetric := st.Symmetric[name] || st.NoID[name]
		for i, j := range r.All() {
			if i >= len(x.Events) || j >= len(x.Events) || !d.shown[i] || !d.shown[j] {
				continue
			}
			if name == "rf" && i < d.nInit && !st.ShowInitRF || symmetric && (i > j || i == j && st.NoID[name]) {
				continue
			}
			key := [3]string{fmt.Sprint(i), fmt.Sprint(j), name}
			drawn[key] = true
			layout := ", constraint=false"
			if name == "po" {
				layout = ", weight=10"
			}
			if symmetric {
				layout += ", dir=none"
			}
			attrs := fmt.Sprintf("label=%s, color=%s, fontcolor=%s, style=%s%s", quote(name), pal.color, pal.color, pal.line, layout)
			if check, ok := highlighted[key]; ok {
				attrs = fmt.Sprintf("label=%s, color=crimson, fontcolor=crimson, penwidth=3, style=bold%s", quote(name+" ("+check+")"), layout)
			}
			for _, kv := range st.EdgeAttrs[name] {
				attrs += fmt.Sprintf(", %s=%s", kv[0], quote(kv[1]))
			}
			out = append(out, edge{from: d.node(i), to: d.node(j), rel: name, attrs: attrs, key: key})
		}
	}
	if st.EdgeMerge {
		out = merge(out)
	}
	for _, e := range out {
		fmt.Fprintf(b, "  %s -> %s [%s];\n", e.from, e.to, e.attrs)
	}
	// Witness edges of relations not shown are drawn on their own.
	var extra [][3]string
	for key := range highlighted {
		if !drawn[key] {
			extra = append(extra, key)
		}
	}
	sort.Slice(extra, func(a, c int) bool { return strings.Join(extra[a][:], " ") < strings.Join(extra[c][:], " ") })
	for _, key := range extra {
		fmt.Fprintf(b, "  e%s -> e%s [label=%s, color=crimson, fontcolor=crimson, penwidth=3, style=bold, constraint=false];\n",
			key[0], key[1], quote(key[2]+" ("+highlighted[key]+")"))
	}
	if st.ShowFinalRF && len(opts.Finals) > 0 {
		fmt.Fprintf(b, "  %s [label=\"final\", shape=plaintext];\n", finalNode)
		seen := map[int]bool{}
		for _, w := range opts.Finals {
			if w >= 0 && w < len(x.Events) && !seen[w] && d.shown[w] {
				seen[w] = true
				fmt.Fprintf(b, "  %s -> %s [label=\"rf\", color=red, fontcolor=red, style=dashed, constraint=false];\n", d.node(w), finalNode)
			}
		}
	}
	return nil
}

// merge draws the edges between two nodes as one, labelled with every
// relation (herd7's -edgemerge, cppmem's style).
func merge(edges []edge) []edge {
	var out []edge
	at := map[[2]string]int{}
	for _, e := range edges {
		k := [2]string{e.from, e.to}
		if i, ok := at[k]; ok {
			out[i].rel += ", " + e.rel
			out[i].attrs = fmt.Sprintf("label=%s, constraint=false", quote(out[i].rel))
			continue
		}
		at[k] = len(out)
		out = append(out, e)
	}
	return out
}

// immediate keeps the pairs of a strict order with nothing between them.
func immediate(r *relations.Rel) *relations.Rel {
	out := r.Clone()
	n := r.N()
	for i, j := range r.All() {
		for k := 0; k < n; k++ {
			if r.Has(i, k) && r.Has(k, j) {
				out.Remove(i, j)
				break
			}
		}
	}
	return out
}

// quote makes a DOT string.
func quote(s string) string {
	return "\"" + strings.NewReplacer("\\", "\\\\", "\"", "\\\"", "\n", "\\n").Replace(s) + "\""
}
