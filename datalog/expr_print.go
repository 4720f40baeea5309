package datalog

import "strings"

// ExprString prints an expression in cat notation with the fewest
// parentheses cat's precedence allows.
func ExprString(e Expr) string {
	var p exprPrinter
	p.write(e, 0)
	return p.b.String()
}

// exprTexts prints e once and returns the text of e and of every
// subexpression, each as ExprString would print it alone. The texts are
// slices of one string, so a definition of N operators costs O(N) time
// and memory, where printing every subexpression on its own costs O(N²)
// on a long chain.
func exprTexts(e Expr) map[Expr]string {
	p := exprPrinter{spans: map[Expr][2]int{}}
	p.write(e, 0)
	full := p.b.String()
	out := make(map[Expr]string, len(p.spans))
	for x, sp := range p.spans {
		out[x] = full[sp[0]:sp[1]]
	}
	return out
}

// exprPrinter writes expressions; with spans set it records where the text
// of each subexpression (without the parentheses its context adds) lies.
type exprPrinter struct {
	b     strings.Builder
	spans map[Expr][2]int
}

// precedence levels, loosest first; postfix and primaries bind tightest.
func binPrec(op BinOp) int {
	switch op {
	case OpUnion:
		return 1
	case OpSeq:
		return 2
	case OpDiff:
		return 3
	case OpInter:
		return 4
	default:
		return 5
	}
}

const (
	precPrefix  = 6
	precPostfix = 7
)

// write prints e where an operator of precedence outer surrounds it. The
// text inside the parentheses it may add does not depend on outer, which
// is what lets exprTexts share one printing among all subexpressions.
func (p *exprPrinter) write(e Expr, outer int) {
	paren := false
	switch e := e.(type) {
	case *Binary:
		paren = binPrec(e.Op) < outer
	case *Unary:
		paren = e.Op == OpCompl && precPrefix < outer
	}
	if paren {
		p.b.WriteByte('(')
	}
	start := p.b.Len()
	p.content(e)
	if p.spans != nil {
		p.spans[e] = [2]int{start, p.b.Len()}
	}
	if paren {
		p.b.WriteByte(')')
	}
}

// content prints e without surrounding parentheses.
func (p *exprPrinter) content(e Expr) {
	b := &p.b
	switch e := e.(type) {
	case *RelRef:
		b.WriteString(e.Name)
	case *Universe:
		b.WriteString("_")
	case *Binary:
		prec := binPrec(e.Op)
		p.write(e.L, prec)
		b.WriteString(" " + e.Op.String() + " ")
		// Left associativity: a right operand of the same level needs parentheses.
		p.write(e.R, prec+1)
	case *Unary:
		switch e.Op {
		case OpCompl:
			b.WriteByte('~')
			p.write(e.X, precPrefix)
		case OpIdent:
			b.WriteByte('[')
			p.write(e.X, 0)
			b.WriteByte(']')
		case OpDomain, OpRange:
			if e.Op == OpDomain {
				b.WriteString("domain(")
			} else {
				b.WriteString("range(")
			}
			p.write(e.X, 0)
			b.WriteByte(')')
		default:
			p.write(e.X, precPostfix)
			b.WriteString(map[UnOp]string{OpPlus: "+", OpStar: "*", OpOpt: "?", OpInv: "^-1"}[e.Op])
		}
	}
}
