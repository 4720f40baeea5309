package cat

import (
	"unicode/utf8"

	"github.com/ptxmm/ptxmm/source"
)

// lexer turns cat text into tokens, reporting lexical errors at their
// position and carrying on after them.
type lexer struct {
	source.Cursor
	errs *source.List
	// lastLine is the line of the last token returned.
	lastLine int
}

func newLexer(file, src string, errs *source.List) *lexer {
	return &lexer{Cursor: source.NewCursor(file, src), errs: errs}
}

func isAlpha(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// nameEnd returns the end of the name starting at off: herd's
// '_'? alpha (alpha | digit | '_' | '.' | '-')* '\”?.
func (l *lexer) nameEnd(off int) int {
	i := off
	if i < len(l.Src) && l.Src[i] == '_' {
		i++
	}
	if i >= len(l.Src) || !isAlpha(l.Src[i]) {
		return off
	}
	for i < len(l.Src) {
		c := l.Src[i]
		if isAlpha(c) || isDigit(c) || c == '_' || c == '.' || c == '-' {
			i++
			continue
		}
		break
	}
	if i < len(l.Src) && l.Src[i] == '\'' {
		i++
	}
	return i
}

// skipSpace skips white space and comments: // and # to the end of the
// line, and (* ... *), which nest as in OCaml.
func (l *lexer) skipSpace() {
	for l.Off < len(l.Src) {
		c := l.Src[l.Off]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			l.Advance(1)
		case c == '#' || c == '/' && l.PeekByte(1) == '/':
			for l.Off < len(l.Src) && l.Src[l.Off] != '\n' {
				l.Advance(1)
			}
		case c == '(' && l.PeekByte(1) == '*':
			start := l.Pos()
			l.Advance(2)
			depth := 1
			for depth > 0 {
				if l.Off >= len(l.Src) {
					l.errs.Add(start, `unterminated comment: expected "*)" before the end of the file`)
					return
				}
				switch {
				case l.Src[l.Off] == '(' && l.PeekByte(1) == '*':
					depth++
					l.Advance(2)
				case l.Src[l.Off] == '*' && l.PeekByte(1) == ')':
					depth--
					l.Advance(2)
				default:
					l.Advance(1)
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
		p := l.Pos()
		if l.Off >= len(l.Src) {
			return token{kind: tEOF, pos: p}
		}
		c := l.Src[l.Off]
		if end := l.nameEnd(l.Off); end > l.Off {
			text := l.Src[l.Off:end]
			l.Advance(end - l.Off)
			return token{kind: tName, text: text, pos: p}
		}
		two := ""
		if l.Off+1 < len(l.Src) {
			two = l.Src[l.Off : l.Off+2]
		}
		if k, ok := twoCharTokens[two]; ok {
			l.Advance(2)
			return token{kind: k, pos: p}
		}
		if k, ok := oneCharTokens[c]; ok {
			l.Advance(1)
			return token{kind: k, pos: p}
		}
		switch {
		case c == '"':
			l.Advance(1)
			start := l.Off
			for l.Off < len(l.Src) && l.Src[l.Off] != '"' {
				l.Advance(1)
			}
			if l.Off >= len(l.Src) {
				l.errs.Add(p, `unterminated string: expected a closing " before the end of the file`)
				return token{kind: tEOF, pos: l.Pos()}
			}
			text := l.Src[start:l.Off]
			l.Advance(1)
			return token{kind: tString, text: text, pos: p}
		case c == '\'':
			if end := l.nameEnd(l.Off + 1); end > l.Off+1 {
				text := l.Src[l.Off+1 : end]
				l.Advance(end - l.Off)
				return token{kind: tTag, text: text, pos: p}
			}
			l.errs.Add(p, "unexpected \"'\": a tag is written 'name")
		case isDigit(c):
			l.errs.Add(p, "unexpected number %q: the only number in cat is 0, the empty relation", l.digits())
			continue
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(l.Src[l.Off:])
			l.errs.Add(p, "unexpected character %q", r)
			l.Advance(size)
			continue
		default:
			l.errs.Add(p, "unexpected character %q", string(c))
		}
		l.Advance(1)
	}
}

// digits consumes a run of digits and returns it.
func (l *lexer) digits() string {
	start := l.Off
	for l.Off < len(l.Src) && isDigit(l.Src[l.Off]) {
		l.Advance(1)
	}
	return l.Src[start:l.Off]
}
