package litmus

import (
	"strings"
	"unicode/utf8"

	"github.com/ptxmm/ptxmm/source"
)

// parser holds what every part of both parsers needs: the text, where its
// offsets point in the original file, and the diagnostics found so far.
type parser struct {
	file   string
	src    []byte // the text being parsed: the file, or an expanded template instance
	format Format
	pm     *posMap
	errs   *source.List

	// refs are the names written as operands whose meaning (register or
	// address) depends on the whole test; they are resolved once every
	// thread has been read. They are kept in the order they were written,
	// which is the order implicit herd locations are declared in.
	refs []nameRef
	// threads parallels Test.Threads with what resolution needs.
	threads []*threadBuild
	// cells holds the cells of the row being read, kept from row to row
	// (splitCells).
	cells []cellToks
	// declared indexes the explicitly declared addresses by name.
	declared map[string]*Address
	// aliasTargets are the alias declarations, checked once all are known.
	aliasTargets []aliasTarget
	// multimemDecls are the multimem declarations, checked likewise.
	multimemDecls []multimemDecl
	// tensorMaps indexes the tensor-map declarations by name.
	tensorMaps map[string]*TensorMap
	// instrFailed is set when an instruction was rejected. Names that only
	// it used are then unknown, and the conditions' "unknown name"
	// diagnostics would repeat the same mistake, so they are left out.
	instrFailed bool
	// commands counts the .test commands met, parsed or not, so that a
	// malformed one does not also make the file "without commands".
	commands int
	// threadNames and threadPlaces index the .test threads by name and by
	// place (GPU, CTA, thread), to reject a thread given twice.
	threadNames  map[string]*Thread
	threadPlaces map[[3]int]*Thread
	// nativeAttrLine is the line of the cudaDevAttrHostNativeAtomicSupported
	// entry, 0 before one is read.
	nativeAttrLine int
	// regInitNames indexes the herd register initialisations by
	// "THREAD:REG", to reject a second one.
	regInitNames map[string]*RegInit
	// nvKernels are the .kernel declarations of a .test file.
	nvKernels []nvKernel
	// dialect records the spellings PTX lacks that a herd file uses, each
	// warned about once (dialect.go).
	dialect []*dialectUse
	// stop ends the parse early (ParseContext); nil never does.
	stop *parseStop
}

// newParser returns a parser for src, the text of file (or of a template
// instance of it), whose offsets pm maps to file positions.
func newParser(file string, src []byte, f Format, pm *posMap, errs *source.List) *parser {
	return &parser{file: file, src: src, format: f, pm: pm, errs: errs}
}

// errorf records a diagnostic at an offset of the text.
func (p *parser) errorf(off int, format string, args ...any) {
	p.errs.Add(p.pm.pos(off), format, args...)
}

// pos turns an offset of the text into a file position.
func (p *parser) pos(off int) source.Pos { return p.pm.pos(off) }

// at returns the line and column of an offset of the parsed text, for an
// Operand.
func (p *parser) at(off int) LineCol { return lineColOf(p.pm.pos(off)) }

// opPos returns the file:line:col of an operand's line and column in the
// file being parsed.
func (p *parser) opPos(at LineCol) source.Pos { return at.In(p.pm.file) }

// text returns the source between two offsets with every run of blanks
// collapsed to one space, for Instr.Text.
func (p *parser) text(from, to int) string {
	if from < 0 || to > len(p.src) || from >= to {
		return ""
	}
	if b := p.src[from:to]; singleSpaced(b) {
		// Most instructions are written so: one allocation, where
		// splitting into fields and joining them made three.
		return string(b)
	}
	return strings.Join(strings.Fields(string(p.src[from:to])), " ")
}

// singleSpaced reports whether b is ASCII, neither starts nor ends with
// white space, and holds no white space but single ' ': what
// strings.Fields and a join with " " would give back unchanged.
func singleSpaced(b []byte) bool {
	prevSpace := true // no white space at the start
	for _, c := range b {
		switch {
		case c >= utf8.RuneSelf:
			return false
		case c == ' ':
			if prevSpace {
				return false
			}
			prevSpace = true
		case c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r':
			return false
		default:
			prevSpace = false
		}
	}
	return !prevSpace
}

// cursor walks a slice of tokens. When the slice is used up, peek returns
// stop, the token that ended the slice (a cell separator, a ';', or the end
// of the file), so that "expected X, found Y" can name it.
type cursor struct {
	toks []token
	i    int
	stop token
}

// newCursor returns a cursor over toks that ends at stop.
func newCursor(toks []token, stop token) *cursor {
	return &cursor{toks: toks, stop: stop}
}

// peek returns the next token without consuming it.
func (c *cursor) peek() token { return c.peekAt(0) }

// peekAt returns the token k places ahead, or stop past the end.
func (c *cursor) peekAt(k int) token {
	if c.i+k < len(c.toks) {
		return c.toks[c.i+k]
	}
	return c.stop
}

// next consumes and returns the next token.
func (c *cursor) next() token {
	t := c.peek()
	if c.i < len(c.toks) {
		c.i++
	}
	return t
}

// done reports whether every token of the slice has been consumed.
func (c *cursor) done() bool { return c.i >= len(c.toks) }

// accept consumes the next token if it is the punctuation or word s.
func (c *cursor) accept(s string) bool {
	if !c.done() && c.peek().is(s) {
		c.i++
		return true
	}
	return false
}

// skipTo advances to the next token that is one of the given punctuation
// marks (without consuming it), so that parsing can resume after an error.
func (c *cursor) skipTo(puncts ...string) {
	for !c.done() {
		t := c.peek()
		for _, s := range puncts {
			if t.kind == tokPunct && t.text == s {
				return
			}
		}
		c.i++
	}
}

// lastEnd returns the end offset of the last token of the slice, or of the
// stop token when the slice is empty.
func (c *cursor) lastEnd() int {
	if len(c.toks) == 0 {
		return c.stop.off
	}
	return c.toks[len(c.toks)-1].end
}
