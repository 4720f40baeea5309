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
	// Only, when set, are the events drawn: the picture of an outcome
	// keeps those that explain it. Edges between other events are left
	// out, and program order is drawn between the events kept.
	Only []int
}

// keepSet turns Only into a set, nil for every event.
func keepSet(only []int) map[int]bool {
	if only == nil {
		return nil
	}
	keep := map[int]bool{}
	for _, e := range only {
		keep[e] = true
	}
	return keep
}

// kept reports whether event e is drawn.
func kept(keep map[int]bool, e int) bool { return keep == nil || keep[e] }

// restrict keeps the pairs of r between drawn events.
func restrict(r *relations.Rel, keep map[int]bool) *relations.Rel {
	if keep == nil {
		return r
	}
	out := r.Clone()
	for i, j := range r.All() {
		if !keep[i] || !keep[j] {
			out.Remove(i, j)
		}
	}
	return out
}

// atoi reads an event number written by fmt.Sprint.
func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
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
	// shown holds the events drawn; keep, when set, the events
	// Options.Only allows.
	shown map[int]bool
	keep  map[int]bool
	// pins are the nodes' positions in a pinned layout (pin.go).
	pins map[string][2]float64
}

// threadLabel is the header of thread t's column or cluster.
func (d *drawer) threadLabel(t int) string {
	th := d.x.Test.Threads[t]
	label := fmt.Sprintf("%s (%s)", th.Name, placement(th))
	if note := stuckNote(d.x, t); note != "" {
		label += ": " + note
	}
	return label
}

// DOT renders an execution with the relations of inst (an instance of the
// model holding that execution).
func DOT(x *execution.Execution, inst *rules.Instance, opts Options) (string, error) {
	st := PtxmmStyle()
	if opts.Style != nil {
		st = *opts.Style
	}
	d := &drawer{x: x, st: st, nInit: len(x.Layout.Locs), shown: map[int]bool{}, keep: keepSet(opts.Only)}
	d.pin()
	d.header(opts.Title)
	d.nodes()
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
	fmt.Fprintf(b, "  graph [rankdir=TB, fontname=%s, labelloc=t%s%s];\n", quote(font), d.pinnedAttrs(), d.graphAttrs())
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
	if !kept(d.keep, e) {
		return false
	}
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
			fmt.Fprintf(b, "  %s [label=%s%s];\n", initNode, quote(label), d.pos(initNode))
		} else if d.pinned() {
			// The top row, dashed: no frame, which a pinned picture would
			// draw over them.
			for i := 0; i < d.nInit; i++ {
				if kept(d.keep, i) {
					fmt.Fprintf(b, "  e%d [label=%s, style=\"rounded,dashed\"%s];\n", i, quote(fmt.Sprintf("e%d: %s", i, x.Label(i))), d.pos(fmt.Sprintf("e%d", i)))
				}
			}
		} else if d.initsKept() > 0 {
			b.WriteString("  subgraph cluster_init {\n    label=\"initial writes\";\n    style=dashed;\n")
			for i := 0; i < d.nInit; i++ {
				if kept(d.keep, i) {
					fmt.Fprintf(b, "    e%d [label=%s%s];\n", i, quote(fmt.Sprintf("e%d: %s", i, x.Label(i))), d.pos(fmt.Sprintf("e%d", i)))
				}
			}
			b.WriteString("  }\n")
		}
		for i := 0; i < d.nInit; i++ {
			d.shown[i] = kept(d.keep, i)
		}
	}
	for t, th := range x.Test.Threads {
		label := d.threadLabel(t)
		lanes := keptLanesOf(x, t, d.keep)
		if len(lanes.sync)+len(lanes.async) == 0 {
			continue
		}
		switch {
		case st.Layout == "cluster":
			// Not the graph's label, which a cluster inherits.
			fmt.Fprintf(b, "  subgraph cluster_t%d {\n    label=\"\";\n", t)
		default:
			fmt.Fprintf(b, "  subgraph t%d {\n", t)
		}
		if d.headed() {
			// The header is a node above the column, inside its frame
			// in the cluster layout.
			fmt.Fprintf(b, "    %s [shape=plaintext, height=0.3, label=%s%s];\n", headNode(t), quote(label), d.pos(headNode(t)))
		}
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
						fmt.Fprintf(b, "      e%d [label=%s%s];\n", m, quote(d.label(m, th.Name)), d.pos(fmt.Sprintf("e%d", m)))
					}
				}
				b.WriteString("    }\n")
				continue
			}
			if _, inBox := boxes[e]; inBox {
				continue
			}
			fmt.Fprintf(b, "    e%d [label=%s%s];\n", e, quote(d.label(e, th.Name)), d.pos(fmt.Sprintf("e%d", e)))
		}
		// Asynchronous operations are in no program order (8.9.1.1): they
		// are drawn apart, dashed, in a lane of their own.
		if len(lanes.async) > 0 {
			if st.Layout == "cluster" {
				fmt.Fprintf(b, "    subgraph cluster_t%d_async {\n      label=\"asynchronous\";\n      style=dashed;\n", t)
			} else {
				fmt.Fprintf(b, "    subgraph t%d_async {\n", t)
			}
			for _, e := range lanes.async {
				if d.drawn(e) {
					d.shown[e] = true
					fmt.Fprintf(b, "      e%d [label=%s, style=\"rounded,dashed\"%s];\n", e, quote(d.label(e, th.Name)), d.pos(fmt.Sprintf("e%d", e)))
				}
			}
			b.WriteString("    }\n")
		}
		b.WriteString("  }\n")
	}
}

// headed reports whether the columns have header nodes.
func (d *drawer) headed() bool { return d.pinned() && d.st.ShowThread }

// headNode names the header node of thread t's column (Layout "columns").
func headNode(t int) string { return fmt.Sprintf("h%d", t) }

// initsKept counts the initial writes drawn.
func (d *drawer) initsKept() int {
	n := 0
	for i := 0; i < d.nInit; i++ {
		if kept(d.keep, i) {
			n++
		}
	}
	return n
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
		r = restrict(r, d.keep)
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
			// No constraint=false: a pinned picture's nodes do not move,
			// and in a free one every edge places them (Graphviz 2.43
			// corrupts its memory on some pictures of edges with
			// constraint=false).
			layout := ""
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
		if !drawn[key] && d.shown[atoi(key[0])] && d.shown[atoi(key[1])] {
			extra = append(extra, key)
		}
	}
	sort.Slice(extra, func(a, c int) bool { return strings.Join(extra[a][:], " ") < strings.Join(extra[c][:], " ") })
	for _, key := range extra {
		fmt.Fprintf(b, "  %s -> %s [label=%s, color=crimson, fontcolor=crimson, penwidth=3, style=bold];\n",
			d.node(atoi(key[0])), d.node(atoi(key[1])), quote(key[2]+" ("+highlighted[key]+")"))
	}
	if st.ShowFinalRF && len(opts.Finals) > 0 {
		fmt.Fprintf(b, "  %s [label=\"final\", shape=plaintext%s];\n", finalNode, d.pos(finalNode))
		seen := map[int]bool{}
		for _, w := range opts.Finals {
			if w >= 0 && w < len(x.Events) && !seen[w] && d.shown[w] {
				seen[w] = true
				fmt.Fprintf(b, "  %s -> %s [label=\"rf\", color=red, fontcolor=red, style=dashed];\n", d.node(w), finalNode)
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
			out[i].attrs = fmt.Sprintf("label=%s", quote(out[i].rel))
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
