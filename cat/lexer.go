package cat

import (
	"unicode/utf8"

	"github.com/ptxmm/ptxmm/source"
)

// lexer turns cat text into tokens, reporting lexical errors at their
// position and carrying on after them.
type lexer struct {
	file string
	src  string
	off  int
	line int
	col  int
	errs *source.List
	// lastLine is the line of the last token returned.
	lastLine int
}

func newLexer(file, src string, errs *source.List) *lexer {
	return &lexer{file: file, src: src, line: 1, col: 1, errs: errs}
}

func (l *lexer) pos() source.Pos { return source.Pos{File: l.file, Line: l.line, Col: l.col} }

func (l *lexer) peekByte(k int) byte {
	if l.off+k < len(l.src) {
		return l.src[l.off+k]
	}
	return 0
}

// advance moves over n bytes, counting lines and columns (a column counts
// bytes, as everywhere in ptxmm).
func (l *lexer) advance(n int) {
	for i := 0; i < n && l.off < len(l.src); i++ {
		if l.src[l.off] == '\n' {
			l.line++
			l.col = 1
		} else {
			l.col++
		}
		l.off++
	}
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// nameEnd returns the end of the name starting at off: herd's
// '_'? alpha (alpha | digit | '_' | '.' | '-')* '\”?.
func (l *lexer) nameEnd(off int) int {
	i := off
	if i < len(l.src) && l.src[i] == '_' {
		i++
	}
	if i >= len(l.src) || !isAlpha(l.src[i]) {
		return off
	}
	for i < len(l.src) {
		c := l.src[i]
		if isAlpha(c) || isDigit(c) || c == '_' || c == '.' || c == '-' {
			i++
			continue
		}
		break
	}
	if i < len(l.src) && l.src[i] == '\'' {
		i++
	}
	return i
}

// skipSpace skips white space and comments: // and # to the end of the
// line, and (* ... *), which nest as in OCaml.
func (l *lexer) skipSpace() {
	for l.off < len(l.src) {
		c := l.src[l.off]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			l.advance(1)
		case c == '#' || c == '/' && l.peekByte(1) == '/':
			for l.off < len(l.src) && l.src[l.off] != '\n' {
				l.advance(1)
			}
		case c == '(' && l.peekByte(1) == '*':
			start := l.pos()
			l.advance(2)
			depth := 1
			for depth > 0 {
				if l.off >= len(l.src) {
					l.errs.Add(start, `unterminated comment: expected "*)" before the end of the file`)
					return
				}
				switch {
				case l.src[l.off] == '(' && l.peekByte(1) == '*':
					depth++
					l.advance(2)
				case l.src[l.off] == '*' && l.peekByte(1) == ')':
					depth--
					l.advance(2)
				default:
					l.advance(1)
				}
			}
		default:
			return
		}
	}
}

var twoCharTokens = map[string]kind{"||": tAlt, "&&": tLAnd, "++": tPlusPlus, "-1": tInv, "->": tArrow}

var oneCharTokens = map[byte]kind{'(': tLParen, ')': tRParen, '{': tLBrace, '}': tRBrace, '[': tLBrack,
	']': tRBrack, '_': tUnderscore, '0': tZero, '|': tUnion, '&': tInter, '*': tStar, '~': tCompl,
	'+': tPlus, '^': tHat, '\\': tDiff, '?': tOpt, '=': tEqual, ';': tSemi, ',': tComma}

// next returns the next token.
func (l *lexer) next() token {
	t := l.scan()
	t.first = t.pos.Line != l.lastLine
	l.lastLine = t.pos.Line
	return t
}

// scan reads the next token.
func (l *lexer) scan() token {
	for {
		l.skipSpace()
		p := l.pos()
		if l.off >= len(l.src) {
			return token{kind: tEOF, pos: p}
		}
		c := l.src[l.off]
		if end := l.nameEnd(l.off); end > l.off {
			text := l.src[l.off:end]
			l.advance(end - l.off)
			return token{kind: tName, text: text, pos: p}
		}
		two := ""
		if l.off+1 < len(l.src) {
			two = l.src[l.off : l.off+2]
		}
		if k, ok := twoCharTokens[two]; ok {
			l.advance(2)
			return token{kind: k, pos: p}
		}
		if k, ok := oneCharTokens[c]; ok {
			l.advance(1)
			return token{kind: k, pos: p}
		}
		switch {
		case c == '"':
			l.advance(1)
			start := l.off
			for l.off < len(l.src) && l.src[l.off] != '"' {
				l.advance(1)
			}
			if l.off >= len(l.src) {
				l.errs.Add(p, `unterminated string: expected a closing " before the end of the file`)
				return token{kind: tEOF, pos: l.pos()}
			}
			text := l.src[start:l.off]
			l.advance(1)
			return token{kind: tString, text: text, pos: p}
		case c == '\'':
			if end := l.nameEnd(l.off + 1); end > l.off+1 {
				text := l.src[l.off+1 : end]
				l.advance(end - l.off)
				return token{kind: tTag, text: text, pos: p}
			}
			l.errs.Add(p, "unexpected \"'\": a tag is written 'name")
		case isDigit(c):
			l.errs.Add(p, "unexpected number %q: the only number in cat is 0, the empty relation", l.digits())
			continue
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(l.src[l.off:])
			l.errs.Add(p, "unexpected character %q", r)
			l.advance(size)
			continue
		default:
			l.errs.Add(p, "unexpected character %q", string(c))
		}
		l.advance(1)
	}
}

// digits consumes a run of digits and returns it.
func (l *lexer) digits() string {
	start := l.off
	for l.off < len(l.src) && isDigit(l.src[l.off]) {
		l.advance(1)
	}
	return l.src[start:l.off]
}
