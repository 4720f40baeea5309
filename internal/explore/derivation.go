package explore

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/rules"
)

// Node is one tuple of a derivation tree, with the definition or rule
// that derives it. Relations generated for subexpressions are folded into
// their parent, so the tree speaks in the model's own names.
type Node struct {
	Rel  string
	Args []int
	// Rule is the definition ("hb = po | rf") or rule ("rule at
	// spec.dl:3:1") deriving the tuple; Base is set for a tuple of a base
	// relation (the execution's facts and orders).
	Rule     string
	Base     bool
	Children []*Node
}

// Why derives rel(args...) in the execution, refusing a tree of more
// than maxNodes tuples (0: no bound) with the limit named.
func (v *View) Why(rel string, args []int, maxNodes int) (*Node, error) {
	for _, a := range args {
		if !v.IsEvent(a) {
			return nil, &NotEventError{Atom: a, Events: len(v.execution().Events)}
		}
	}
	d, err := v.Inst.Why(rel, args)
	if err != nil {
		return nil, err
	}
	count := 0
	n := v.node(d, &count, maxNodes)
	if maxNodes > 0 && count > maxNodes {
		return nil, fmt.Errorf("the derivation of %s has more than %d tuples, the limit of one answer; ask about a smaller step", rel, maxNodes)
	}
	return n, nil
}

// NotEventError is an argument of Why that is no event of the execution.
type NotEventError struct {
	Atom, Events int
}

func (e *NotEventError) Error() string {
	return fmt.Sprintf("e%d is not an event of this execution (it has e0 to e%d)", e.Atom, e.Events-1)
}

// node converts a derivation; count tallies the nodes, and conversion
// stops once it passes maxNodes.
func (v *View) node(d *rules.Derivation, count *int, maxNodes int) *Node {
	*count++
	n := &Node{Rel: d.Rel, Args: append([]int{}, d.Tuple...)}
	switch {
	case d.Rule == nil:
		n.Base = true
	case d.Rule.Origin != "":
		if def := v.Model.Syntax.Relations[d.Rule.Origin]; def != nil && def.Def != nil {
			n.Rule = d.Rule.Origin + " = " + datalog.ExprString(def.Def.Expr)
		} else {
			n.Rule = d.Rule.OriginText
		}
	default:
		n.Rule = "rule at " + d.Rule.Pos.String()
	}
	for _, c := range d.VisibleChildren() {
		if maxNodes > 0 && *count > maxNodes {
			break
		}
		n.Children = append(n.Children, v.node(c, count, maxNodes))
	}
	return n
}

// DerivationText prints a tree one tuple a line, indented by depth, with
// its rule in brackets, then the events it names, each once, in order.
// It returns the events too.
func (v *View) DerivationText(n *Node) (string, []int) {
	var b strings.Builder
	used := map[int]bool{}
	printNode(&b, n, "", used)
	var ids []int
	for a := range used {
		ids = append(ids, a)
	}
	slices.Sort(ids)
	b.WriteString("events:\n")
	for _, a := range ids {
		fmt.Fprintf(&b, "  %s\n", v.Label(a))
	}
	return b.String(), ids
}

func printNode(b *strings.Builder, n *Node, indent string, used map[int]bool) {
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
		printNode(b, c, indent+"  ", used)
	}
}
