package datalog

import "strings"

// ExprString prints an expression in cat notation with the fewest
// parentheses cat's precedence allows.
func ExprString(e Expr) string {
	var b strings.Builder
	writeExpr(&b, e, 0)
	return b.String()
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

func writeExpr(b *strings.Builder, e Expr, outer int) {
	switch e := e.(type) {
	case *RelRef:
		b.WriteString(e.Name)
	case *Universe:
		b.WriteString("_")
	case *Binary:
		p := binPrec(e.Op)
		if p < outer {
			b.WriteByte('(')
		}
		writeExpr(b, e.L, p)
		b.WriteString(" " + e.Op.String() + " ")
		// Left associativity: a right operand of the same level needs parentheses.
		writeExpr(b, e.R, p+1)
		if p < outer {
			b.WriteByte(')')
		}
	case *Unary:
		switch e.Op {
		case OpCompl:
			if precPrefix < outer {
				b.WriteByte('(')
			}
			b.WriteByte('~')
			writeExpr(b, e.X, precPrefix)
			if precPrefix < outer {
				b.WriteByte(')')
			}
		case OpIdent:
			b.WriteByte('[')
			writeExpr(b, e.X, 0)
			b.WriteByte(']')
		case OpDomain, OpRange:
			if e.Op == OpDomain {
				b.WriteString("domain(")
			} else {
				b.WriteString("range(")
			}
			writeExpr(b, e.X, 0)
			b.WriteByte(')')
		default:
			writeExpr(b, e.X, precPostfix)
			b.WriteString(map[UnOp]string{OpPlus: "+", OpStar: "*", OpOpt: "?", OpInv: "^-1"}[e.Op])
		}
	}
}
