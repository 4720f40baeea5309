package datalog

import "github.com/ptxmm/ptxmm/source"

// tokenKind classifies a lexical token.
type tokenKind int

const (
	tokEOF       tokenKind = iota
	tokIdent               // name of a relation or variable, or a keyword such as let
	tokWildcard            // _
	tokString              // "text"
	tokInt                 // 42, -3
	tokDirective           // .decl, .input, ... (the text holds the word without the dot)
	tokDoc                 // a /// doc comment line (text without the slashes)
	tokLParen              // (
	tokRParen              // )
	tokLBrack              // [
	tokRBrack              // ]
	tokComma               // ,
	tokDot                 // .
	tokColon               // :
	tokIf                  // :-
	tokBang                // !
	tokEq                  // =
	tokNeq                 // !=
	tokBar                 // |
	tokAmp                 // &
	tokBackslash           // \
	tokSemi                // ;
	tokStar                // *
	tokPlus                // +
	tokQuestion            // ?
	tokInverse             // ^-1
	tokTilde               // ~
	tokQuery               // ?-
)

var tokenNames = map[tokenKind]string{
	tokEOF: "end of file", tokIdent: "name", tokWildcard: "_", tokString: "string",
	tokInt: "integer", tokDirective: "directive", tokDoc: "doc comment",
	tokLParen: "(", tokRParen: ")", tokLBrack: "[", tokRBrack: "]", tokComma: ",",
	tokDot: ".", tokColon: ":", tokIf: ":-", tokBang: "!", tokEq: "=", tokNeq: "!=",
	tokBar: "|", tokAmp: "&", tokBackslash: `\`, tokSemi: ";", tokStar: "*",
	tokPlus: "+", tokQuestion: "?", tokInverse: "^-1", tokTilde: "~", tokQuery: "?-",
}

func (k tokenKind) String() string { return tokenNames[k] }

// expected names a token kind in "expected X" messages: "a name" for the
// kinds that stand for many texts, the quoted text for punctuation.
func (k tokenKind) expected() string {
	switch k {
	case tokIdent:
		return "a name"
	case tokString:
		return "a string"
	case tokInt:
		return "an integer"
	}
	return quoteText(k.String())
}

// token is one lexical token with its position and text.
type token struct {
	kind tokenKind
	pos  source.Pos
	text string
}

// describe renders a token for "expected X, found Y" messages.
func (t token) describe() string {
	switch t.kind {
	case tokIdent:
		return "name " + quoteText(t.text)
	case tokString:
		return "string " + quoteText(t.text)
	case tokInt:
		return "integer " + t.text
	case tokDirective:
		return "directive ." + t.text
	case tokEOF:
		return "end of file"
	default:
		return quoteText(t.kind.String())
	}
}

func quoteText(s string) string { return "\"" + s + "\"" }
