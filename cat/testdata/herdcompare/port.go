package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// A port is one PTX test written in herd's LISA: the text, and the
// registers it had to rename (LISA's registers are r0, r1, ...), as
// "T:old" -> "T:new", so that the comparison reads ptxmm's states in the
// port's names.
type port struct {
	name    string
	text    string
	renames map[string]string
}

// lisaReg is a register name LISA takes as it is.
var lisaReg = regexp.MustCompile(`^r[0-9]+$`)

// porter writes one test; err says why a test has no LISA port.
type porter struct {
	t       *litmus.Test
	regs    []map[string]string // per thread: PTX register -> LISA register
	used    []map[string]bool
	renames map[string]string
}

// portTest ports a herd-format PTX test of plain loads, stores, atomics
// without compare, fences and register moves; anything else (barriers,
// asynchronous copies, aliases, vectors, predicates, backward branches,
// host threads, ...) has no LISA counterpart, and the error says which.
// With scopes, the port also states the threads' placement as a scope
// tree (scopeTree).
func portTest(t *litmus.Test, scopes bool) (*port, error) {
	if t.Format != litmus.FormatHerd {
		return nil, fmt.Errorf("not a herd-format test")
	}
	p := &porter{t: t, renames: map[string]string{}}
	for range t.Threads {
		p.regs = append(p.regs, map[string]string{})
		p.used = append(p.used, map[string]bool{})
	}
	// Reserve the registers that keep their names first, so that renamed
	// ones never take them.
	for i, th := range t.Threads {
		for _, in := range th.Instrs {
			for _, r := range []string{in.Dst, in.A.Reg, in.B.Reg, in.Src.Reg, in.Addr.Reg} {
				if n := strings.TrimPrefix(r, "%"); lisaReg.MatchString(n) {
					p.used[i][n] = true
				}
			}
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "LISA %s\n{\n", t.Name)
	for _, a := range t.Addresses {
		if a.AliasOf != "" || a.Kind != litmus.ProxyGeneric || a.Elems > 0 || a.MBarrier != 0 || len(a.Multimem) > 0 {
			return nil, fmt.Errorf("address %s is not a plain location", a.Name)
		}
		if a.Space != litmus.SpaceGlobal {
			return nil, fmt.Errorf("address %s is in %s memory, which has a copy per CTA", a.Name, a.Space)
		}
		if err := checkValue(a.Init); err != nil {
			return nil, fmt.Errorf("address %s: %w", a.Name, err)
		}
		if a.Type.Name != "" && a.Type.Size < 4 {
			return nil, fmt.Errorf("address %s has a %d-byte type", a.Name, a.Type.Size)
		}
		fmt.Fprintf(&b, "%s=%d;\n", a.Name, a.Init)
	}
	for _, ri := range t.RegInits {
		if ri.Addr != "" {
			return nil, fmt.Errorf("register %s holds an address", ri.Reg)
		}
		if err := checkValue(ri.Value); err != nil {
			return nil, fmt.Errorf("register %s: %w", ri.Reg, err)
		}
		fmt.Fprintf(&b, "%d:%s=%d;\n", ri.Thread, p.reg(ri.Thread, ri.Reg), ri.Value)
	}
	b.WriteString("}\n")
	cols := make([][]string, len(t.Threads))
	for i, th := range t.Threads {
		if th.Host {
			return nil, fmt.Errorf("thread %s is a host thread", th.Name)
		}
		cols[i] = append(cols[i], fmt.Sprintf("P%d", i))
		lines, err := p.thread(i, th)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", th.Name, err)
		}
		cols[i] = append(cols[i], lines...)
	}
	writeColumns(&b, cols)
	if scopes {
		tree, err := scopeTree(t)
		if err != nil {
			return nil, err
		}
		b.WriteString(tree)
	}
	if len(t.Locations) > 0 {
		b.WriteString("locations [")
		for _, l := range t.Locations {
			b.WriteString(p.term(l) + ";")
		}
		b.WriteString("]\n")
	}
	if t.Condition == nil {
		return nil, fmt.Errorf("no final condition")
	}
	kind := map[litmus.CondKind]string{litmus.CondExists: "exists", litmus.CondNotExists: "~exists", litmus.CondForall: "forall"}[t.Condition.Kind]
	fmt.Fprintf(&b, "%s (%s)\n", kind, p.expr(t.Condition.Expr))
	return &port{name: t.Name, text: b.String(), renames: p.renames}, nil
}

