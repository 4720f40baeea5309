package litmus

import "github.com/ptxmm/ptxmm/source"

// ParseCondition parses a condition expression written the way t's own
// format writes them (herd: P1:r0 == 1 /\ x == 2; NV: r0 == 1 && x == 2),
// against t's threads, registers and locations. The REPL and ptxmm graph
// use it to pick an outcome. name is used in diagnostics.
func ParseCondition(t *Test, name, text string) (Expr, error) {
	var errs source.List
	src := []byte(text)
	p := newParser(name, src, t.Format, newPosMap(name, src), &errs)
	toks := newLexer(src, t.Format, p.pm, &errs).all()
	if errs.HasErrors() {
		errs.AttachLines(name, text)
		return nil, errs
	}
	var stop token
	if len(toks) > 0 {
		stop = toks[len(toks)-1]
		if stop.kind == tokEOF {
			toks = toks[:len(toks)-1]
		}
	}
	c := newCursor(toks, stop)
	var e *exprParser
	if t.Format == FormatNV {
		e = newExprParser(p, c, func() (Term, bool) { return p.nvTerm(c) })
	} else {
		e = newExprParser(p, c, func() (Term, bool) { return p.herdTerm(c, t) })
	}
	x := e.parseOr()
	if x != nil && !c.done() {
		n := c.peek()
		p.errorf(n.off, "unexpected %s after the condition", n.describe())
	}
	if x != nil && t.Format == FormatNV {
		regs := make([]map[string]bool, len(t.Threads))
		for i, th := range t.Threads {
			regs[i] = threadRegs(th)
		}
		WalkCmps(x, func(cmp *Cmp) {
			p.resolveNVTerm(t, &cmp.L, regs)
			p.resolveNVTerm(t, &cmp.R, regs)
		})
	}
	if x != nil {
		p.checkMultimemExpr(t, x)
	}
	if errs.HasErrors() {
		errs.AttachLines(name, text)
		return nil, errs
	}
	return x, nil
}
