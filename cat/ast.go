package cat

import (
	"github.com/ptxmm/ptxmm/relop"
	"github.com/ptxmm/ptxmm/source"
)

// Model is one parsed cat file. Its includes are instructions, read when
// the model is evaluated (an include may stand under if variant).
type Model struct {
	// Arch is the architecture named on the first line ("" when the line
	// has one name or none); herd ignores names that are not architectures.
	Arch string
	// Name is the model's name from its first line ("" when it has none).
	Name string
	// CatDep is set by the catdep keyword after the name: the model
	// computes dependencies itself.
	CatDep bool
	Instrs []Instr
	// File is the file the model was read from.
	File string
}

// Instr is an instruction of a cat model.
type Instr interface {
	instrNode()
	Position() source.Pos
}

// Pattern is what a binding or a function binds: one name (Tuple false),
// or a tuple of names. A name "" is herd's _, which binds nothing.
type Pattern struct {
	Names []string
	Tuple bool
}

// Binding is one "pat = e" of a let; "f(x, y) = e" and "f x = e" bind f
// to a function (Expr is then a *Fun).
type Binding struct {
	Pat  Pattern
	Expr Expr
	Pos  source.Pos
}

// Name is the name a binding binds when it binds one ("" for a tuple).
func (b *Binding) Name() string {
	if b.Pat.Tuple || len(b.Pat.Names) != 1 {
		return ""
	}
	return b.Pat.Names[0]
}

// TestKind is the kind of a test.
type TestKind int

const (
	// TestAcyclic holds when the relation has no cycle.
	TestAcyclic TestKind = iota
	// TestIrreflexive holds when no event is related to itself.
	TestIrreflexive
	// TestEmpty holds when the relation (or set) is empty.
	TestEmpty
)

func (k TestKind) String() string {
	return [...]string{"acyclic", "irreflexive", "empty"}[k]
}

// TestMode says what a test's outcome means.
type TestMode int

const (
	// ModeCheck rejects the executions that fail the test.
	ModeCheck TestMode = iota
	// ModeFlag raises a flag on the consistent executions that pass it.
	ModeFlag
	// ModeUndefinedUnless makes the program undefined when a consistent
	// execution fails it.
	ModeUndefinedUnless
	// ModeAssert says the test holds of every execution of a valid input
	// (herd stops with an error on a test that fails it).
	ModeAssert
)

// Test is "[~]kind e [as name]": the test of a test instruction, and
// the one of let rec ... when.
type Test struct {
	Negated bool // the ~ form: the test holds when kind(e) does not
	Kind    TestKind
	Expr    Expr
	Name    string // "" when the test has no "as name"
	Pos     source.Pos
}

// LetInstr is "let [rec] b1 and b2 ... [when test]".
type LetInstr struct {
	Rec      bool
	Bindings []*Binding
	When     *Test // let rec ... when: checked on the fixpoint
	Pos      source.Pos
}

// TestInstr is "[flag|undefined_unless|assert] test".
type TestInstr struct {
	Mode TestMode
	Test *Test
	Pos  source.Pos
}

// ShowInstr is "show a, b" (Expr nil), "show e as name" or "unshow a, b".
type ShowInstr struct {
	Unshow bool
	Names  []string
	Expr   Expr
	Pos    source.Pos
}

// IncludeInstr is include "file".
type IncludeInstr struct {
	File string
	Pos  source.Pos
}

// ProcInstr is "procedure [rec] name pat = instructions end".
type ProcInstr struct {
	Name   string
	Params Pattern
	Body   []Instr
	Rec    bool
	Pos    source.Pos
}

// CallInstr is "call name arg [as label]".
type CallInstr struct {
	Name  string
	Arg   Expr
	Label string
	Pos   source.Pos
}

// EnumInstr is "enum name = 'a || 'b ...".
type EnumInstr struct {
	Name string
	Tags []string
	Pos  source.Pos
}

// ForallInstr is "forall x in e do instructions end".
type ForallInstr struct {
	Var  string
	Set  Expr
	Body []Instr
	Pos  source.Pos
}

