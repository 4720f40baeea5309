package report

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/litmus"
)

// Kinds holds the expected kinds of tests, read from a file of "NAME KIND"
// lines (herd7's -kinds format): KIND is Allow(ed), Forbid(den) or
// Require(d); blank lines and lines starting with # are skipped.
type Kinds struct {
	path  string
	kinds map[string]litmus.CondKind
	lines map[string]int
}

// ReadKinds reads a kinds file.
func ReadKinds(path string) (*Kinds, error) {
	data, err := limits.ListFile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read expected kinds: %w", err)
	}
	k := &Kinds{path: path, kinds: map[string]litmus.CondKind{}, lines: map[string]int{}}
	sc := bufio.NewScanner(bytes.NewReader(data))
	// A line as long as the file (bounded by limits.ListFile), as in
	// ParseExpected.
	sc.Buffer(nil, len(data)+1)
	line := 0
	for sc.Scan() {
		line++
		text := strings.TrimSpace(sc.Text())
		if text == "" || strings.HasPrefix(text, "#") {
			continue
		}
		fields := strings.Fields(text)
		if len(fields) != 2 {
			return nil, fmt.Errorf("%s:%d:1: expected a test name and a kind (Allowed, Forbidden or Required), found %q", path, line, text)
		}
		kind, ok := map[string]litmus.CondKind{"Allow": litmus.CondExists, "Allowed": litmus.CondExists,
			"Forbid": litmus.CondNotExists, "Forbidden": litmus.CondNotExists,
			"Require": litmus.CondForall, "Required": litmus.CondForall}[fields[1]]
		if !ok {
			col := strings.Index(sc.Text(), fields[1]) + 1
			return nil, fmt.Errorf("%s:%d:%d: a kind is Allowed, Forbidden or Required (or Allow, Forbid, Require), not %q", path, line, col, fields[1])
		}
		if first, dup := k.lines[fields[0]]; dup {
			return nil, fmt.Errorf("%s:%d:1: %s is given a kind twice (first on line %d)", path, line, fields[0], first)
		}
		k.kinds[fields[0]], k.lines[fields[0]] = kind, line
	}
	return k, sc.Err()
}

// All returns the kinds, by test name.
func (k *Kinds) All() map[string]litmus.CondKind { return k.kinds }

var kindWord = map[litmus.CondKind]string{litmus.CondExists: "Allowed", litmus.CondNotExists: "Forbidden", litmus.CondForall: "Required"}

// CompareKinds checks the results against the expected kinds: a test
// expected Allowed passes when some consistent execution satisfies its
// condition's proposition, Forbidden when none does, Required when all do
// (herd7's -kinds gives the test that quantifier; it passes when the log
// then says Ok). Tests the file does not name are not compared; names the
// file lists that no test has are returned in missing.
func CompareKinds(w io.Writer, k *Kinds, results []*checker.Result) (passed, failed int, missing []string) {
	seen := map[string]bool{}
	for _, r := range results {
		name := LogName(r.Test)
		want, ok := k.kinds[name]
		if !ok {
			continue
		}
		seen[name] = true
		if r.Err != nil {
			failed++
			fmt.Fprintf(w, "MISMATCH %s: expected %s, got error: %v\n", name, kindWord[want], r.Err)
			continue
		}
		if _, _, has := Condition(r.Test); !has {
			failed++
			fmt.Fprintf(w, "MISMATCH %s: expected %s, but its commands give no single condition\n", name, kindWord[want])
			continue
		}
		pos, neg := counts(r)
		good := map[litmus.CondKind]bool{litmus.CondExists: pos > 0, litmus.CondNotExists: pos == 0, litmus.CondForall: neg == 0}[want]
		if good {
			passed++
			continue
		}
		failed++
		fmt.Fprintf(w, "MISMATCH %s: expected %s, but %d consistent execution(s) satisfy the condition's proposition and %d do not\n",
			name, kindWord[want], pos, neg)
	}
	for name := range k.kinds {
		if !seen[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	return passed, failed, missing
}
