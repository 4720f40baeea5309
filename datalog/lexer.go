package datalog

import (
	"strings"
	"unicode/utf8"

	"github.com/ptxmm/ptxmm/source"
)

// lexer turns one file's text into tokens. It records problems in errs and
// keeps going, so that one stray character does not hide later errors.
type lexer struct {
	source.Cursor
	errs *source.List
	// prev is the kind of the last token returned and prevEnd the offset
	// just past it, so that a period directly after a fact or a rule
	// ("p(1).q(2).") is not taken for the start of a directive.
	prev    tokenKind
	prevEnd int
}

func newLexer(file, src string, errs *source.List) *lexer {
	return &lexer{Cursor: source.NewCursor(file, src), errs: errs, prev: tokEOF, prevEnd: -1}
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// skipSpace skips white space and comments, returning a doc comment token
// when it meets a /// line, since doc comments are meaningful.
func (l *lexer) skipSpace() (token, bool) {
	for l.Off < len(l.Src) {
		c := l.Src[l.Off]
		switch {
		case c == ' ' || c == '\t' || c == '\r' || c == '\n':
			l.Advance(1)
		case c == '/' && l.PeekByte(1) == '/':
			start := l.Pos()
			end := strings.IndexByte(l.Src[l.Off:], '\n')
			if end < 0 {
				end = len(l.Src) - l.Off
			}
			text := l.Src[l.Off : l.Off+end]
			l.Advance(end)
			if strings.HasPrefix(text, "///") && !strings.HasPrefix(text, "////") {
				return token{kind: tokDoc, pos: start, text: strings.TrimSpace(text[3:])}, true
			}
		case c == '/' && l.PeekByte(1) == '*':
			l.skipBlockComment("/*", "*/")
		case c == '(' && l.PeekByte(1) == '*':
			l.skipBlockComment("(*", "*)")
		default:
			return token{}, false
		}
	}
	return token{}, false
}

func (l *lexer) skipBlockComment(open, close string) {
	start := l.Pos()
	end := strings.Index(l.Src[l.Off+len(open):], close)
	if end < 0 {
		l.errs.Add(start, "unterminated comment: expected %q before the end of the file", close)
		l.Advance(len(l.Src) - l.Off)
		return
	}
	l.Advance(len(open) + end + len(close))
}

// next returns the next token.
func (l *lexer) next() token {
	t := l.scan()
	l.prev, l.prevEnd = t.kind, l.Off
	return t
}

// endsStatement reports whether a period right after a token of kind k,
// with nothing in between, ends the statement rather than starting a
// directive: "p(1).q(2)." holds two facts.
func endsStatement(k tokenKind) bool {
	switch k {
	case tokRParen, tokRBrack, tokIdent, tokWildcard, tokString, tokInt:
		return true
	}
	return false
}

// scan reads the next token.
func (l *lexer) scan() token {
	if doc, ok := l.skipSpace(); ok {
		return doc
	}
	start := l.Pos()
	if l.Off >= len(l.Src) {
		return token{kind: tokEOF, pos: start}
	}
	c := l.Src[l.Off]
	switch {
	case isIdentStart(c):
		n := 1
		// A "-" directly followed by a letter or "_" continues the name,
		// so that names from cat models, such as po-loc, can be written;
		// nowhere else can a name be followed by such a "-".
		for l.Off+n < len(l.Src) && (isIdentChar(l.Src[l.Off+n]) || l.Src[l.Off+n] == '-' && isIdentStart(l.PeekByte(n+1)) && l.Src[l.Off:l.Off+n] != "_") {
			n++
		}
		text := l.Src[l.Off : l.Off+n]
		l.Advance(n)
		if text == "_" {
			return token{kind: tokWildcard, pos: start, text: text}
		}
		return token{kind: tokIdent, pos: start, text: text}
	case isDigit(c) || (c == '-' && isDigit(l.PeekByte(1))):
		n := 1
		for l.Off+n < len(l.Src) && isDigit(l.Src[l.Off+n]) {
			n++
		}
		text := l.Src[l.Off : l.Off+n]
		l.Advance(n)
		return token{kind: tokInt, pos: start, text: text}
	case c == '"':
		return l.lexString(start)
	case c == '.' && isIdentStart(l.PeekByte(1)) && !(l.Off == l.prevEnd && endsStatement(l.prev)):
		n := 1
		for l.Off+n < len(l.Src) && isIdentChar(l.Src[l.Off+n]) {
			n++
		}
		text := l.Src[l.Off+1 : l.Off+n]
		l.Advance(n)
		return token{kind: tokDirective, pos: start, text: text}
	}
	two := ""
	if l.Off+2 <= len(l.Src) {
		two = l.Src[l.Off : l.Off+2]
	}
	switch two {
	case ":-":
		l.Advance(2)
		return token{kind: tokIf, pos: start, text: two}
	case "!=":
		l.Advance(2)
		return token{kind: tokNeq, pos: start, text: two}
	case "?-":
		l.Advance(2)
		return token{kind: tokQuery, pos: start, text: two}
	}
	if strings.HasPrefix(l.Src[l.Off:], "^-1") {
		l.Advance(3)
		return token{kind: tokInverse, pos: start, text: "^-1"}
	}
	if k, ok := singleCharToken(c); ok {
		// A slice of the source, not string(c), which allocates.
		text := l.Src[l.Off : l.Off+1]
		l.Advance(1)
		return token{kind: k, pos: start, text: text}
	}
	r, size := utf8.DecodeRuneInString(l.Src[l.Off:])
	if c == '^' {
		l.errs.Add(start, "unexpected \"^\": the inverse operator is written ^-1")
	} else {
		l.errs.Add(start, "unexpected character %q", r)
	}
	l.Advance(size)
	return l.scan()
}

// lexString reads a double-quoted string with \" and \\ escapes; strings may
// not span lines, which keeps an unterminated string's error close to it.
func (l *lexer) lexString(start source.Pos) token {
	var b strings.Builder
	i := l.Off + 1
	for i < len(l.Src) {
		c := l.Src[i]
		switch {
		case c == '"':
			l.Advance(i + 1 - l.Off)
			return token{kind: tokString, pos: start, text: b.String()}
		case c == '\n':
			i = len(l.Src)
		case c == '\\' && i+1 < len(l.Src) && (l.Src[i+1] == '"' || l.Src[i+1] == '\\'):
			b.WriteByte(l.Src[i+1])
			i += 2
		default:
			b.WriteByte(c)
			i++
		}
	}
	l.errs.Add(start, "unterminated string: expected a closing \" on the same line")
	end := strings.IndexByte(l.Src[l.Off:], '\n')
	if end < 0 {
		end = len(l.Src) - l.Off
	}
	l.Advance(end)
	return token{kind: tokString, pos: start, text: b.String()}
}

// singleCharToken maps the one-character punctuation tokens.
func singleCharToken(c byte) (tokenKind, bool) {
	switch c {
	case '(':
		return tokLParen, true
	case ')':
		return tokRParen, true
	case '[':
		return tokLBrack, true
	case ']':
		return tokRBrack, true
	case ',':
		return tokComma, true
	case '.':
		return tokDot, true
	case ':':
		return tokColon, true
	case '!':
		return tokBang, true
	case '=':
		return tokEq, true
	case '|':
		return tokBar, true
	case '&':
		return tokAmp, true
	case '\\':
		return tokBackslash, true
	case ';':
		return tokSemi, true
	case '*':
		return tokStar, true
	case '+':
		return tokPlus, true
	case '?':
		return tokQuestion, true
	case '~':
		return tokTilde, true
	}
	return 0, false
}
