package litmus

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/ptxmm/ptxmm/source"
)

// tokKind classifies a token.
type tokKind int

const (
	tokEOF    tokKind = iota
	tokIdent          // names, mnemonics with their qualifiers, thread names
	tokInt            // an unsigned integer literal, validated by the parser
	tokString         // a herd quoted comment, quotes included
	tokPunct          // an operator or separator
)

// token is one lexical token. Offsets are into the text being parsed, and
// turn into file positions through the parser's posMap.
type token struct {
	kind tokKind
	text string
	off  int // offset of the first byte
	end  int // offset just past the last byte
}

// is reports whether t is the punctuation or identifier s.
func (t token) is(s string) bool {
	return (t.kind == tokPunct || t.kind == tokIdent) && t.text == s
}

// describe names the token for "found ..." in diagnostics.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "end of file"
	case tokString:
		return "a quoted string"
	default:
		return strconv.Quote(t.text)
	}
}

// lexer splits a litmus file into tokens. The two formats share the token
// shapes but differ in comments and operators: herd files use (* *) comments
// and /\ \/ connectives and must keep "||" as two cell separators, while
// .test files use /* */ comments and && || connectives.
type lexer struct {
	// stop ends lexing early (ParseContext); nil never does.
	stop *parseStop
	src  []byte
	// text is src as a string, converted once: the tokens' texts are
	// slices of it, not a copy each (17,000 copies on a suite of 243
	// small tests).
	text   string
	off    int
	format Format
	pm     *posMap
	// closes marks the quotes that may close a herd quoted comment
	// (commentEnd), computed at the first one.
	closes []bool
	errs   *source.List
}

// newLexer returns a lexer for src in format f, reporting into errs.
func newLexer(src []byte, f Format, pm *posMap, errs *source.List) *lexer {
	lx := &lexer{src: src, text: string(src), format: f, pm: pm, errs: errs}
	// Editors on some systems start files with a byte-order mark.
	if bytes.HasPrefix(src, []byte("\xEF\xBB\xBF")) {
		lx.off = 3
	}
	return lx
}

// errorf records a diagnostic at an offset of the text.
func (lx *lexer) errorf(off int, format string, args ...any) {
	lx.errs.Add(lx.pm.pos(off), format, args...)
}

