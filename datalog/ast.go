package datalog

import (
	"github.com/ptxmm/ptxmm/relop"
	"github.com/ptxmm/ptxmm/source"
)

// Program is a parsed model: every declaration, rule, definition and check of
// a file and the files it includes, in source order.
type Program struct {
	Files  []string // the files read, the main file first
	Decls  []*Decl
	Rules  []*Rule
	Defs   []*Def
	Checks []*Check
	Orders []*Order
	IO     []*IODirective
	// Edits are the variant edits (.redefine, .uncheck, ...) in source order;
	// Analyze applies them.
	Edits []*Edit
	// Queries are "?- body." lines; the REPL answers them, eval ignores them.
	Queries []*Query
	// texts holds the text of every file read, for quoting source lines.
	texts map[string]string
}

// AttachLines fills in the quoted source line of every diagnostic in l that
// points into a file of the program, so that l.Quoted() shows the line and
// a caret under the column. Analyze does this for its own diagnostics; a
// host calls it for later ones (such as the rules package's).
func (p *Program) AttachLines(l source.List) {
	for file, text := range p.texts {
		if text != noText {
			l.AttachLines(file, text)
		}
	}
}

// noText marks a file name that was read with different texts.
const noText = "\x00"

// Param is one column of a declared relation.
type Param struct {
	Name string
	Type string // "" when not written
	Pos  source.Pos
}

// Decl is a ".decl name(a: event, b: event)" declaration.
type Decl struct {
	Name   string
	Params []Param
	Doc    string
	Pos    source.Pos
}

// Arity is the number of columns.
func (d *Decl) Arity() int { return len(d.Params) }

// IOKind says what an IO directive asks for.
type IOKind int

const (
	// IOInput marks a relation whose tuples come from outside the program.
	IOInput IOKind = iota
	// IOOutput asks for a relation's tuples to be written out.
	IOOutput
	// IOPrintSize asks for a relation's size to be printed.
	IOPrintSize
	// IOEdges names relations that explanations show as single edges
	// rather than expand into the relations they are made of.
	IOEdges
	// IOShow names relations that pictures of executions draw unless
	// told otherwise (herd7's show).
	IOShow
)

func (k IOKind) String() string {
	switch k {
	case IOOutput:
		return "output"
	case IOPrintSize:
		return "printsize"
	case IOEdges:
		return "edges"
	case IOShow:
		return "show"
	default:
		return "input"
	}
}

// IODirective is ".input name", ".output name" or ".printsize name".
type IODirective struct {
	Kind IOKind
	Name string
	Pos  source.Pos
}

// TermKind tells what a rule argument is.
type TermKind int

const (
	// TermVar is a variable.
	TermVar TermKind = iota
	// TermWildcard is _, a variable that matches anything and is never reused.
	TermWildcard
	// TermString is a string constant.
	TermString
	// TermInt is an integer constant.
	TermInt
)

// Term is an argument of an atom or a side of a comparison.
type Term struct {
	Kind TermKind
	Name string // variable name, or the string constant's text
	Int  int64
	Pos  source.Pos
}

// IsConst reports whether the term is a constant.
func (t Term) IsConst() bool { return t.Kind == TermString || t.Kind == TermInt }

// Atom is pred(args...), possibly negated in a rule body.
type Atom struct {
	Pred    string
	Args    []Term
	Negated bool
	Pos     source.Pos
}

// Literal is an element of a rule body: an *Atom or a *Compare.
type Literal interface {
	literal()
	Position() source.Pos
}

// Compare is "X = Y" or "X != Y" in a rule body.
type Compare struct {
	Op   string // "=" or "!="
	L, R Term
	Pos  source.Pos
}

func (*Atom) literal()    {}
func (*Compare) literal() {}

// Position returns where the atom starts.
func (a *Atom) Position() source.Pos { return a.Pos }

// Position returns where the comparison starts.
func (c *Compare) Position() source.Pos { return c.Pos }

// Rule is "head :- body." or, with an empty body, a fact.
type Rule struct {
	Head *Atom
	Body []Literal
	Pos  source.Pos
	// Origin names the definition or check a desugared rule came from ("" for
	// rules written by hand), and OriginText is the subexpression it
	// computes, so explanations can speak the user's language.
	Origin     string
	OriginText string
}

// Def is "let name = expr": a relational definition in cat notation.
type Def struct {
	Name string
	Expr Expr
	Doc  string
	Pos  source.Pos
}

// CheckKind is the kind of a named check.
type CheckKind int

const (
	// CheckAcyclic holds when the relation has no cycle.
	CheckAcyclic CheckKind = iota
	// CheckIrreflexive holds when no atom is related to itself.
	CheckIrreflexive
	// CheckEmpty holds when the relation has no tuple.
	CheckEmpty
)

