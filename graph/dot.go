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
}

// style is how one relation's edges look; relations beyond the palette
// reuse it in turn.
type style struct{ color, line string }

var palette = []style{
	{"black", "solid"}, {"red", "solid"}, {"blue", "solid"}, {"darkorange", "solid"},
	{"darkgreen", "dashed"}, {"purple", "dashed"}, {"brown", "dotted"}, {"deepskyblue4", "dotted"},
}

// DOT renders an execution with the relations of inst (an instance of the
// model holding that execution).
func DOT(x *execution.Execution, inst *rules.Instance, opts Options) (string, error) {
	var b strings.Builder
	b.WriteString("digraph execution {\n")
	b.WriteString("  graph [rankdir=TB, fontname=\"Helvetica\", labelloc=t, newrank=true];\n")
	b.WriteString("  node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n")
	b.WriteString("  edge [fontname=\"Helvetica\", fontsize=9];\n")
	if opts.Title != "" {
		fmt.Fprintf(&b, "  label=%s;\n", quote(opts.Title))
	}
	nInit := len(x.Layout.Locs)
	b.WriteString("  subgraph cluster_init {\n    label=\"initial writes\";\n    style=dashed;\n")
	for i := 0; i < nInit; i++ {
		fmt.Fprintf(&b, "    e%d [label=%s];\n", i, quote(fmt.Sprintf("e%d: %s", i, x.Label(i))))
	}
	b.WriteString("  }\n")
	for t, th := range x.Test.Threads {
		label := fmt.Sprintf("%s (%s)", th.Name, placement(th))
		if note := stuckNote(x, t); note != "" {
			label += " — " + note
		}
		fmt.Fprintf(&b, "  subgraph cluster_t%d {\n    label=%s;\n", t, quote(label))
		lanes := lanesOf(x, t)
		node := func(e int, indent string) {
			text := strings.TrimPrefix(x.Label(e), th.Name+":")
			fmt.Fprintf(&b, "%se%d [label=%s];\n", indent, e, quote(fmt.Sprintf("e%d: %s", e, text)))
		}
		for _, e := range lanes.sync {
			node(e, "    ")
		}
		if len(lanes.async) > 0 {
			// Asynchronous operations are in no program order (8.9.1.1):
			// they are drawn apart, dashed.
			fmt.Fprintf(&b, "    subgraph cluster_t%d_async {\n      label=\"asynchronous\";\n      style=dashed;\n      node [style=\"rounded,dashed\"];\n", t)
			for _, e := range lanes.async {
				node(e, "      ")
			}
			b.WriteString("    }\n")
		}
		b.WriteString("  }\n")
	}
	// Layout as herd draws it: threads as columns with program order
	// running down, the initial writes above them, and only program order
	// (plus invisible edges from the initial writes) constraining the
	// layout, so that communication edges do not distort the columns.
	for t := range x.Test.Threads {
		if len(x.Runs[t].Events) > 0 {
			for i := 0; i < nInit; i++ {
				fmt.Fprintf(&b, "  e%d -> e%d [style=invis];\n", i, x.ThreadStart[t])
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
			fmt.Fprintf(&b, "  e%d -> e%d [style=invis];\n", lanes[t].async[k-1], lanes[t].async[k])
		}
	}
	for k := 0; k < maxLen; k++ {
		b.WriteString("  { rank=same;")
		for t := range x.Test.Threads {
			for _, e := range append(append([]int(nil), lanes[t].sync...), lanes[t].async...) {
				if lanes[t].row[e] == k {
					fmt.Fprintf(&b, " e%d;", e)
				}
			}
		}
		b.WriteString(" }\n")
	}
	// An edge may belong to the witnesses of several checks: it is labelled
	// with all of them, in name order, so the output is deterministic.
	var checks []string
	for check := range opts.Witness {
		checks = append(checks, check)
	}
	sort.Strings(checks)
	highlighted := map[[3]string]string{}
	for _, check := range checks {
		for _, ed := range opts.Witness[check] {
			from, to := ed.From, ed.To
			if ed.Inverse {
				from, to = to, from
			}
			key := [3]string{fmt.Sprint(from), fmt.Sprint(to), ed.Rel}
			if old, ok := highlighted[key]; ok && old != check && !strings.HasSuffix(old, ", "+check) {
				highlighted[key] = old + ", " + check
			} else if !ok {
				highlighted[key] = check
			}
		}
	}
	drawn := map[[3]string]bool{}
	for k, name := range opts.Show {
		st := palette[k%len(palette)]
		r, err := inst.Rel(name)
		if err != nil {
			return "", fmt.Errorf("-show %s: %w", name, err)
		}
		if name == "po" {
			r = immediate(r)
		}
		for i, j := range r.All() {
			if i >= len(x.Events) || j >= len(x.Events) {
				continue
			}
			key := [3]string{fmt.Sprint(i), fmt.Sprint(j), name}
			drawn[key] = true
			layout := ", constraint=false"
			if name == "po" {
				layout = ", weight=10"
			}
			attrs := fmt.Sprintf("label=%s, color=%s, fontcolor=%s, style=%s%s", quote(name), st.color, st.color, st.line, layout)
			if check, ok := highlighted[key]; ok {
				attrs = fmt.Sprintf("label=%s, color=crimson, fontcolor=crimson, penwidth=3, style=bold%s", quote(name+" ("+check+")"), layout)
			}
			fmt.Fprintf(&b, "  e%d -> e%d [%s];\n", i, j, attrs)
		}
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
		fmt.Fprintf(&b, "  e%s -> e%s [label=%s, color=crimson, fontcolor=crimson, penwidth=3, style=bold, constraint=false];\n",
			key[0], key[1], quote(key[2]+" ("+highlighted[key]+")"))
	}
	b.WriteString("}\n")
	return b.String(), nil
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
