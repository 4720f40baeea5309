package report

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
)

// This file holds a reader of herd logs written from the rules of herd's log
// lexer (herdtools7, tools/lexLog_tools.mll, the "main", "pstate",
// "plines", "pline", "pwitnesses", "pcond" and "phash" rules), which
// mcompare7, msum7 and the other log tools use. ptxmm's logs must read
// without error, and give back what was checked.

// The lexer's regular definitions.
const (
	lxNum      = `[0-9]+`
	lxHexa     = `0x[0-9a-fA-F]+`
	lxName     = `[a-zA-Z_.$][a-zA-Z0-9_.]*`
	lxLoc      = `(?:` + lxName + `|\$(?:[a-zA-Z]+|[0-9]+))`
	lxTestName = `[a-zA-Z0-9_/.\-+\[\]:]+`
	lxBlank    = `[ \t]`
	lxValid    = `(?:Undef|Succeeded|Failed|Ok|No|\?\?)`
)

var (
	reTest   = regexp.MustCompile(`^Test` + lxBlank + `+(` + lxTestName + `)(?:` + lxBlank + `+(` + lxName + `))?$`)
	reStates = regexp.MustCompile(`^States(?:` + lxBlank + `+[0-9]+)?$`)
	reValid  = regexp.MustCompile(`^(Loop` + lxBlank + `+)?(` + lxValid + `)`)
	// One binding of a state line: a register "P:reg", a location "x" or
	// "[x]", and a number or a symbolic value.
	reItem = regexp.MustCompile(`^` + lxBlank + `*((?:` + lxNum + `:` + lxName + `)|\[?` + lxLoc + `\]?)` +
		lxBlank + `*=` + lxBlank + `*(-?(?:` + lxHexa + `|` + lxNum + `)|` + lxName + `(?::` + lxName + `)?)` + lxBlank + `*;`)
	reLineEnd = regexp.MustCompile(`^` + lxBlank + `*(?:#.*)?$`)
	reWits    = regexp.MustCompile(`^Positive:` + lxBlank + `*(` + lxNum + `),?` + lxBlank + `*Negative:` + lxBlank + `*(` + lxNum + `)` + lxBlank + `*$`)
	reHash    = regexp.MustCompile(`^[hH][aA][sS][hH]` + lxBlank + `*=` + lxBlank + `*([^ \t]+)` + lxBlank + `*$`)
	reTime    = regexp.MustCompile(`^Time` + lxBlank + `+` + lxTestName + lxBlank + `+([0-9]+\.[0-9]+)` + lxBlank + `*$`)
	reKeyEq   = regexp.MustCompile(`^[a-zA-Z]+` + lxBlank + `*=`)
	reKeyName = regexp.MustCompile(`^[a-zA-Z]+` + lxBlank + `+` + lxTestName + lxBlank + `+`)
	blankLine = regexp.MustCompile(`^` + lxBlank + `*$`)
)

// logTest is what the log tools keep of one test.
type logTest struct {
	Name, Kind string
	States     [][]string // each state's bindings, "loc=v"
	Validation string
	Loop       bool
	Pos, Neg   int
	HasWits    bool
	Cond       string
	Flags      []string
	Hash       string
	Time       string
}