// reg is the LISA name of thread i's register r.
func (p *porter) reg(i int, r string) string {
	n := strings.TrimPrefix(r, "%")
	if lisaReg.MatchString(n) {
		return n
	}
	if l, ok := p.regs[i][r]; ok {
		return l
	}
	for k := 0; ; k++ {
		l := "r" + strconv.Itoa(k)
		if !p.used[i][l] {
			p.used[i][l] = true
			p.regs[i][r] = l
			if !strings.HasSuffix(n, "$") {
				p.renames[fmt.Sprintf("%d:%s", i, n)] = fmt.Sprintf("%d:%s", i, l)
			}
			return l
		}
	}
}

// scratch is a register of thread i no instruction names.
func (p *porter) scratch(i int) string { return p.reg(i, "%scratch$") }

// operand is a value: a register or a constant.
func (p *porter) operand(i int, o litmus.Operand) (string, error) {
	switch o.Kind {
	case litmus.OperandReg:
		return p.reg(i, o.Reg), nil
	case litmus.OperandImm:
		if err := checkValue(o.Imm); err != nil {
			return "", err
		}
		return strconv.FormatInt(o.Imm, 10), nil
	}
	return "", fmt.Errorf("operand is not a register or a constant")
}

// checkValue refuses values that LISA, which computes in signed 32-bit
// integers without PTX's types, would read otherwise than PTX: negative
// ones and those of 2^31 and more (ptxmm prints a .u32 register holding
// 0xFFFFFFFF as 4294967295, herd7 as -1).
func checkValue(v int64) error {
	if v < 0 || v >= 1<<31 {
		return fmt.Errorf("constant %d is out of LISA's range", v)
	}
	return nil
}

// annot is the LISA annotation of a PTX access or fence: its qualifiers,
// which the architecture-independent models do not read.
func annot(in *litmus.Instr) string {
	var q []string
	q = append(q, in.Sem.String())
	if in.Scope != litmus.ScopeNone {
		q = append(q, in.Scope.String())
	}
	return "[" + strings.Join(q, ",") + "]"
}

