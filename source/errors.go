package source

import (
	"fmt"
	"sort"
	"strings"
	"unicode/utf8"
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
	// tooMany marks the diagnostic that stands for those dropped past
	// MaxErrors; it sorts last.
	tooMany bool
}

// Error prints the diagnostic on one line: file:line:col: message.
func (e *Error) Error() string {
	prefix := ""
	if e.Severity == SevWarning {
		prefix = "warning: "
	}
	return Escape(fmt.Sprintf("%s: %s%s", e.Pos, prefix, e.Msg))
}

// Quoted prints the diagnostic followed by its source line and a caret under
// the column, when the line is known. A long line is cut around the caret
// (MaxQuotedWidth), and control characters are escaped (Escape).
func (e *Error) Quoted() string {
	if e.Line == "" || e.Pos.Col <= 0 || e.tooMany {
		return e.Error()
	}
	line, caret := quoteLine(e.Line, e.Pos.Col-1)
	var b strings.Builder
	b.WriteString(e.Error())
	b.WriteString("\n    ")
	b.WriteString(line)
	b.WriteString("\n    ")
	b.WriteString(strings.Repeat(" ", caret))
	b.WriteString("^")
	return b.String()
}

// MaxQuotedWidth is the most characters of a source line a diagnostic
// quotes: a longer line (a table row of thousands of cells) is cut to the
// part around the caret, "..." marking what was left out.
const MaxQuotedWidth = 100

// quoteBefore is how much of the quoted width goes before the caret.
const quoteBefore = 60

// quotedSpacing writes a tab as one space, so that the caret lines up, and
// a newline (a line is one line, but a caller may pass text that is not) as
// \n, so that the quote stays on one line above its caret.
var quotedSpacing = strings.NewReplacer("\t", " ", "\n", `\n`)

// quoteLine returns the part of line a diagnostic shows, escaped, with
// tabs as one space, and the caret's place in it for byte offset col.
func quoteLine(line string, col int) (string, int) {
	col = min(max(col, 0), len(line))
	for col > 0 && col < len(line) && !utf8.RuneStart(line[col]) {
		col--
	}
	// Look at a window of raw bytes wide enough for the characters shown
	// (a character takes at most 4 bytes), then cut it in characters.
	start, end := max(col-4*quoteBefore, 0), min(col+4*(MaxQuotedWidth-quoteBefore), len(line))
	// Move the window's ends onto character starts, never past the caret:
	// a line that is not UTF-8 (continuation bytes at its start, or running
	// up to the caret) has no character start to move to.
	for start > 0 && start < col && !utf8.RuneStart(line[start]) {
		start++
	}
	for end > col && end < len(line) && !utf8.RuneStart(line[end]) {
		end--
	}
	before := escaped(quotedSpacing.Replace(line[start:col]))
	after := escaped(quotedSpacing.Replace(line[col:end]))
	cutLeft, cutRight := start > 0, end < len(line)
	if len(before) > quoteBefore {
		before, cutLeft = before[len(before)-quoteBefore:], true
	}
	if len(before)+len(after) > MaxQuotedWidth {
		after, cutRight = after[:MaxQuotedWidth-len(before)], true
	}
	var b strings.Builder
	if cutLeft {
		b.WriteString("...")
	}
	for _, c := range before {
		b.WriteString(c)
	}
	caret := utf8.RuneCountInString(b.String())
	for _, c := range after {
		b.WriteString(c)
	}
	if cutRight {
		b.WriteString("...")
	}
	return b.String(), caret
}

// List accumulates diagnostics. The zero List is ready to use.
type List []*Error

// MaxErrors is the most errors a List keeps, and apart the most warnings:
// past it, one more diagnostic says "too many errors" (or warnings) and
// the rest are dropped, as Go's compiler does, so that a row of a
// thousand bad cells costs a few lines of diagnostics, not one per cell.
const MaxErrors = 10

// Add appends an error at pos.
func (l *List) Add(pos Pos, format string, args ...any) {
	l.add(&Error{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// Warn appends a warning at pos.
func (l *List) Warn(pos Pos, format string, args ...any) {
	l.add(&Error{Pos: pos, Msg: fmt.Sprintf(format, args...), Severity: SevWarning})
}

// Append appends diagnostics made elsewhere, within MaxErrors.
func (l *List) Append(errs ...*Error) {
	for _, e := range errs {
		l.add(e)
	}
}

// Full reports whether the list holds MaxErrors errors and the "too many
// errors" that follows them: it takes no more, so a parser that tells its
// progress by the errors it adds stops there, as Go's compiler does.
func (l List) Full() bool {
	for _, e := range l {
		if e.tooMany && e.Severity == SevError {
			return true
		}
	}
	return false
}

// add appends e unless the list already holds MaxErrors diagnostics of its
// severity; the first one past the bound becomes "too many errors".
func (l *List) add(e *Error) {
	n := 0
	for _, d := range *l {
		if d.Severity == e.Severity {
			n++
		}
	}
	switch {
	case n < MaxErrors:
		*l = append(*l, e)
	case n == MaxErrors:
		what := "errors"
		if e.Severity == SevWarning {
			what = "warnings"
		}
		*l = append(*l, &Error{Pos: e.Pos, Msg: fmt.Sprintf("too many %s (only the first %d are shown)", what, MaxErrors),
			Severity: e.Severity, tooMany: true})
	}
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
	sort.SliceStable(l, func(i, j int) bool {
		if l[i].tooMany != l[j].tooMany {
			return l[j].tooMany
		}
		return l[i].Pos.Before(l[j].Pos)
	})
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
