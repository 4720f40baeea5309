package cat

import (
	"fmt"

	"github.com/ptxmm/ptxmm/source"
)

// kind is the kind of a token.
type kind int

const (
	tEOF    kind = iota
	tName        // a name, keywords included (the parser tells them apart)
	tString      // "text"
	tTag         // 'name (herd's tags: outside the subset)
	tLParen
	tRParen
	tLBrace
	tRBrace
	tLBrack
	tRBrack
	tUnderscore // _
	tZero       // 0, the empty relation
	tUnion      // |
	tAlt        // ||
	tInter      // &
	tLAnd       // &&
	tStar       // *
	tCompl      // ~
	tPlus       // +
	tPlusPlus   // ++
	tHat        // ^
	tInv        // -1
	tDiff       // \
	tOpt        // ?
	tEqual      // =
	tSemi       // ;
	tComma      // ,
	tArrow      // ->
)

var kindText = map[kind]string{
	tEOF: "end of file", tString: "a string", tTag: "a tag", tLParen: `"("`, tRParen: `")"`,
	tLBrace: `"{"`, tRBrace: `"}"`, tLBrack: `"["`, tRBrack: `"]"`, tUnderscore: `"_"`, tZero: `"0"`,
	tUnion: `"|"`, tAlt: `"||"`, tInter: `"&"`, tLAnd: `"&&"`, tStar: `"*"`, tCompl: `"~"`, tPlus: `"+"`,
	tPlusPlus: `"++"`, tHat: `"^"`, tInv: `"-1"`, tDiff: `"\"`, tOpt: `"?"`, tEqual: `"="`, tSemi: `";"`,
	tComma: `","`, tArrow: `"->"`,
}

// token is one lexeme with its position.
type token struct {
	kind kind
	text string // names, strings (without quotes) and tags (without ')
	pos  source.Pos
	// first is set on the first token of a line, where the parser looks
	// for the next instruction after an error.
	first bool
}

// describe names a token for "expected X, found Y" messages.
func (t token) describe() string {
	switch t.kind {
	case tName:
		if keywords[t.text] {
			return fmt.Sprintf("keyword %q", t.text)
		}
		return fmt.Sprintf("name %q", t.text)
	case tString:
		return fmt.Sprintf("string %q", t.text)
	case tTag:
		return fmt.Sprintf("tag '%s", t.text)
	}
	return kindText[t.kind]
}

// keywords are the names herd's cat lexer reserves: a keyword never names
// a value.
var keywords = map[string]bool{
	"let": true, "rec": true, "and": true, "when": true, "acyclic": true, "irreflexive": true,
	"show": true, "unshow": true, "empty": true, "subset": true, "as": true, "fun": true, "in": true,
	"undefined_unless": true, "flag": true, "assert": true, "include": true, "variant": true,
	"begin": true, "end": true, "procedure": true, "call": true, "enum": true, "debug": true,
	"match": true, "with": true, "forall": true, "from": true, "do": true, "try": true, "if": true,
	"then": true, "else": true, "catdep": true, "instructions": true, "default": true, "not": true,
}

// isKeyword reports whether t is the keyword w.
func (t token) isKeyword(w string) bool { return t.kind == tName && t.text == w }

// isIdent reports whether t is a name that is not a keyword.
func (t token) isIdent() bool { return t.kind == tName && !keywords[t.text] }