// thread ports the instructions of thread i.
func (p *porter) thread(i int, th *litmus.Thread) ([]string, error) {
	labels := map[string]bool{}
	var out []string
	pending := "" // a label that prefixes the next instruction
	emit := func(s string) {
		out = append(out, pending+s)
		pending = ""
	}
	for _, in := range th.Instrs {
		if in.Guard.Kind != litmus.OperandNone {
			return nil, fmt.Errorf("%q: guarded instruction", in.Text)
		}
		if in.Vec > 0 || in.Offset != 0 || in.Multimem || in.Filter != nil {
			return nil, fmt.Errorf("%q: vector, offset, multimem or filtered access", in.Text)
		}
		if in.Type.Name != "" && in.Type.Size < 4 {
			return nil, fmt.Errorf("%q: a %d-byte access, which LISA does not truncate", in.Text, in.Type.Size)
		}
		if in.Proxy != litmus.ProxyGeneric && in.Op != litmus.OpProxyFence {
			return nil, fmt.Errorf("%q: access through a non-generic proxy", in.Text)
		}
		if (in.Op == litmus.OpLoad || in.Op == litmus.OpStore || in.Op == litmus.OpAtom || in.Op == litmus.OpRed) && in.Addr.Kind != litmus.OperandAddr {
			return nil, fmt.Errorf("%q: address in a register", in.Text)
		}
		switch in.Op {
		case litmus.OpLoad:
			emit(fmt.Sprintf("r%s %s %s", annot(in), p.reg(i, in.Dst), in.Addr.Addr))
		case litmus.OpStore:
			v, err := p.operand(i, in.Src)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", in.Text, err)
			}
			emit(fmt.Sprintf("w%s %s %s", annot(in), in.Addr.Addr, v))
		case litmus.OpAtom, litmus.OpRed:
			s, err := p.rmw(i, in)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", in.Text, err)
			}
			emit(s)
		case litmus.OpFence:
			emit("f" + annot(in))
		case litmus.OpProxyFence:
			emit("f[proxy]")
		case litmus.OpMov:
			v, err := p.operand(i, in.A)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", in.Text, err)
			}
			emit(fmt.Sprintf("mov %s %s", p.reg(i, in.Dst), v))
		case litmus.OpArith:
			op := map[string]string{"add": "add", "xor": "xor", "and": "and"}[in.ArithOp]
			if op == "" {
				return nil, fmt.Errorf("%q: LISA has no %s", in.Text, in.ArithOp)
			}
			a, err := p.operand(i, in.A)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", in.Text, err)
			}
			c, err := p.operand(i, in.B)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", in.Text, err)
			}
			emit(fmt.Sprintf("mov %s (%s %s %s)", p.reg(i, in.Dst), op, a, c))
		case litmus.OpBranch:
			if labels[in.Label] {
				return nil, fmt.Errorf("%q: backward branch", in.Text)
			}
			a, err := p.operand(i, in.A)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", in.Text, err)
			}
			c, err := p.operand(i, in.B)
			if err != nil {
				return nil, fmt.Errorf("%q: %w", in.Text, err)
			}
			cmp := map[string]string{"eq": "eq", "ne": "neq"}[in.Cmp]
			if cmp == "" {
				return nil, fmt.Errorf("%q: comparison %s", in.Text, in.Cmp)
			}
			r := p.scratch(i)
			emit(fmt.Sprintf("mov %s (%s %s %s)", r, cmp, a, c))
			emit(fmt.Sprintf("b[] %s %s", r, in.Label))
		case litmus.OpGoto:
			if labels[in.Label] {
				return nil, fmt.Errorf("%q: backward branch", in.Text)
			}
			emit("b[] " + in.Label)
		case litmus.OpLabel:
			if pending != "" {
				emit("")
			}
			labels[in.Label] = true
			pending = in.Label + ": "
		default:
			return nil, fmt.Errorf("%q: no LISA counterpart", in.Text)
		}
	}
	if pending != "" {
		emit("")
	}
	return out, nil
}

// rmw ports an atom or red: LISA's rmw reads into its register, which the
// operation may read, and writes the operation's value.
func (p *porter) rmw(i int, in *litmus.Instr) (string, error) {
	dst := in.Dst
	if dst == "" {
		dst = "%red$"
	}
	r := p.reg(i, dst)
	var op string
	switch in.AtomOp {
	case "inc":
		if in.Src.Kind != litmus.OperandNone {
			return "", fmt.Errorf("inc with a bound")
		}
		op = fmt.Sprintf("(add %s 1)", r)
	case "add", "xor", "and":
		v, err := p.operand(i, in.Src)
		if err != nil {
			return "", err
		}
		op = fmt.Sprintf("(%s %s %s)", in.AtomOp, r, v)
	case "exch":
		v, err := p.operand(i, in.Src)
		if err != nil {
			return "", err
		}
		if v == r {
			return "", fmt.Errorf("exch of the destination register")
		}
		op = v
	default:
		return "", fmt.Errorf("LISA has no atomic %s", in.AtomOp)
	}
	return fmt.Sprintf("rmw%s %s %s %s", annot(in), r, op, in.Addr.Addr), nil
}