// DebugInstr is "debug e".
type DebugInstr struct {
	Expr Expr
	Pos  source.Pos
}

// WithInstr is "with x from e": the rest of the model runs for each
// member of e's value.
type WithInstr struct {
	Var string
	Set Expr
	Pos source.Pos
}

// EventsInstr is a bell file's "instructions R[args]" (Default false) or
// "default R[args]".
type EventsInstr struct {
	Set     string
	Args    []Expr
	Default bool
	Pos     source.Pos
}

// IfVariantInstr is "if COND instructions [else instructions] end".
type IfVariantInstr struct {
	Cond VariantCond
	Then []Instr
	Else []Instr
	Pos  source.Pos
}

// MatchInstr is "match e with 'a -> instructions || ... [|| _ -> ...] end".
type MatchInstr struct {
	X       Expr
	Clauses []InstrClause
	// Default holds the instructions of "_ ->"; HasDefault tells an empty
	// default from none.
	Default    []Instr
	HasDefault bool
	Pos        source.Pos
}

// InstrClause is "'tag -> instructions".
type InstrClause struct {
	Tag  string
	Body []Instr
	Pos  source.Pos
}

func (*LetInstr) instrNode()       {}
func (*TestInstr) instrNode()      {}
func (*ShowInstr) instrNode()      {}
func (*IncludeInstr) instrNode()   {}
func (*ProcInstr) instrNode()      {}
func (*CallInstr) instrNode()      {}
func (*EnumInstr) instrNode()      {}
func (*ForallInstr) instrNode()    {}
func (*DebugInstr) instrNode()     {}
func (*WithInstr) instrNode()      {}
func (*EventsInstr) instrNode()    {}
func (*IfVariantInstr) instrNode() {}
func (*MatchInstr) instrNode()     {}

// Position returns where the instruction starts.
func (i *LetInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *TestInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *ShowInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *IncludeInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *ProcInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *CallInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *EnumInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *ForallInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *DebugInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *WithInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *EventsInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *IfVariantInstr) Position() source.Pos { return i.Pos }

// Position returns where the instruction starts.
func (i *MatchInstr) Position() source.Pos { return i.Pos }

// VariantCond is the condition of an if on variants: a variant's name,
// not, && and ||.
type VariantCond interface{ variantNode() }

// VariantName holds when the variant is set.
type VariantName struct {
	Name string
	Pos  source.Pos
}

// VariantNot is "not c".
type VariantNot struct{ X VariantCond }

// VariantAnd is "a && b"; VariantOr "a || b".
type VariantAnd struct{ L, R VariantCond }

// VariantOr is "a || b".
type VariantOr struct{ L, R VariantCond }

func (*VariantName) variantNode() {}
func (*VariantNot) variantNode()  {}
func (*VariantAnd) variantNode()  {}
func (*VariantOr) variantNode()   {}

// Expr is a cat expression.
type Expr interface {
	exprNode()
	Position() source.Pos
}

// Var names a value.
type Var struct {
	Name string
	Pos  source.Pos
}

// Universe is _.
type Universe struct{ Pos source.Pos }

// Empty is 0, the empty relation.
type Empty struct{ Pos source.Pos }

// TagLit is 'name, a tag.
type TagLit struct {
	Name string
	Pos  source.Pos
}

// BinOp is a binary operator (shared with the modelling language:
// package relop).
type BinOp = relop.BinOp

// The binary operators.
const (
	// OpUnion is |.
	OpUnion = relop.Union
	// OpSeq is ;.
	OpSeq = relop.Seq
	// OpDiff is \.
	OpDiff = relop.Diff
	// OpInter is &.
	OpInter = relop.Inter
	// OpProduct is * between two operands: the cartesian product.
	OpProduct = relop.Product
	// OpAdd is ++: a set with one more member.
	OpAdd = relop.Add
)

// Binary is "l op r".
type Binary struct {
	Op   BinOp
	L, R Expr
	Pos  source.Pos
}