// readHerdLog reads a log as the lexer does, failing at the first line
// the lexer rejects.
func readHerdLog(text string) ([]*logTest, error) {
	lines := strings.Split(text, "\n")
	if strings.HasSuffix(text, "\n") {
		lines = lines[:len(lines)-1]
	}
	var out []*logTest
	i := 0
	fail := func(format string, args ...any) error {
		return fmt.Errorf("line %d: %s: %q", i+1, fmt.Sprintf(format, args...), lines[min(i, len(lines)-1)])
	}
	for i < len(lines) {
		m := reTest.FindStringSubmatch(lines[i])
		if m == nil {
			// main: any other line is skipped.
			i++
			continue
		}
		lt := &logTest{Name: m[1], Kind: m[2]}
		switch lt.Kind {
		case "Allow", "Allowed", "Require", "Required", "Forbid", "Forbidden", "", "Unknown", "???", "---":
		default:
			return nil, fail("Lexing kind: %s", lt.Kind) // Warn.fatal in herd
		}
		i++
		// pstate: skip to States.
		for i < len(lines) && !reStates.MatchString(lines[i]) {
			if strings.HasPrefix(lines[i], "Fatal") {
				return nil, fail("a Fatal line drops the test")
			}
			i++
		}
		if i == len(lines) {
			return nil, fail("no States line after Test %s", lt.Name)
		}
		i++
		// plines: state lines up to the validation line.
		for {
			if i == len(lines) {
				// herd takes a test cut short here as not run; a ptxmm log
				// always has the line, so the reader is stricter.
				return nil, fail("end of log before the validation line of %s", lt.Name)
			}
			line := lines[i]
			if v := reValid.FindStringSubmatch(line); v != nil {
				lt.Loop, lt.Validation = v[1] != "", v[2]
				i++
				break
			}
			if blankLine.MatchString(line) {
				if len(lt.States) == 0 {
					lt.States = append(lt.States, nil)
				}
				i++
				continue
			}
			var st []string
			rest := line
			for {
				b := reItem.FindStringSubmatch(rest)
				if b == nil {
					break
				}
				st = append(st, b[1]+"="+b[2])
				rest = rest[len(b[0]):]
			}
			if !reLineEnd.MatchString(rest) {
				return nil, fail("Lex error pline")
			}
			lt.States = append(lt.States, st)
			i++
		}
		// pwitnesses
		for i < len(lines) && blankLine.MatchString(lines[i]) {
			i++
		}
		if i+1 < len(lines) && strings.TrimRight(lines[i], " \t") == "Witnesses" {
			w := reWits.FindStringSubmatch(lines[i+1])
			if w == nil {
				return nil, fail("Witnesses without a Positive/Negative line")
			}
			lt.HasWits = true
			lt.Pos, _ = strconv.Atoi(w[1])
			lt.Neg, _ = strconv.Atoi(w[2])
			i += 2
		}
		// pcond
		for i < len(lines) {
			line := lines[i]
			if blankLine.MatchString(line) || strings.HasPrefix(line, "Bad executions") {
				i++
				continue
			}
			if strings.HasPrefix(line, "Flag ") {
				lt.Flags = append(lt.Flags, strings.TrimPrefix(line, "Flag "))
				i++
				continue
			}
			if c, ok := strings.CutPrefix(line, "Condition "); ok && strings.TrimSpace(c) != "" {
				lt.Cond = strings.TrimSpace(c)
				i++
			}
			break
		}
		for i < len(lines) && blankLine.MatchString(lines[i]) {
			i++
		}
		// phash: Hash, Time and "key ..." lines until any other line.
		for i < len(lines) {
			line := lines[i]
			if h := reHash.FindStringSubmatch(line); h != nil {
				lt.Hash = h[1]
			} else if tm := reTime.FindStringSubmatch(line); tm != nil {
				lt.Time = tm[1]
			} else if !reKeyEq.MatchString(line) && !reKeyName.MatchString(line) {
				break
			}
			i++
		}
		out = append(out, lt)
	}
	return out, nil
}

// checkLog reads a log of results and checks it against them.
func checkLog(t *testing.T, log string, results []*checker.Result) {
	t.Helper()
	tests, err := readHerdLog(log)
	require.NoError(t, err)
	var want []*checker.Result
	for _, r := range results {
		if r.Err == nil {
			want = append(want, r)
		}
	}
	require.Len(t, tests, len(want), "every checked test is in the log")
	for k, lt := range tests {
		r := want[k]
		require.Equal(t, LogName(r.Test), lt.Name)
		require.Regexp(t, `^[0-9a-f]{32}$`, lt.Hash, "%s has a hash (msum7 needs it)", lt.Name)
		require.Equal(t, litmus.Hash(r.Test), lt.Hash)
		require.Regexp(t, `^[0-9]+\.[0-9]{2}$`, lt.Time, lt.Name)
		require.Len(t, lt.States, len(r.States), "%s: every state line reads", lt.Name)
		for _, st := range lt.States {
			require.Len(t, st, len(r.Observables), "%s: one binding per observable", lt.Name)
		}
		require.Equal(t, r.Cut > 0, lt.Loop, lt.Name)
		_, _, hasCond := Condition(r.Test)
		require.Equal(t, hasCond, lt.HasWits, lt.Name)
		if c := r.Test.Condition; c != nil {
			require.Equal(t, r.Verdict, lt.Validation, lt.Name)
			kind := map[litmus.CondKind]string{litmus.CondExists: "Allowed", litmus.CondNotExists: "Forbidden", litmus.CondForall: "Required"}[c.Kind]
			require.Equal(t, kind, lt.Kind, lt.Name)
			pos, neg := r.Positive, r.Negative
			if c.Kind == litmus.CondNotExists {
				pos, neg = neg, pos
			}
			require.Equal(t, [2]int{pos, neg}, [2]int{lt.Pos, lt.Neg}, lt.Name)
			require.True(t, strings.HasPrefix(lt.Cond, c.Kind.String()+" ("), lt.Cond)
		}
		flags := len(r.Flags)
		if r.Hangs > 0 {
			flags++ // Flag deadlock
		}
		require.Len(t, lt.Flags, flags, lt.Name)
		for _, st := range lt.States {
			for _, b := range st {
				require.NotContains(t, b, "?", lt.Name)
			}
		}
	}
}

