package cat

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/ptxmm/ptxmm/source"
)

var testPos = source.Pos{File: "t.cat", Line: 1, Col: 1}

// paren prints an expression fully parenthesised, in cat syntax, to
// compare parses (and to parse again, in the fuzz target).
func paren(e Expr) string {
	switch e := e.(type) {
	case *Var:
		return e.Name
	case *Universe:
		return "_"
	case *Empty:
		return "0"
	case *TagLit:
		return "'" + e.Name
	case *Binary:
		return fmt.Sprintf("(%s %s %s)", paren(e.L), e.Op, paren(e.R))
	case *Unary:
		switch e.Op {
		case OpCompl:
			return "~" + paren(e.X)
		case OpIdent:
			return "[" + paren(e.X) + "]"
		}
		return "(" + paren(e.X) + [...]string{"+", "*", "?", "^-1"}[e.Op] + ")"
	case *Tuple:
		return "(" + parenList(e.Elems) + ")"
	case *ExplicitSet:
		return "{" + parenList(e.Elems) + "}"
	case *App:
		arg := paren(e.Arg)
		if _, ok := e.Arg.(*Tuple); !ok {
			arg = "(" + arg + ")"
		}
		return paren(e.Fun) + arg
	case *Fun:
		return "(fun " + patString(e.Param) + " -> " + paren(e.Body) + ")"
	case *LetIn:
		kw := "let "
		if e.Rec {
			kw = "let rec "
		}
		return "(" + kw + bindingsString(e.Bindings) + " in " + paren(e.Body) + ")"
	case *Match:
		var cl []string
		for _, c := range e.Clauses {
			cl = append(cl, "'"+c.Tag+" -> "+paren(c.Body))
		}
		if e.Default != nil {
			cl = append(cl, "_ -> "+paren(e.Default))
		}
		return "(match " + paren(e.X) + " with " + strings.Join(cl, " || ") + " end)"
	case *MatchSet:
		elem := orUnderscore(e.Elem) + " ++ " + orUnderscore(e.Rest)
		if e.Split {
			elem = orUnderscore(e.Pre) + " | " + elem
		}
		return "(match " + paren(e.X) + " with {} -> " + paren(e.Empty) + " || " + elem + " -> " + paren(e.Body) + " end)"
	case *Try:
		return "(try " + paren(e.X) + " with " + paren(e.Alt) + ")"
	case *If:
		return "(if " + condString(e.Cond) + " then " + paren(e.Then) + " else " + paren(e.Else) + ")"
	}
	return fmt.Sprintf("<%T>", e)
}

func parenList(es []Expr) string {
	var out []string
	for _, e := range es {
		out = append(out, paren(e))
	}
	return strings.Join(out, ", ")
}

func orUnderscore(n string) string {
	if n == "" {
		return "_"
	}
	return n
}

func patString(p Pattern) string {
	if p.Tuple {
		return "(" + joinNames(p.Names) + ")"
	}
	return orUnderscore(p.Names[0])
}

func bindingsString(bs []*Binding) string {
	var parts []string
	for _, b := range bs {
		if f, ok := b.Expr.(*Fun); ok && f.Name != "" {
			param := patString(f.Param)
			if !f.Param.Tuple {
				param = "(" + param + ")"
			}
			parts = append(parts, f.Name+param+" = "+paren(f.Body))
			continue
		}
		parts = append(parts, patString(b.Pat)+" = "+paren(b.Expr))
	}
	return strings.Join(parts, " and ")
}

func condString(c Cond) string {
	switch c.Kind {
	case CondEq:
		return paren(c.L) + " = " + paren(c.R)
	case CondSubset:
		return paren(c.L) + " subset " + paren(c.R)
	case CondIn:
		return paren(c.L) + " in " + paren(c.R)
	}
	return variantString(c.Variant)
}

func variantString(v VariantCond) string {
	switch v := v.(type) {
	case *VariantName:
		// A cat string is its bytes up to the next quote: no escapes.
		return `"` + v.Name + `"`
	case *VariantNot:
		return "not " + variantString(v.X)
	case *VariantAnd:
		return "(" + variantString(v.L) + " && " + variantString(v.R) + ")"
	case *VariantOr:
		return "(" + variantString(v.L) + " || " + variantString(v.R) + ")"
	}
	return "?"
}

func testString(t *Test) string {
	neg := ""
	if t.Negated {
		neg = "~"
	}
	out := neg + t.Kind.String() + " " + paren(t.Expr)
	if t.Name != "" {
		out += " as " + t.Name
	}
	return out
}

// instrString prints an instruction compactly, in cat syntax.
func instrString(in Instr) string {
	switch in := in.(type) {
	case *LetInstr:
		kw := "let "
		if in.Rec {
			kw = "let rec "
		}
		out := kw + bindingsString(in.Bindings)
		if in.When != nil {
			out += " when " + testString(in.When)
		}
		return out
	case *TestInstr:
		return [...]string{"", "flag ", "undefined_unless ", "assert "}[in.Mode] + testString(in.Test)
	case *ShowInstr:
		if in.Expr != nil {
			return "show " + paren(in.Expr) + " as " + in.Names[0]
		}
		kw := "show"
		if in.Unshow {
			kw = "unshow"
		}
		return kw + " " + strings.Join(in.Names, ", ")
	case *IncludeInstr:
		return `include "` + in.File + `"`
	case *ProcInstr:
		kw := "procedure "
		if in.Rec {
			kw = "procedure rec "
		}
		return kw + in.Name + "(" + joinNames(in.Params.Names) + ") = " + instrsString(in.Body) + " end"
	case *CallInstr:
		out := "call " + in.Name + " " + paren(in.Arg)
		if in.Label != "" {
			out += " as " + in.Label
		}
		return out
	case *EnumInstr:
		return in.Name + " = '" + strings.Join(in.Tags, " || '")
	case *ForallInstr:
		return "forall " + in.Var + " in " + paren(in.Set) + " do " + instrsString(in.Body) + " end"
	case *DebugInstr:
		return "debug " + paren(in.Expr)
	case *WithInstr:
		return "with " + in.Var + " from " + paren(in.Set)
	case *EventsInstr:
		kw := "instructions "
		if in.Default {
			kw = "default "
		}
		return kw + in.Set + "[" + parenList(in.Args) + "]"
	case *IfVariantInstr:
		out := "if " + variantString(in.Cond) + " " + instrsString(in.Then)
		if len(in.Else) > 0 {
			out += " else " + instrsString(in.Else)
		}
		return out + " end"
	case *MatchInstr:
		var cl []string
		for _, c := range in.Clauses {
			cl = append(cl, "'"+c.Tag+" -> "+instrsString(c.Body))
		}
		if in.HasDefault {
			cl = append(cl, "_ -> "+instrsString(in.Default))
		}
		return "match " + paren(in.X) + " with " + strings.Join(cl, " || ") + " end"
	}
	return fmt.Sprintf("<%T>", in)
}

func instrsString(ins []Instr) string {
	var out []string
	for _, in := range ins {
		out = append(out, instrString(in))
	}
	return strings.Join(out, " ")
}

// noFiles makes includes fail without touching the disk.
var noFiles = Options{Read: func(string) ([]byte, error) { return nil, fs.ErrNotExist }}

// memFiles reads includes from a map.
func memFiles(files map[string]string) Options {
	return Options{Read: func(name string) ([]byte, error) {
		if t, ok := files[name]; ok {
			return []byte(t), nil
		}
		return nil, fs.ErrNotExist
	}}
}

// parseOK parses cat text that must have no error.
func parseOK(src string) (*Model, source.List) { return Parse("t.cat", src) }
