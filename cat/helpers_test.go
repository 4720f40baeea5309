package cat

import (
	"fmt"
	"io/fs"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

var testPos = source.Pos{File: "t.cat", Line: 1, Col: 1}

func newProgram() *datalog.Program { return &datalog.Program{} }

// paren prints an expression fully parenthesised, to compare parses.
func paren(e Expr) string {
	switch e := e.(type) {
	case *Var:
		return e.Name
	case *Universe:
		return "_"
	case *Empty:
		return "0"
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
	case *App:
		var args []string
		for _, a := range e.Args {
			args = append(args, paren(a))
		}
		return paren(e.Fun) + "(" + strings.Join(args, ", ") + ")"
	}
	return fmt.Sprintf("<%T>", e)
}

// stmtString prints a statement compactly.
func stmtString(s Stmt) string {
	switch s := s.(type) {
	case *Let, *LetRec:
		var binds []*Binding
		kw := "let"
		if l, ok := s.(*Let); ok {
			binds = l.Bindings
		} else {
			binds = s.(*LetRec).Bindings
			kw = "let rec"
		}
		var parts []string
		for _, b := range binds {
			head := b.Name
			if b.IsFunc {
				head += "(" + strings.Join(b.Params, ", ") + ")"
			}
			parts = append(parts, head+" = "+paren(b.Expr))
		}
		return kw + " " + strings.Join(parts, " and ")
	case *Test:
		mode := [...]string{"", "flag ", "undefined_unless "}[s.Mode]
		neg := ""
		if s.Negated {
			neg = "~"
		}
		out := mode + neg + s.Kind.String() + " " + paren(s.Expr)
		if s.Name != "" {
			out += " as " + s.Name
		}
		return out
	case *Show:
		if s.Expr != nil {
			return "show " + paren(s.Expr) + " as " + s.Names[0]
		}
		kw := "show"
		if s.Unshow {
			kw = "unshow"
		}
		return kw + " " + strings.Join(s.Names, ", ")
	}
	return fmt.Sprintf("<%T>", s)
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
