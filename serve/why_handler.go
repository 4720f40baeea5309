package serve

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/rules"
)

// MaxDerivationNodes bounds the derivation tree of one answer; a larger one
// is refused with this limit named rather than cut short.
const MaxDerivationNodes = 5000

func (s *Server) handleWhy(c *apiCall, req *WhyRequest) (any, error) {
	if req.Rel == "" {
		return nil, badRequest("rel: name the relation whose tuple to explain")
	}
	sel, done, err := s.selectExec(c, req.Test, req.Model, req.Exec, 0)
	if err != nil {
		return nil, err
	}
	defer done()
	x := sel.cand.Execution
	for _, a := range req.Args {
		if a < 0 || a >= len(x.Events) {
			return nil, badRequest("args: e%d is not an event of execution %d (it has e0 to e%d)", a, sel.index, len(x.Events)-1)
		}
	}
	d, err := sel.inst.Why(req.Rel, req.Args)
	if err != nil {
		return nil, &apiError{status: 422, msg: err.Error()}
	}
	m := sel.model.model
	count := 0
	tree := derivationNode(m, d, &count)
	if count > MaxDerivationNodes {
		return nil, &apiError{status: 422, msg: fmt.Sprintf("the derivation of %s has more than %d tuples, the limit of one answer; ask about a smaller step", req.Rel, MaxDerivationNodes)}
	}
	used := map[int]bool{}
	var b strings.Builder
	printDerivation(&b, tree, "", used)
	var ids []int
	for a := range used {
		ids = append(ids, a)
	}
	sort.Ints(ids)
	all := events(sel)
	resp := &WhyResponse{Tree: tree, Events: []EventInfo{}}
	b.WriteString("events:\n")
	for _, a := range ids {
		resp.Events = append(resp.Events, all[a])
		fmt.Fprintf(&b, "  e%d %s\n", a, all[a].Label)
	}
	resp.Text = b.String()
	return resp, nil
}

// derivationNode converts a derivation, folding relations generated for
// subexpressions into their parent so the tree speaks in the model's own
// names, as the REPL's :why does. count tallies the nodes; conversion stops
// once it passes the limit.
func derivationNode(m *checker.Model, d *rules.Derivation, count *int) *DerivationNode {
	*count++
	n := &DerivationNode{Rel: d.Rel, Args: append([]int{}, d.Tuple...)}
	switch {
	case d.Rule == nil:
		n.Base = true
	case d.Rule.Origin != "":
		if def := m.Syntax.Relations[d.Rule.Origin]; def != nil && def.Def != nil {
			n.Rule = d.Rule.Origin + " = " + datalog.ExprString(def.Def.Expr)
		} else {
			n.Rule = d.Rule.OriginText
		}
	default:
		n.Rule = "rule at " + d.Rule.Pos.String()
	}
	for _, c := range d.VisibleChildren() {
		if *count > MaxDerivationNodes {
			break
		}
		n.Children = append(n.Children, derivationNode(m, c, count))
	}
	return n
}

// printDerivation prints the tree one tuple a line, as the REPL does.
func printDerivation(b *strings.Builder, n *DerivationNode, indent string, used map[int]bool) {
	parts := make([]string, len(n.Args))
	for i, a := range n.Args {
		parts[i] = fmt.Sprintf("e%d", a)
		used[a] = true
	}
	fmt.Fprintf(b, "%s%s(%s)", indent, n.Rel, strings.Join(parts, ", "))
	if n.Base {
		b.WriteString("   [base]\n")
	} else {
		fmt.Fprintf(b, "   [%s]\n", n.Rule)
	}
	for _, c := range n.Children {
		printDerivation(b, c, indent+"  ", used)
	}
}