// term writes a condition term in herd's syntax.
func (p *porter) term(t litmus.Term) string {
	switch t.Kind {
	case litmus.TermReg:
		return fmt.Sprintf("%d:%s", t.Thread, p.reg(t.Thread, t.Reg))
	case litmus.TermLoc:
		return t.Loc
	}
	return strconv.FormatInt(t.Value, 10)
}

// expr writes a condition in herd's syntax.
func (p *porter) expr(e litmus.Expr) string {
	switch e := e.(type) {
	case *litmus.And:
		return "(" + p.expr(e.L) + ` /\ ` + p.expr(e.R) + ")"
	case *litmus.Or:
		return "(" + p.expr(e.L) + ` \/ ` + p.expr(e.R) + ")"
	case *litmus.Not:
		return "~(" + p.expr(e.X) + ")"
	case *litmus.BoolLit:
		if e.Value {
			return "true"
		}
		return "false"
	case *litmus.Cmp:
		s := p.term(e.L) + "=" + p.term(e.R)
		if e.Op == "!=" {
			return "~(" + s + ")"
		}
		return s
	}
	panic(fmt.Sprintf("unknown condition node %T", e))
}

// writeColumns lays the threads out side by side, as herd's tests are.
func writeColumns(b *strings.Builder, cols [][]string) {
	rows, width := 0, make([]int, len(cols))
	for i, c := range cols {
		rows = max(rows, len(c))
		for _, s := range c {
			width[i] = max(width[i], len(s))
		}
	}
	for r := 0; r < rows; r++ {
		for i, c := range cols {
			s := ""
			if r < len(c) {
				s = c[r]
			}
			sep := " |"
			if i == len(cols)-1 {
				sep = " ;"
			}
			fmt.Fprintf(b, " %-*s%s", width[i], s, sep)
		}
		b.WriteString("\n")
	}
}

// portAll ports every test under the given files and folders into out: a
// LISA file per test that has a port, ports.tsv (the LISA file, the PTX
// file, the register renames) and skipped.tsv (the PTX file, why).
func portAll(out string, args []string, scopes bool) error {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	var files []string
	for _, a := range args {
		err := filepath.WalkDir(a, func(path string, d os.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, ".litmus") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return err
		}
	}
	sort.Strings(files)
	var ports, skipped strings.Builder
	seen := map[string]bool{}
	nports, nskipped := 0, 0
	for _, f := range files {
		tests, err := litmus.ParseFile(f)
		if err != nil || len(tests) != 1 {
			fmt.Fprintf(&skipped, "%s\tptxmm does not read it as one test\n", f)
			nskipped++
			continue
		}
		pt, err := portTest(tests[0], scopes)
		if err == nil && seen[pt.name] {
			err = fmt.Errorf("another test is named %s", pt.name)
		}
		if err != nil {
			fmt.Fprintf(&skipped, "%s\t%s\n", f, strings.ReplaceAll(err.Error(), "\t", " "))
			nskipped++
			continue
		}
		seen[pt.name] = true
		lisa := filepath.Join(out, fileName(pt.name)+".litmus")
		if err := os.WriteFile(lisa, []byte(pt.text), 0o644); err != nil {
			return err
		}
		var rn []string
		for k, v := range pt.renames {
			rn = append(rn, k+"="+v)
		}
		sort.Strings(rn)
		fmt.Fprintf(&ports, "%s\t%s\t%s\n", lisa, f, strings.Join(rn, ","))
		nports++
	}
	if err := os.WriteFile(filepath.Join(out, "ports.tsv"), []byte(ports.String()), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "skipped.tsv"), []byte(skipped.String()), 0o644); err != nil {
		return err
	}
	fmt.Printf("%d tests ported to %s, %d skipped (%s)\n", nports, out, nskipped, filepath.Join(out, "skipped.tsv"))
	return nil
}

// fileName is a test name made safe for a file name.
func fileName(name string) string {
	return strings.Map(func(r rune) rune {
		if r == '/' || r == ' ' {
			return '_'
		}
		return r
	}, name)
}
