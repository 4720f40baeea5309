package cli

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// Selection chooses and rewrites the tests of a run as herd7's -names,
// -oknames, -excl, -nonames, -rename, -kinds and -conds do. The zero
// Selection keeps every test as it is.
type Selection struct {
	// Names, when not nil, are the only tests checked (-names files and
	// -oknames); Excl are left out (-excl files and -nonames).
	Names map[string]bool
	Excl  map[string]bool
	// Rename gives tests new names (-rename), before they are selected.
	Rename map[string]string
	// Kinds replaces the quantifier of the named tests' conditions
	// (-kinds: Allow is exists, Forbid ~exists, Require forall), and Conds
	// their whole conditions (-conds), after renaming.
	Kinds map[string]litmus.CondKind
	Conds map[string]string
}

// active reports whether the selection chooses or rewrites anything.
func (s *Selection) active() bool {
	return s != nil && (s.Names != nil || len(s.Excl) > 0 || len(s.Rename) > 0 || len(s.Kinds) > 0 || len(s.Conds) > 0)
}

// apply renames and rewrites a test, and reports whether the run keeps it.
func (s *Selection) apply(t *litmus.Test) (bool, error) {
	name := report.LogName(t)
	if n, ok := s.Rename[name]; ok {
		t.Name, name = n, n
	}
	if s.Names != nil && !s.Names[name] || s.Excl[name] {
		return false, nil
	}
	if text, ok := s.Conds[name]; ok {
		if err := setCondition(t, text); err != nil {
			return true, fmt.Errorf("-conds: the condition of %s: %w", name, err)
		}
	}
	if k, ok := s.Kinds[name]; ok {
		if t.Condition == nil {
			return true, fmt.Errorf("-kinds: %s is a .test template, whose commands have no single condition to give a kind", name)
		}
		t.Condition.Kind = k
	}
	return true, nil
}

// setCondition replaces a test's condition by text: "exists P", "~exists
// P", "forall P" (herd7's conditions), or a proposition P alone, which
// keeps the test's quantifier.
func setCondition(t *litmus.Test, text string) error {
	if t.Condition == nil {
		return fmt.Errorf("%s is a .test template, whose commands have no single condition", t.Name)
	}
	kind := t.Condition.Kind
	body := strings.TrimSpace(text)
	for _, q := range []struct {
		word string
		kind litmus.CondKind
	}{{"~exists", litmus.CondNotExists}, {"exists", litmus.CondExists}, {"forall", litmus.CondForall}} {
		if rest, ok := strings.CutPrefix(body, q.word); ok {
			kind, body = q.kind, rest
			break
		}
	}
	e, err := litmus.ParseCondition(t, "condition", body)
	if err != nil {
		return err
	}
	t.Condition.Kind, t.Condition.Expr = kind, e
	return nil
}

// ReadNames reads a herd7 file of test names (-names, -excl): the first
// word of each line; blank lines and lines starting with # are skipped.
func ReadNames(path string, into map[string]bool) error {
	data, err := limits.ListFile.ReadFile(path)
	if err != nil {
		return fmt.Errorf("cannot read the names of %s: %w", path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || strings.HasPrefix(fields[0], "#") {
			continue
		}
		into[fields[0]] = true
	}
	return sc.Err()
}

// ReadMap reads a herd7 file of "NAME VALUE" lines (-rename, -conds):
// VALUE is a word or a double-quoted string; blank lines and comments (#
// or % to the end of the line) are skipped; a name given twice is an
// error.
func ReadMap(path, what string, into map[string]string) error {
	data, err := limits.ListFile.ReadFile(path)
	if err != nil {
		return fmt.Errorf("cannot read %s %s: %w", what, path, err)
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	first := map[string]int{}
	for line := 1; sc.Scan(); line++ {
		text := sc.Text()
		key, rest := cutWord(text)
		if key == "" || strings.HasPrefix(key, "#") || strings.HasPrefix(key, "%") {
			continue
		}
		rest = strings.TrimSpace(rest)
		var value string
		if strings.HasPrefix(rest, `"`) {
			end := strings.Index(rest[1:], `"`)
			if end < 0 {
				return fmt.Errorf("%s:%d:%d: unterminated string: expected a closing \"", path, line, strings.Index(text, `"`)+1)
			}
			value, rest = rest[1:end+1], rest[end+2:]
		} else {
			value, rest = cutWord(rest)
		}
		if rest = strings.TrimSpace(rest); rest != "" && !strings.HasPrefix(rest, "#") && !strings.HasPrefix(rest, "%") {
			return fmt.Errorf("%s:%d:%d: expected a name and one value, found more: %q", path, line, strings.Index(text, rest)+1, rest)
		}
		if value == "" {
			return fmt.Errorf("%s:%d:1: %s has no value", path, line, key)
		}
		if l, dup := first[key]; dup {
			return fmt.Errorf("%s:%d:1: %s is given twice (first on line %d)", path, line, key, l)
		}
		first[key] = line
		into[key] = value
	}
	return sc.Err()
}

// cutWord splits off the first word (up to a blank or a comment).
func cutWord(s string) (string, string) {
	s = strings.TrimLeft(s, " \t\r")
	end := strings.IndexAny(s, " \t\r")
	if end < 0 {
		return s, ""
	}
	return s[:end], s[end:]
}

// applyBadFlag makes a result Undef when it raised the flag bad (herd7's
// -badflag: executions with that flag are bad, as undefined ones are).
func applyBadFlag(r *checker.Result, bad string) {
	if r == nil || bad == "" || r.Err != nil {
		return
	}
	for _, f := range r.Flags {
		if f.Name == bad {
			r.Verdict = "Undef"
			return
		}
	}
}
