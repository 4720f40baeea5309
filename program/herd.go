package program

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// Litmus writes the test in herd's format, as ptxmm check reads it.
func (t *Test) Litmus() string {
	var b strings.Builder
	fmt.Fprintf(&b, "PTX %s\n", t.Name)
	if t.Doc != "" {
		// herd's comment runs to the next double quote, over lines.
		fmt.Fprintf(&b, "\"%s\"\n", strings.ReplaceAll(t.Doc, `"`, "'"))
	}
	b.WriteString("{\n")
	var plain []string
	for _, a := range t.Addrs {
		if a.AliasOf < 0 {
			plain = append(plain, a.decl())
		}
	}
	b.WriteString(strings.Join(plain, " ") + "\n")
	for _, a := range t.Addrs {
		if a.AliasOf >= 0 {
			fmt.Fprintf(&b, "%s @ %s aliases %s;\n", a.Name, a.Proxy, t.Addrs[a.AliasOf].Name)
		}
	}
	b.WriteString("}\n")
	headers := make([]string, len(t.Threads))
	cols := make([][]string, len(t.Threads))
	for i, th := range t.Threads {
		headers[i] = fmt.Sprintf("P%d@%s", i, th.Place)
		guarded := false
		for k, o := range th.Ops {
			cols[i] = append(cols[i], t.Text(i, k)...)
			guarded = guarded || (o.Kind == MbarWait && o.Guard)
		}
		if guarded {
			cols[i] = append(cols[i], guardLabel(i)+":")
		}
	}
	b.WriteString(Table(headers, cols))
	if len(t.Observe) > 0 {
		var terms []string
		for _, p := range t.Observe {
			terms = append(terms, t.term(p).String()+";")
		}
		fmt.Fprintf(&b, "locations [%s]\n", strings.Join(terms, " "))
	}
	b.WriteString(t.Condition().String() + "\n")
	return b.String()
}

// Parse reads the test back through package litmus, as ptxmm check
// would read its file NAME.litmus.
func (t *Test) Parse() (*litmus.Test, error) {
	tests, err := litmus.Parse(t.Name+".litmus", []byte(t.Litmus()), litmus.FormatHerd)
	if err != nil {
		return nil, err
	}
	return tests[0], nil
}

// String spells a placement as herd's thread header does: "cta 0,gpu 0",
// "cta 1,cluster 0,gpu 0".
func (p Place) String() string {
	if p.Cluster >= 0 {
		return fmt.Sprintf("cta %d,cluster %d,gpu %d", p.CTA, p.Cluster, p.GPU)
	}
	return fmt.Sprintf("cta %d,gpu %d", p.CTA, p.GPU)
}

// Condition returns the test's final condition as package litmus
// represents it, which prints it in herd's syntax.
func (t *Test) Condition() *litmus.Condition {
	kind := litmus.CondExists
	switch t.Quantifier {
	case "~exists":
		kind = litmus.CondNotExists
	case "forall":
		kind = litmus.CondForall
	}
	var e litmus.Expr = &litmus.BoolLit{Value: true}
	for i, p := range t.Pins {
		c := &litmus.Cmp{Op: "==", L: t.term(p), R: litmus.Term{Kind: litmus.TermConst, Value: p.Value}}
		if i == 0 {
			e = c
		} else {
			e = &litmus.And{L: e, R: c}
		}
	}
	return &litmus.Condition{Kind: kind, Expr: e}
}

// term is the register or location a pin names.
func (t *Test) term(p Pin) litmus.Term {
	if p.Thread < 0 {
		return litmus.Term{Kind: litmus.TermLoc, Loc: t.Addrs[p.Addr].Name}
	}
	return litmus.Term{Kind: litmus.TermReg, Thread: p.Thread, Reg: t.Reg(p.Thread, p.Op)}
}

// Table lays out thread columns as a herd thread table: the headers
// (P0@cta 0,gpu 0, ...) and each thread's instructions, aligned.
func Table(headers []string, columns [][]string) string {
	rows := 0
	for _, c := range columns {
		rows = max(rows, len(c))
	}
	width := make([]int, len(columns))
	for i, h := range headers {
		width[i] = len(h)
		for _, s := range columns[i] {
			width[i] = max(width[i], len(s))
		}
	}
	var b strings.Builder
	line := func(cells []string) {
		for i, c := range cells {
			if i > 0 {
				b.WriteString(" | ")
			}
			b.WriteString(c + strings.Repeat(" ", width[i]-len(c)))
		}
		b.WriteString(" ;\n")
	}
	line(headers)
	for r := 0; r < rows; r++ {
		cells := make([]string, len(columns))
		for i, c := range columns {
			if r < len(c) {
				cells[i] = c[r]
			}
		}
		line(cells)
	}
	return b.String()
}