// UnOp is a unary operator (shared with the modelling language: package
// relop).
type UnOp = relop.UnOp

// The unary operators.
const (
	// OpPlus is postfix +.
	OpPlus = relop.Plus
	// OpStar is postfix *.
	OpStar = relop.Star
	// OpOpt is postfix ?.
	OpOpt = relop.Opt
	// OpInv is postfix ^-1.
	OpInv = relop.Inv
	// OpCompl is prefix ~.
	OpCompl = relop.Compl
	// OpIdent is [S].
	OpIdent = relop.Ident
)

// Unary is a prefix, postfix or bracket operator applied to X.
type Unary struct {
	Op  UnOp
	X   Expr
	Pos source.Pos
}

// Tuple is (a, b, ...) or (): the value of a function's several
// arguments.
type Tuple struct {
	Elems []Expr
	Pos   source.Pos
}

// App applies a function to one argument: f x, or f(a, b) (whose
// argument is a tuple).
type App struct {
	Fun Expr
	Arg Expr
	Pos source.Pos
}

// Fun is "fun pat -> body", also the value of "let f pat = body".
type Fun struct {
	Param Pattern
	Body  Expr
	// Name is the function's name when a let binds it ("" for fun).
	Name string
	Pos  source.Pos
}

// LetIn is "let [rec] bindings in body".
type LetIn struct {
	Rec      bool
	Bindings []*Binding
	Body     Expr
	Pos      source.Pos
}

// ExplicitSet is {a, b, ...}.
type ExplicitSet struct {
	Elems []Expr
	Pos   source.Pos
}

// Match is "match e with 'a -> e1 || ... [|| _ -> ed] end" over tags.
type Match struct {
	X       Expr
	Clauses []ExprClause
	Default Expr // nil when there is no _ clause
	Pos     source.Pos
}

// ExprClause is "'tag -> e".
type ExprClause struct {
	Tag  string
	Body Expr
	Pos  source.Pos
}

// MatchSet is "match e with {} -> empty || x ++ rest -> body end", or
// with the clause "pre | x ++ post -> body". A name "" is _.
type MatchSet struct {
	X     Expr
	Empty Expr
	// Elem and Rest name a member and the set without it; Pre is set
	// (Split true) for the three-name form.
	Pre, Elem, Rest string
	Split           bool
	Body            Expr
	Pos             source.Pos
}

// Try is "try e with alt": alt when evaluating e fails.
type Try struct {
	X, Alt Expr
	Pos    source.Pos
}

// If is "if cond then a else b".
type If struct {
	Cond       Cond
	Then, Else Expr
	Pos        source.Pos
}

// CondKind is the kind of an if's condition.
type CondKind int

const (
	// CondVariant tests variants.
	CondVariant CondKind = iota
	// CondEq is "a = b".
	CondEq
	// CondSubset is "a subset b".
	CondSubset
	// CondIn is "a in b".
	CondIn
)

// Cond is the condition of an if expression.
type Cond struct {
	Kind    CondKind
	Variant VariantCond
	L, R    Expr
}

func (*Var) exprNode()         {}
func (*Universe) exprNode()    {}
func (*Empty) exprNode()       {}
func (*TagLit) exprNode()      {}
func (*Binary) exprNode()      {}
func (*Unary) exprNode()       {}
func (*Tuple) exprNode()       {}
func (*App) exprNode()         {}
func (*Fun) exprNode()         {}
func (*LetIn) exprNode()       {}
func (*ExplicitSet) exprNode() {}
func (*Match) exprNode()       {}
func (*MatchSet) exprNode()    {}
func (*Try) exprNode()         {}
func (*If) exprNode()          {}

// Position returns where the expression starts.
func (e *Var) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Universe) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Empty) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *TagLit) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Binary) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Unary) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Tuple) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *App) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Fun) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *LetIn) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *ExplicitSet) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Match) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *MatchSet) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *Try) Position() source.Pos { return e.Pos }

// Position returns where the expression starts.
func (e *If) Position() source.Pos { return e.Pos }