func (k CheckKind) String() string {
	switch k {
	case CheckIrreflexive:
		return "irreflexive"
	case CheckEmpty:
		return "empty"
	default:
		return "acyclic"
	}
}

// CheckMode says what a failing check means.
type CheckMode int

const (
	// ModeAxiom is .check: an execution that fails it is inconsistent.
	ModeAxiom CheckMode = iota
	// ModeFlag is .flag: a consistent execution that fails it raises a
	// flag (herd7's "flag ~empty e as name"); the execution stays
	// consistent.
	ModeFlag
	// ModeUndefined is .undefined: a consistent execution that fails it
	// makes the program's behaviour undefined (herd7's "undefined_unless").
	ModeUndefined
)

func (m CheckMode) String() string {
	switch m {
	case ModeFlag:
		return "flag"
	case ModeUndefined:
		return "undefined"
	default:
		return "check"
	}
}

// Check is ".check name: kind(expr)": one axiom; or, with Mode set, a
// ".flag" or ".undefined" test evaluated on consistent executions.
type Check struct {
	Name string
	Kind CheckKind
	Mode CheckMode
	Expr Expr
	Doc  string
	Pos  source.Pos
	// Rel names the relation the check tests once the program is resolved
	// (the expression's own relation, or a generated one).
	Rel string
}

// Order is ".order name over pairs": a relation chosen by the host, one
// candidate at a time: every strict partial order that relates each pair of
// the symmetric relation "pairs" one way or the other (8.9.3, 8.9.6).
// With Partial (".order name over pairs partial"), a pair may also be left
// unrelated (herd7's and Dartagnan's partial coherence).
type Order struct {
	Name    string
	Over    string
	Partial bool
	Doc     string
	Pos     source.Pos
}

// EditKind is the kind of a variant edit.
type EditKind int

const (
	// EditRedefine replaces a definition (".redefine name = expr") or all the
	// rules of a relation (".redefine head :- body.").
	EditRedefine EditKind = iota
	// EditRecheck replaces a check (".recheck name: kind(expr)").
	EditRecheck
	// EditUncheck removes a check (".uncheck name").
	EditUncheck
)

// Edit is a change a variant makes to the model it includes.
type Edit struct {
	Kind  EditKind
	Name  string
	Def   *Def    // EditRedefine of a definition
	Rules []*Rule // EditRedefine of rules
	Check *Check  // EditRecheck
	Pos   source.Pos
}

// Query is "?- body.": a question the REPL answers.
type Query struct {
	Body []Literal
	Pos  source.Pos
}

// Expr is a relational expression in cat notation.
type Expr interface {
	exprNode()
	Position() source.Pos
}

// RelRef names a relation.
type RelRef struct {
	Name string
	Pos  source.Pos
}

// Universe is "_": every atom (as a set), or every pair when used where a
// binary relation is expected.
type Universe struct {
	Pos source.Pos
}

// BinOp is a binary relational operator (shared with cat: package relop).
type BinOp = relop.BinOp

// The binary operators.
const (
	// OpUnion is |.
	OpUnion = relop.Union
	// OpSeq is ; (composition).
	OpSeq = relop.Seq
	// OpDiff is \.
	OpDiff = relop.Diff
	// OpInter is &.
	OpInter = relop.Inter
	// OpProduct is * between two sets.
	OpProduct = relop.Product
)

// Binary is "l op r".
type Binary struct {
	Op   BinOp
	L, R Expr
	Pos  source.Pos
}

// UnOp is a unary relational operator (shared with cat: package relop).
type UnOp = relop.UnOp

// The unary operators.
const (
	// OpPlus is postfix + (transitive closure).
	OpPlus = relop.Plus
	// OpStar is postfix * (reflexive-transitive closure).
	OpStar = relop.Star
	// OpOpt is postfix ? (reflexive closure).
	OpOpt = relop.Opt
	// OpInv is postfix ^-1.
	OpInv = relop.Inv
	// OpCompl is prefix ~.
	OpCompl = relop.Compl
	// OpIdent is [S], the identity on a set.
	OpIdent = relop.Ident
	// OpDomain is domain(r).
	OpDomain = relop.Domain
	// OpRange is range(r).
	OpRange = relop.Range
)

// Unary is a prefix, postfix, bracket or function-call operator applied to X.
type Unary struct {
	Op  UnOp
	X   Expr
	Pos source.Pos
}

func (*RelRef) exprNode()   {}
func (*Universe) exprNode() {}
func (*Binary) exprNode()   {}
func (*Unary) exprNode()    {}

// Position returns where the expression starts.
func (e *RelRef) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Universe) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Binary) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Unary) Position() source.Pos { return e.Pos }
