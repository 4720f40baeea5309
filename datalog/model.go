package datalog

import "github.com/ptxmm/ptxmm/source"

// RelKind says where a relation's tuples come from.
type RelKind int

const (
	// RelDerived relations are computed by rules (written or desugared).
	RelDerived RelKind = iota
	// RelInput relations are supplied from outside (.input).
	RelInput
	// RelOrder relations are chosen by the host, one candidate at a time (.order).
	RelOrder
	// RelUniverse is the built-in set of every atom, written _ in expressions.
	RelUniverse
)

// UniverseName is the name of the built-in relation holding every atom. The
// $ keeps it out of the names a user can write.
const UniverseName = "$universe"

// Relation is everything the checked program knows about one relation.
type Relation struct {
	Name  string
	Arity int
	Kind  RelKind
	Doc   string
	Pos   source.Pos
	// Def is the definition of a relation introduced by let, nil otherwise.
	Def *Def
	// Generated marks relations made up for subexpressions of definitions
	// and checks; Text is the subexpression in cat notation.
	Generated bool
	Text      string
	// Owner is the definition or check a generated relation belongs to.
	Owner string
}

// Model is a checked program, ready to be compiled into evaluation plans:
// every relation with its arity, every rule (definitions already desugared),
// the checks with the relation each tests, and the host-chosen orders.
type Model struct {
	Relations map[string]*Relation
	// Names lists relation names in declaration order, generated ones last.
	Names  []string
	Rules  []*Rule
	Checks []*Check
	Orders []*Order
	IO     []*IODirective
	// Edges are the relations explanations show as single edges (.edges).
	Edges []string
	// Show are the relations pictures draw unless told otherwise (.show),
	// in the order given.
	Show []string
	// Queries are the ?- lines of the program (for the REPL).
	Queries []*Query
	// Warnings holds the diagnostics that did not stop the analysis.
	Warnings source.List
	// Program is the syntax the model was built from (Analyze applies its
	// variant edits to copies; the Program itself is left unchanged).
	Program *Program
}

// Relation returns the relation called name, or nil.
func (m *Model) Relation(name string) *Relation { return m.Relations[name] }

// Inputs returns the names of the .input relations in declaration order.
func (m *Model) Inputs() []string {
	var out []string
	for _, n := range m.Names {
		if m.Relations[n].Kind == RelInput {
			out = append(out, n)
		}
	}
	return out
}