// isIdentStart reports bytes that start a name: mnemonics carry dots
// ("ld.acquire.gpu", ".global") and PTX registers a percent sign.
func isIdentStart(c byte) bool {
	return c == '_' || c == '.' || c == '%' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// isIdentPart reports bytes that continue a name.
func isIdentPart(c byte) bool {
	return isIdentStart(c) || isDigit(c)
}

// isDigit reports decimal digits.
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isSpace reports blanks, line ends included.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// skipSpaceAndComments moves past whitespace and comments. An unterminated
// block comment is reported at its start and runs to the end of the text.
func (lx *lexer) skipSpaceAndComments() {
	for lx.off < len(lx.src) {
		c := lx.src[lx.off]
		switch {
		case isSpace(c):
			lx.off++
		case c == '/' && lx.hasPrefix("//"):
			for lx.off < len(lx.src) && lx.src[lx.off] != '\n' {
				lx.off++
			}
		case c == '(' && lx.format == FormatHerd && lx.hasPrefix("(*"):
			lx.skipHerdComment()
		case c == '/' && lx.format == FormatNV && lx.hasPrefix("/*"):
			start := lx.off
			end := bytes.Index(lx.src[lx.off+2:], []byte("*/"))
			if end < 0 {
				lx.errorf(start, "unterminated comment: expected */ before the end of the file")
				lx.off = len(lx.src)
				return
			}
			lx.off += 2 + end + 2
		default:
			return
		}
	}
}

// commentEnd returns the offset of the quote that closes the herd quoted
// comment opening at start, -1 when there is none. A comment may quote a
// word in quotes (Dartagnan's MICRO24-Fig4b-correct says: means "No,
// but ..."): a quote closes it only when what follows it, past blanks, is
// the '{' of the init block, a (* *) comment, or another quoted comment
// that is closed in turn; otherwise it is part of the comment. When no
// quote closes it so, the next quote does (a comment without quotes in
// it is read as it always was).
func (lx *lexer) commentEnd(start int) int {
	if lx.closes == nil {
		lx.closes = closingQuotes(lx.src)
	}
	next := -1
	for q := start + 1; q < len(lx.src); q++ {
		if lx.src[q] != '"' {
			continue
		}
		if next < 0 {
			next = q
		}
		if lx.closes[q] {
			return q
		}
	}
	return next
}

// closingQuotes marks the quotes of src that may close a quoted comment
// (see commentEnd), in one pass from the end: a quote followed by '{' or
// "(*", or by a quote that opens a comment some later quote may close.
func closingQuotes(src []byte) []bool {
	closes := make([]bool, len(src))
	// first and second are the two closing quotes nearest after q (-1:
	// none).
	first, second := -1, -1
	for q := len(src) - 1; q >= 0; q-- {
		if src[q] != '"' {
			continue
		}
		f := q + 1
		for f < len(src) && isSpace(src[f]) {
			f++
		}
		switch {
		case f < len(src) && src[f] == '{', bytes.HasPrefix(src[f:], []byte("(*")):
			closes[q] = true
		case f < len(src) && src[f] == '"':
			// The comment opening at f needs a closing quote after f.
			closes[q] = first > f || first == f && second >= 0
		}
		if closes[q] {
			first, second = q, first
		}
	}
	return closes
}

// skipHerdComment skips a (* *) comment. Comments nest, as in OCaml (the
// language of herd7), so that commenting out a block that holds a comment
// works.
func (lx *lexer) skipHerdComment() {
	start := lx.off
	depth := 0
	for lx.off < len(lx.src) {
		switch {
		case lx.hasPrefix("(*"):
			depth++
			lx.off += 2
		case lx.hasPrefix("*)"):
			depth--
			lx.off += 2
			if depth == 0 {
				return
			}
		default:
			lx.off++
		}
	}
	lx.errorf(start, "unterminated comment: expected *) before the end of the file")
}

// hasPrefix reports whether the text at the current offset starts with s.
func (lx *lexer) hasPrefix(s string) bool {
	return bytes.HasPrefix(lx.src[lx.off:], []byte(s))
}

// isOperator reports whether a multi-byte operator starts at off. Every
// one is two bytes: /\ \/ == != && in both formats, and || in .test
// files. Each format also lexes the other's "and" ("&&" in herd, "/\" in
// .test files, and "\/" there), which is never valid, so that the
// condition parser can say which spelling to use. A herd "||" stays two
// '|': it may be an empty cell in a thread row.
func (lx *lexer) isOperator(off int) bool {
	if off+2 > len(lx.src) {
		return false
	}
	switch string(lx.src[off : off+2]) {
	case `/\`, `\/`, "==", "!=", "&&":
		return true
	case "||":
		return lx.format == FormatNV
	}
	return false
}

const singlePunct = "{}[]();|,:@=~!-+"

// next returns the next token; at the end of the text it returns tokEOF
// (again and again).
func (lx *lexer) next() token {
	for {
		lx.skipSpaceAndComments()
		if lx.off >= len(lx.src) {
			return token{kind: tokEOF, off: len(lx.src), end: len(lx.src)}
		}
		start := lx.off
		c := lx.src[start]
		switch {
		case isIdentStart(c):
			for lx.off < len(lx.src) {
				if isIdentPart(lx.src[lx.off]) {
					lx.off++
					continue
				}
				// PTX qualifiers such as .shared::cluster and
				// .mbarrier::complete_tx::bytes hold "::"; a single ':'
				// still ends a name (labels, "P0:r0").
				if lx.hasPrefix("::") && lx.off+2 < len(lx.src) && isIdentPart(lx.src[lx.off+2]) {
					lx.off += 2
					continue
				}
				break
			}
			return lx.tok(tokIdent, start)
		case isDigit(c):
			// Take every identifier byte, so that "12ab" is one malformed
			// number rather than a number followed by a name.
			for lx.off < len(lx.src) && isIdentPart(lx.src[lx.off]) && lx.src[lx.off] != '.' && lx.src[lx.off] != '%' {
				lx.off++
			}
			return lx.tok(tokInt, start)
		case c == '"' && lx.format == FormatHerd:
			end := lx.commentEnd(start)
			if end < 0 {
				lx.errorf(start, "unterminated string: expected a closing \" before the end of the file")
				lx.off = len(lx.src)
				return lx.tok(tokString, start)
			}
			lx.off = end + 1
			return lx.tok(tokString, start)
		}
		if lx.isOperator(start) {
			lx.off += 2
			return lx.tok(tokPunct, start)
		}
		if strings.IndexByte(singlePunct, c) >= 0 {
			lx.off++
			return lx.tok(tokPunct, start)
		}
		r, size := utf8.DecodeRune(lx.src[start:])
		if r == utf8.RuneError && size <= 1 {
			lx.errorf(start, "unexpected byte 0x%02x", c)
			size = 1
		} else {
			lx.errorf(start, "unexpected character %q", r)
		}
		lx.off += size
	}
}

// tok makes the token of kind k from start to the current offset.
func (lx *lexer) tok(k tokKind, start int) token {
	return token{kind: k, text: lx.text[start:lx.off], off: start, end: lx.off}
}

// all lexes the rest of the text; the last token is always tokEOF.
func (lx *lexer) all() []token { return lx.appendAll(nil) }

// tokenBufs holds the token buffers of finished parses (*[]token, emptied),
// which the next file's parse lexes into (lexAll): a suite of small tests
// used to allocate a fresh, growing buffer per file, 40 bytes a token.
var tokenBufs = sync.Pool{New: func() any { return new([]token) }}

// lexAll lexes the rest of the text into a buffer from tokenBufs; release
// returns the buffer, and the tokens must not be used after it. What the
// parse keeps of a token is its text or a copy, never the buffer.
func (lx *lexer) lexAll() (toks []token, release func()) {
	buf := tokenBufs.Get().(*[]token)
	toks = lx.appendAll((*buf)[:0])
	return toks, func() {
		clear(toks) // the pool must not keep the texts alive
		*buf = toks[:0]
		tokenBufs.Put(buf)
	}
}

// appendAll appends the tokens of the rest of the text to toks.
func (lx *lexer) appendAll(toks []token) []token {
	for {
		if lx.stop.stopped() {
			return append(toks, token{kind: tokEOF, off: len(lx.src), end: len(lx.src)})
		}
		t := lx.next()
		toks = append(toks, t)
		if t.kind == tokEOF {
			return toks
		}
	}
}

// scanWord reads the run of non-blank bytes that follows on the current
// line. The herd header uses it for the test name, which may hold bytes
// such as + and - that are operators elsewhere.
func (lx *lexer) scanWord() token {
	for lx.off < len(lx.src) && (lx.src[lx.off] == ' ' || lx.src[lx.off] == '\t') {
		lx.off++
	}
	start := lx.off
	for lx.off < len(lx.src) && !isSpace(lx.src[lx.off]) {
		lx.off++
	}
	return lx.tok(tokIdent, start)
}

// restOfLine returns the offset of the first byte other than a blank on the
// current line, or -1 when the line ends (or a comment starts) first.
func (lx *lexer) restOfLine() int {
	for lx.off < len(lx.src) && (lx.src[lx.off] == ' ' || lx.src[lx.off] == '\t' || lx.src[lx.off] == '\r') {
		lx.off++
	}
	if lx.off >= len(lx.src) || lx.src[lx.off] == '\n' || lx.hasPrefix("//") || lx.hasPrefix("(*") {
		return -1
	}
	return lx.off
}

// parseIntLit converts an integer literal (decimal or 0x hexadecimal),
// with an optional leading minus, to an int64.
func parseIntLit(text string, neg bool) (int64, error) {
	base, digits := 10, text
	if len(text) > 2 && (text[:2] == "0x" || text[:2] == "0X") {
		base, digits = 16, text[2:]
	}
	if neg {
		digits = "-" + digits
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] == '_' || digits[i] == '+' {
			return 0, fmt.Errorf("malformed integer %q", text)
		}
	}
	v, err := strconv.ParseInt(digits, base, 64)
	if err != nil && !neg {
		// Unsigned 64-bit values (0xFFFFFFFFFFFFFFFF) keep their bits.
		if u, uerr := strconv.ParseUint(digits, base, 64); uerr == nil {
			return int64(u), nil
		}
	}
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return 0, fmt.Errorf("integer %s does not fit in 64 bits", text)
		}
		return 0, fmt.Errorf("malformed integer %q", text)
	}
	return v, nil
}
