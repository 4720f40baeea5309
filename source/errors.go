package source

import (
	"fmt"
	"sort"
	"strings"
)

// Severity tells errors, which stop processing, from warnings, which do not.
type Severity int

const (
	// SevError marks a diagnostic that makes the input unusable.
	SevError Severity = iota
	// SevWarning marks a diagnostic about input that is still processed.
	SevWarning
)

// Error is one diagnostic at a position. Line holds the text of the source
// line when it is known, so that the diagnostic can quote it.
type Error struct {
	Pos      Pos
	Msg      string
	Severity Severity
	Line     string
}

// Error prints the diagnostic on one line: file:line:col: message.
func (e *Error) Error() string {
	prefix := ""
	if e.Severity == SevWarning {
		prefix = "warning: "
	}
	return fmt.Sprintf("%s: %s%s", e.Pos, prefix, e.Msg)
}

// Quoted prints the diagnostic followed by its source line and a caret under
// the column, when the line is known.
func (e *Error) Quoted() string {
	if e.Line == "" || e.Pos.Col <= 0 {
		return e.Error()
	}
	var b strings.Builder
	b.WriteString(e.Error())
	b.WriteString("\n    ")
	b.WriteString(strings.ReplaceAll(e.Line, "\t", " "))
	b.WriteString("\n    ")
	col := e.Pos.Col - 1
	if col > len(e.Line) {
		col = len(e.Line)
	}
	b.WriteString(strings.Repeat(" ", col))
	b.WriteString("^")
	return b.String()
}

// List accumulates diagnostics. The zero List is ready to use.
type List []*Error

// Add appends an error at pos.
func (l *List) Add(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Warn appends a warning at pos.
func (l *List) Warn(pos Pos, format string, args ...any) {
	*l = append(*l, &Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Severity: SevWarning})
}

// HasErrors reports whether any diagnostic is an error rather than a warning.
func (l List) HasErrors() bool {
	for _, e := range l {
		if e.Severity == SevError {
			return true
		}
	}
	return false
}

// Errors returns only the errors, leaving out warnings.
func (l List) Errors() List {
	var out List
	for _, e := range l {
		if e.Severity == SevError {
			out = append(out, e)
		}
	}
	return out
}

// Warnings returns only the warnings.
func (l List) Warnings() List {
	var out List
	for _, e := range l {
		if e.Severity == SevWarning {
			out = append(out, e)
		}
	}
	return out
}

// Sort orders the diagnostics by position, keeping the order of diagnostics
// at the same position.
func (l List) Sort() {
	sort.SliceStable(l, func(i, j int) bool { return l[i].Pos.Before(l[j].Pos) })
}

// Error prints every diagnostic, one per line, so that a List can be
// returned as an error.
func (l List) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Quoted prints every diagnostic with its quoted source line.
func (l List) Quoted() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Quoted())
	}
	return b.String()
}

// Err returns l as an error when it holds at least one error, and nil
// otherwise (warnings alone are not an error).
func (l List) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return l
}

// AttachLines fills in the quoted source line of every diagnostic that points
// into file, using text as that file's contents.
func (l List) AttachLines(file, text string) {
	var lines []string
	for _, e := range l {
		if e.Pos.File != file || e.Line != "" || !e.Pos.IsValid() {
			continue
		}
		if lines == nil {
			lines = strings.Split(text, "\n")
		}
		if e.Pos.Line-1 < len(lines) {
			e.Line = strings.TrimRight(lines[e.Pos.Line-1], "\r")
		}
	}
}