// TestLogFormatExamples: the logs of the shipped tests read as herd's log
// lexer reads them, with and without explanations.
func TestLogFormatExamples(t *testing.T) {
	for _, explain := range []bool{false, true} {
		o := checker.DefaultOptions()
		o.Explain = explain
		log, results := logOf(t, []string{filepath.Join("..", "examples")}, o, LogOptions{Candidates: explain})
		checkLog(t, log, results)
	}
}

// TestLogFormatShared: the same for both shared corpora, when present.
func TestLogFormatShared(t *testing.T) {
	_, file, _, _ := runtime.Caller(0)
	root := filepath.Join(filepath.Dir(file), "..", "..", "shared", "conformance")
	if _, err := os.Stat(root); err != nil {
		t.Skipf("shared conformance corpus not found at %s; skipping", root)
	}
	o := checker.DefaultOptions()
	o.Explain = true
	log, results := logOf(t, []string{filepath.Join(root, "dat3m"), filepath.Join(root, "nvlabs")}, o, LogOptions{})
	checkLog(t, log, results)
}

// logOf checks every test under dirs with spec.dl and returns the log.
func logOf(t *testing.T, dirs []string, o checker.Options, lo LogOptions) (string, []*checker.Result) {
	t.Helper()
	var b bytes.Buffer
	w := bufio.NewWriter(&b)
	var results []*checker.Result
	for _, dir := range dirs {
		err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")) {
				return err
			}
			tests, err := litmus.ParseFile(p)
			require.NoError(t, err)
			for _, tc := range tests {
				r := spec(t).Check(tc, o)
				results = append(results, r)
				HerdLog(w, r, lo)
			}
			return nil
		})
		require.NoError(t, err)
	}
	require.NoError(t, w.Flush())
	return b.String(), results
}

// TestLogReaderRejects: the reader fails where herd's lexer does, so the
// tests above can fail.
func TestLogReaderRejects(t *testing.T) {
	cases := map[string]string{
		"P1:r0=1;":        "Test T Allowed\nStates 1\nP1:r0=1;\nOk\n",
		"%r0":             "Test T Allowed\nStates 1\n1:%r0=1;\nOk\n",
		"?":               "Test T Allowed\nStates 1\n1:r0=?;\nOk\n",
		"unknown kind":    "Test T Error\nStates 0\nOk\n",
		"no validation":   "Test T Allowed\nStates 1\n1:r0=1;\n",
		"bad witnesses":   "Test T Allowed\nStates 1\n1:r0=1;\nOk\nWitnesses\nPositive 1\n",
		"no States":       "Test T Allowed\nOk\n",
		"P1:r0 condition": "Test T Allowed\nStates 1\nP1:r0 == 1;\nOk\n",
	}
	for what, log := range cases {
		_, err := readHerdLog(log)
		require.Error(t, err, what)
	}
	tests, err := readHerdLog("junk\nTest T Forbidden\nStates 2\n0:r0=0; x=[y];\n0:r0=1; [x]=$undef; # note\nLoop No\nWitnesses\nPositive: 2 Negative: 0\nFlag f\nCondition ~exists (0:r0=2)\nObservation T Never 0 2\nTime T 0.01\nHash=ab\nAnything else\n\n")
	require.Error(t, err, "[y] is not a value")
	tests, err = readHerdLog("junk\nTest T Forbidden\nStates 2\n0:r0=0; x=y;\n0:r0=1; [x]=$undef; # note\nLoop No\nWitnesses\nPositive: 2 Negative: 0\nFlag f\nCondition ~exists (0:r0=2)\nObservation T Never 0 2\nTime T 0.01\nHash=ab\nAnything else\n\n")
	require.NoError(t, err)
	require.Equal(t, []*logTest{{Name: "T", Kind: "Forbidden", States: [][]string{{"0:r0=0", "x=y"}, {"0:r0=1", "[x]=$undef"}},
		Validation: "No", Loop: true, Pos: 2, HasWits: true, Cond: "~exists (0:r0=2)", Flags: []string{"f"}, Hash: "ab", Time: "0.01"}}, tests)
}
