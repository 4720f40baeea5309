package report

import (
	"strings"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// EdgeChain prints an explanation path in instruction terms:
// "P0:st.weak x, 1 -po-> P0:st.release.gpu flag, 1 -sync-> ...", with an
// inverse edge printed backwards ("A <-rf- B").
func EdgeChain(x *execution.Execution, edges []rules.Edge) string {
	label := func(a int) string {
		if a < len(x.Events) {
			return x.Label(a)
		}
		return "?"
	}
	if len(edges) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString(label(edges[0].From))
	for _, e := range edges {
		rel := RelName(e.Rel)
		if e.Inverse {
			b.WriteString(" <-" + rel + "- ")
		} else {
			b.WriteString(" -" + rel + "-> ")
		}
		b.WriteString(label(e.To))
	}
	return b.String()
}

// RelName is the name a relation of an explanation has in the model's
// text: a cat model's base name that shadows the catalog relation of the
// same name (herd7's po, which leaves out the pairs of one instruction) is
// NAME$base in the lowered program.
func RelName(rel string) string {
	return strings.TrimSuffix(rel, "$base")
}
