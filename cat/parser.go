package cat

import (
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/relop"
	"github.com/ptxmm/ptxmm/source"
)

// The grammar is herd7's (herdtools7's lib/modelParser.mly): a model is
// an optional first line naming it, the optional keyword catdep, and
// instructions; the operators bind, from the loosest to the tightest,
// | ++ ; \ & then * (product), the postfix + * ? and the prefix ~, then
// ^-1. Application (f x, f(a, b)) binds tighter than every operator.

// parser reads the tokens of one file.
type parser struct {
	relop.Tokens[token]
	errs *source.List
	// nesting is the depth of the expression being parsed, ops the
	// operators of the outermost expression so far: both are bounded as
	// in the .dl front end (datalog/limits.go), since every pass over an
	// expression recurses as deep as it is nested.
	nesting, ops int
	// aborted is set when a limit stops an expression: the open calls
	// return at once, without errors, and the instruction loop resumes at
	// the next instruction.
	aborted bool
	// blocks counts the blocks of instructions open (procedure, forall,
	// if, match), whose end or else ends a list of instructions.
	blocks int
}

// parseFile parses one cat file; its includes stay instructions.
func parseFile(file, src string, errs *source.List) *Model {
	var local source.List
	lx := newLexer(file, src, &local)
	var toks []token
	for {
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tEOF {
			break
		}
	}
	p := &parser{Tokens: relop.Tokens[token]{Toks: toks}, errs: &local}
	m := &Model{File: file}
	m.Arch, m.Name = p.identity()
	if p.Peek().isKeyword("catdep") {
		m.CatDep = true
		p.Next()
	}
	for {
		m.Instrs = append(m.Instrs, p.instrs(true)...)
		t := p.Peek()
		if t.kind == tEOF {
			break
		}
		p.errs.Add(t.pos, "unexpected %s: no block is open", t.describe())
		p.Next()
	}
	local.AttachLines(file, src)
	*errs = append(*errs, local...)
	return m
}

// identity reads the model's first line: a name or a string, or an
// architecture followed by a name or a string. A single name is both.
func (p *parser) identity() (arch, name string) {
	t := p.Peek()
	switch {
	case t.kind == tString:
		p.Next()
		return "", t.text
	case t.isIdent():
		p.Next()
		if n := p.Peek(); n.kind == tString || n.isIdent() {
			p.Next()
			return t.text, n.text
		}
		return t.text, t.text
	}
	return "", ""
}

// instrKeywords are the keywords an instruction starts with.
var instrKeywords = map[string]bool{
	"let": true, "include": true, "show": true, "unshow": true, "acyclic": true, "irreflexive": true,
	"empty": true, "flag": true, "undefined_unless": true, "assert": true, "match": true, "with": true,
	"procedure": true, "call": true, "forall": true, "if": true, "enum": true, "debug": true,
	"instructions": true, "default": true,
}

// startsInstr reports whether the current token starts an instruction.
func (p *parser) startsInstr() bool {
	t := p.Peek()
	if t.kind == tCompl {
		return isTestKeyword(p.At(1))
	}
	return t.kind == tName && instrKeywords[t.text]
}

// endsBlock reports whether the current token ends a list of
// instructions: end, else, the || of a match's next clause, or the end
// of the file.
func (p *parser) endsBlock() bool {
	t := p.Peek()
	return t.kind == tEOF || t.isKeyword("end") || t.isKeyword("else") || t.kind == tAlt
}

// instrs parses instructions up to the end of the block (or file).
func (p *parser) instrs(top bool) []Instr {
	if !top {
		p.blocks++
		defer func() { p.blocks-- }()
	}
	var out []Instr
	for !p.endsBlock() {
		start := p.I
		if in := p.instr(top); in != nil {
			out = append(out, in)
		}
		if p.aborted {
			p.aborted = false
			p.recover()
		}
		if p.I == start {
			// Nothing was consumed (an error at a token that cannot
			// start an instruction): skip it.
			p.Next()
			p.recover()
		}
	}
	return out
}

// blockOpeners are the keywords whose construct ends with end.
var blockOpeners = map[string]bool{"procedure": true, "match": true, "forall": true, "begin": true}

// recover skips to the next instruction: an instruction keyword at the
// start of a line, outside the blocks opened while skipping, or the end
// of the enclosing block.
func (p *parser) recover() {
	depth := 0
	for {
		t := p.Peek()
		switch {
		case t.kind == tEOF:
			return
		case depth == 0 && t.first && p.startsInstr():
			return
		case depth == 0 && p.blocks > 0 && (t.isKeyword("end") || t.isKeyword("else") || t.kind == tAlt):
			return
		case t.kind == tName && blockOpeners[t.text]:
			depth++
		case t.isKeyword("end") && depth > 0:
			depth--
		}
		p.Next()
	}
}

// fail reports a syntax error at the current token; the caller returns
// nil and the instruction loop recovers.
func (p *parser) fail(format string, args ...any) {
	if p.aborted {
		return
	}
	p.errs.Add(p.Peek().pos, format, args...)
	p.aborted = true
}

// expect consumes a token of kind k, or fails with what was expected.
func (p *parser) expect(k kind, what string) bool {
	if p.Peek().kind != k {
		p.fail("expected %s, found %s", what, p.Peek().describe())
		return false
	}
	p.Next()
	return true
}

// expectKeyword consumes the keyword w, or fails with what was expected.
func (p *parser) expectKeyword(w, what string) bool {
	if !p.Peek().isKeyword(w) {
		p.fail("expected %s, found %s", what, p.Peek().describe())
		return false
	}
	p.Next()
	return true
}

// name consumes a name that is not a keyword, or fails.
func (p *parser) name(what string) (token, bool) {
	t := p.Peek()
	if !t.isIdent() {
		p.fail("expected %s, found %s", what, t.describe())
		return t, false
	}
	p.Next()
	return t, true
}

// enter counts one more level of nesting, refusing to go past
// datalog.MaxExprNesting with an error; the operator count starts afresh
// with each outermost expression.
func (p *parser) enter() bool {
	if p.aborted {
		return false
	}
	if p.nesting == 0 {
		p.ops = 0
	}
	p.nesting++
	if p.nesting > datalog.MaxExprNesting {
		p.errs.Add(p.Peek().pos, "expression nested more than %d deep in parentheses, brackets, begin ... end, arguments or ~: write it as several definitions", datalog.MaxExprNesting)
		p.nesting--
		p.aborted = true
		return false
	}
	return true
}

func (p *parser) leave() { p.nesting-- }

// countOp counts one more operator of the current expression and reports
// false, with an error the first time, past datalog.MaxExprOperators.
func (p *parser) countOp(pos source.Pos) bool {
	p.ops++
	if p.ops == datalog.MaxExprOperators+1 {
		p.errs.Add(pos, "expression with more than %d operators: write it as several definitions", datalog.MaxExprOperators)
		p.aborted = true
	}
	return p.ops <= datalog.MaxExprOperators
}
