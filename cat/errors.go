package cat

import (
	"fmt"

	"github.com/ptxmm/ptxmm/source"
)

// evalError is an error met while evaluating an expression: try catches
// it; elsewhere it is reported at its position.
type evalError struct {
	pos source.Pos
	msg string
}

func (e *evalError) Error() string { return e.msg }

func errorf(pos source.Pos, format string, args ...any) error {
	return &evalError{pos: pos, msg: fmt.Sprintf(format, args...)}
}

// unsuppliedError is a name that neither the model nor ptxmm binds: try
// catches it; elsewhere it goes into the one error listing every such
// name (herd would stop at the first).
type unsuppliedError struct {
	name string
	pos  source.Pos
}

func (e *unsuppliedError) Error() string { return "unbound name " + e.name }

// unsuppliedErrors are several unsupplied names met in one expression.
type unsuppliedErrors []*unsuppliedError

func (e unsuppliedErrors) Error() string { return "unbound names" }

// joinErrors combines the errors of the operands of one expression: an
// error of evaluation is reported (the first); unsupplied names are all
// kept, so that the one error lists every name a model misses, not only
// the first of each expression.
func joinErrors(errs ...error) error {
	var names unsuppliedErrors
	var first error
	for _, err := range errs {
		switch e := err.(type) {
		case nil:
		case *unsuppliedError:
			names = append(names, e)
		case unsuppliedErrors:
			names = append(names, e...)
		case *poisonedError:
			if first == nil {
				first = e
			}
		default:
			return e
		}
	}
	switch {
	case len(names) == 1:
		return names[0]
	case len(names) > 1:
		return names
	}
	return first
}

// poisonedError is the value of a binding whose evaluation failed: the
// failure is reported once, where it happened, and what reads the binding
// fails quietly (try still catches it).
type poisonedError struct{ name string }

func (e *poisonedError) Error() string { return e.name + " could not be evaluated" }

// poisonVal is the value of a binding whose evaluation failed.
type poisonVal struct{ name string }

func (poisonVal) typeName() string { return "value that could not be evaluated" }
