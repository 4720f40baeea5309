package herdlog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/internal/lazyregexp"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/source"
)

// The lexer's regular definitions, as line patterns.
const (
	reTestName = `[a-zA-Z0-9_/.\-+\[\]:]+`
	reName     = `[a-zA-Z_.$][a-zA-Z0-9_.]*`
	reBlank    = `[ \t]`
)

var (
	testLine      = lazyregexp.New(`^Test` + reBlank + `+(` + reTestName + `)(?:` + reBlank + `+(` + reName + `))?$`)
	errorLine     = lazyregexp.New(`^Error (` + reTestName + `): (.*)$`)
	statesLine    = lazyregexp.New(`^States(?:` + reBlank + `+([0-9]+))?$`)
	histogramLine = lazyregexp.New(`^Histogram(?:` + reBlank + `+\(([0-9]+)` + reBlank + `+states` + reBlank + `*\))?$`)
	fatalLine     = lazyregexp.New(`^Fatal[: ]`)
	validLine     = lazyregexp.New(`^(Loop` + reBlank + `+)?(Undef|Succeeded|Failed|Ok|No|\?\?)`)
	countPrefix   = lazyregexp.New(`^([0-9]+)` + reBlank + `*(?::>|\*>)`)
	witnessesLine = lazyregexp.New(`^Witnesses` + reBlank + `*$`)
	countsLine    = lazyregexp.New(`^Positive:` + reBlank + `*([0-9]+),?` + reBlank + `*Negative:` + reBlank + `*([0-9]+)` + reBlank + `*$`)
	conditionLine = lazyregexp.New(`^Condition` + reBlank + `+([^\r]+)$`)
	validatedTail = lazyregexp.New(reBlank + `+is.*validated`)
	hashLine      = lazyregexp.New(`^[hH][aA][sS][hH]` + reBlank + `*=` + reBlank + `*([^ \t]+)` + reBlank + `*$`)
	timeLine      = lazyregexp.New(`^Time` + reBlank + `+` + reTestName + reBlank + `+([0-9]+\.[0-9]+)` + reBlank + `*$`)
	topologyLine  = lazyregexp.New(`^Topology` + reBlank + `+[0-9]+` + reBlank + `*:>` + reBlank + `*[^ \t]+` + reBlank + `*$`)
	keyValueLine  = lazyregexp.New(`^[a-zA-Z]+` + reBlank + `*=`)
	keyNameLine   = lazyregexp.New(`^[a-zA-Z]+` + reBlank + `+` + reTestName + reBlank + `+`)
)

// isBlank tells a line of blanks (herd's blank* nl).
func isBlank(line string) bool { return strings.Trim(line, " \t") == "" }

// matchTest matches a Test line; the prefix test spares the regular
// expression most lines.
func matchTest(line string) []string {
	if !strings.HasPrefix(line, "Test") {
		return nil
	}
	return testLine().FindStringSubmatch(line)
}

// matchError matches ptxmm's Error line.
func matchError(line string) []string {
	if !strings.HasPrefix(line, "Error ") {
		return nil
	}
	return errorLine().FindStringSubmatch(line)
}

// kinds are the kinds herd's lexer accepts on a Test line; any other
// stops it.
var kinds = map[string]bool{
	"": true, "Allow": true, "Allowed": true, "Require": true, "Required": true,
	"Forbid": true, "Forbidden": true, "Unknown": true, "Undefined": true,
}

// ReadFile reads the herd log in path.
func ReadFile(path string) (*Log, error) {
	data, err := limits.LogFile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read log: %w", err)
	}
	return Read(path, data)
}

// Read reads data, a herd log, naming it file in errors. An error is a
// source.List with the position and the offending line.
func Read(file string, data []byte) (*Log, error) {
	r := &reader{file: file, text: string(data), log: &Log{File: file}}
	r.split()
	err := r.read()
	if err == nil {
		err = r.recognized()
	}
	if err != nil {
		var errs source.List
		errs = append(errs, err)
		return nil, errs
	}
	return r.log, nil
}

// recognized refuses a log with text but no test and no shard header:
// herd's lexer passes over lines it does not know, so a file that is no
// herd log (a shard's standard error given by mistake, a binary) would
// otherwise merge silently as no tests at all. A log of blank lines only
// reads as an empty log.
func (r *reader) recognized() *source.Error {
	if len(r.log.Entries) > 0 || len(r.log.Sections) > 0 {
		return nil
	}
	for i := range r.lines {
		if !isBlank(r.line(i)) {
			return r.errAt(i, 1, "not a herd log: none of its lines is a \"Test NAME\" line, an \"Error NAME:\" line or a ptxmm shard header")
		}
	}
	return nil
}

// reader walks a log line by line, as herd's lexer does.
type reader struct {
	file  string
	text  string
	lines []span // each line without its end ("\n" or "\r\n")
	i     int    // the current line
	log   *Log
}

type span struct{ start, end int }

func (r *reader) split() {
	start := 0
	for start < len(r.text) {
		end := strings.IndexByte(r.text[start:], '\n')
		next := start + end + 1
		if end < 0 {
			// A last line without a newline reads as if it had one.
			end, next = len(r.text)-start, len(r.text)
		}
		stop := start + end
		if stop > start && r.text[stop-1] == '\r' {
			stop--
		}
		r.lines = append(r.lines, span{start, stop})
		start = next
	}
}

func (r *reader) line(i int) string { return r.text[r.lines[i].start:r.lines[i].end] }

func (r *reader) done() bool { return r.i >= len(r.lines) }

// errAt is an error at column col (from 1) of line i.
func (r *reader) errAt(i, col int, format string, args ...any) *source.Error {
	e := &source.Error{Pos: source.Pos{File: r.file, Line: i + 1, Col: col}, Msg: fmt.Sprintf(format, args...)}
	if i < len(r.lines) {
		e.Line = r.line(i)
	}
	return e
}

// errEnd is an error at the end of the log, about the block starting at
// line start.
func (r *reader) errEnd(start int, what string) *source.Error {
	e := r.errAt(start, 1, "the log ends %s: it was cut short", what)
	return e
}

func (r *reader) read() *source.Error {
	for !r.done() {
		line := r.line(r.i)
		if m := matchTest(line); m != nil {
			e, err := r.test(m[1], m[2])
			if err != nil {
				return err
			}
			r.add(e)
			continue
		}
		if m := matchError(line); m != nil {
			start := r.i
			r.i++
			r.trailing()
			r.add(&Entry{Name: cleanName(m[1]), File: r.file, Line: start + 1, Err: m[2], Text: r.textFrom(start)})
			continue
		}
		if s, ok, err := parseShardLine(line); ok {
			if err != nil {
				return r.errAt(r.i, 1, "%v", err)
			}
			r.log.Sections = append(r.log.Sections, &Section{Shard: s, Line: r.i + 1})
		}
		if err := r.stray(line); err != nil {
			return err
		}
		r.i++
	}
	return nil
}

// stray refuses a line outside any block that belongs to one: a garbled
// Test line, or a States line whose Test line is missing. Herd's lexer
// passes over both and so loses the test without a word; a merge must
// not. Other lines outside blocks (notes, a comparison's report) are
// passed over as herd's lexer does.
func (r *reader) stray(line string) *source.Error {
	switch {
	case strings.HasPrefix(line, "Test ") || strings.HasPrefix(line, "Test\t"):
		return r.errAt(r.i, 1, "a garbled Test line: expected \"Test NAME\" or \"Test NAME KIND\", the name of letters, digits and _/.-+[]:, and nothing after the kind")
	case statesLine().MatchString(line) || histogramLine().MatchString(line):
		return r.errAt(r.i, 1, "a States line outside any test: the Test line before it is missing or garbled")
	}
	return nil
}

func (r *reader) add(e *Entry) {
	r.log.Entries = append(r.log.Entries, e)
	if n := len(r.log.Sections); n > 0 {
		r.log.Sections[n-1].Entries++
	}
}

// cleanName drops a .litmus suffix from a test name, as herd's tools do.
func cleanName(n string) string { return strings.TrimSuffix(n, ".litmus") }

// textFrom is the text of the lines from start to the line before the
// current one, less the blank lines at its end.
func (r *reader) textFrom(start int) string {
	last := r.i - 1
	for last > start && isBlank(r.line(last)) {
		last--
	}
	return r.text[r.lines[start].start:r.lines[last].end]
}

// trailing passes the lines after a block's hash lines that belong to it
// (ptxmm's own lines): up to a blank line, the next entry or shard header,
// or the end.
func (r *reader) trailing() {
	for !r.done() {
		line := r.line(r.i)
		if isBlank(line) || startsEntry(line) {
			return
		}
		r.i++
	}
}

// test reads the block whose Test line is the current line.
func (r *reader) test(name, kind string) (*Entry, *source.Error) {
	start := r.i
	e := &Entry{Name: cleanName(name), File: r.file, Line: start + 1, Kind: kind}
	if !kinds[kind] {
		col := strings.LastIndex(r.line(start), kind) + 1
		return nil, r.errAt(start, col, "unknown kind %q (herd's log tools stop at it): expected Allowed, Forbidden, Required, Unknown or none", kind)
	}
	r.i++
	// The lines up to States are skipped; a Fatal line drops the test.
	declared, statesAt := "", 0
	for {
		if r.done() {
			return nil, r.errEnd(start, "before the States line of test "+e.Name)
		}
		line := r.line(r.i)
		m := statesLine().FindStringSubmatch(line)
		if m == nil {
			m = histogramLine().FindStringSubmatch(line)
		}
		if m != nil {
			declared = m[1]
			statesAt = r.i
			r.i++
			break
		}
		if startsEntry(line) {
			return nil, r.errAt(start, 1, "test %s has no States line: the next entry starts on line %d", e.Name, r.i+1)
		}
		if fatalLine().MatchString(line) {
			e.Err = line
			r.i++
			r.trailing()
			e.Text = r.textFrom(start)
			return e, nil
		}
		r.i++
	}
	if err := r.states(start, e); err != nil {
		return nil, err
	}
	if declared != "" {
		if n, err := strconv.Atoi(declared); err != nil || n != len(e.States) {
			return nil, r.errAt(statesAt, 1, "%s says %s state(s), but %d state line(s) follow: the block is garbled", strings.TrimSpace(r.line(statesAt)), declared, len(e.States))
		}
	}
	if err := r.witnesses(start, e); err != nil {
		return nil, err
	}
	r.condition(e)
	r.skipBlank()
	if r.hashLines(e) {
		// ptxmm's own lines follow the hash lines it always prints.
		r.trailing()
	} else {
		e.open = true
	}
	e.Text = r.textFrom(start)
	return e, nil
}

// states reads the state lines and the validation line.
func (r *reader) states(start int, e *Entry) *source.Error {
	for {
		if r.done() {
			return r.errEnd(start, "before the validation line (Ok, No, ...) of test "+e.Name)
		}
		line := r.line(r.i)
		if m := validLine().FindStringSubmatch(line); m != nil {
			e.Loop, e.Validation = m[1] != "", m[2]
			r.i++
			return nil
		}
		if isBlank(line) {
			// An empty line is a state with no bindings only first.
			if len(e.States) == 0 {
				e.States = append(e.States, State{Count: 1})
			}
			r.i++
			continue
		}
		st := State{Count: 1}
		col := 0
		if m := countPrefix().FindStringSubmatch(line); m != nil {
			n, err := strconv.ParseInt(m[1], 10, 64)
			if err != nil {
				return r.errAt(r.i, 1, "the count %s is out of range", m[1])
			}
			st.Count = n
			col = len(m[0])
		}
		if err := parseStateLine(line, col, &st); err != nil {
			return r.errAt(r.i, err.col+1, "%s", err.msg)
		}
		e.States = append(e.States, st)
		r.i++
	}
}

// witnesses reads "Witnesses" and its counts, after blank lines.
func (r *reader) witnesses(start int, e *Entry) *source.Error {
	r.skipBlank()
	if r.done() || !witnessesLine().MatchString(r.line(r.i)) {
		return nil
	}
	r.i++
	if r.done() {
		return r.errEnd(start, "after the Witnesses line of test "+e.Name)
	}
	m := countsLine().FindStringSubmatch(r.line(r.i))
	if m == nil {
		return r.errAt(r.i, 1, "expected \"Positive: N Negative: M\" after Witnesses")
	}
	var err error
	if e.Positive, err = strconv.ParseInt(m[1], 10, 64); err != nil {
		return r.errAt(r.i, 1, "the count %s is out of range", m[1])
	}
	if e.Negative, err = strconv.ParseInt(m[2], 10, 64); err != nil {
		return r.errAt(r.i, 1, "the count %s is out of range", m[2])
	}
	e.HasWitnesses = true
	r.i++
	return nil
}

// condition reads the Flag lines and the Condition line.
func (r *reader) condition(e *Entry) {
	for !r.done() {
		line := r.line(r.i)
		switch {
		case isBlank(line), strings.HasPrefix(line, "Bad executions"):
		case strings.HasPrefix(line, "Flag "):
			e.Flags = append(e.Flags, strings.TrimPrefix(line, "Flag "))
		default:
			if m := conditionLine().FindStringSubmatch(line); m != nil {
				c := m[1]
				if loc := validatedTail().FindStringIndex(c); loc != nil {
					c = c[:loc[0]]
				}
				e.Condition = c
				r.i++
			}
			return
		}
		r.i++
	}
}

// hashLines reads Hash, Time and the other "Key ..." lines, and tells
// whether there was one. Where there is none, herd's lexer reads the next
// non-blank line as one if it can: even "Test NAME KIND", which then
// starts no test (WriteLog keeps that from happening).
func (r *reader) hashLines(e *Entry) bool {
	start := r.i
	for !r.done() {
		line := r.line(r.i)
		if startsEntry(line) || !isKeyLine(line) && !(strings.HasPrefix(line, "Topology") && topologyLine().MatchString(line)) {
			break
		}
		if m := hashLine().FindStringSubmatch(line); m != nil {
			e.Hash = m[1]
		} else if m := timeLine().FindStringSubmatch(line); strings.HasPrefix(line, "Time") && m != nil {
			e.Time = m[1]
		}
		r.i++
	}
	return r.i > start
}

// startsEntry tells a line that starts an entry or a section: a Test line
// (garbled ones too, which the main loop then refuses), an Error line or
// a shard header. Herd's lexer reads a Test line after a block without
// hash lines as one of them, losing that test; ptxmm reads a test.
func startsEntry(line string) bool {
	return strings.HasPrefix(line, "Test ") || strings.HasPrefix(line, "Test\t") || matchError(line) != nil || isShardLine(line)
}

// isKeyLine tells the lines herd's lexer passes over among the hash lines:
// "key = ..." and "key NAME ..." (alpha+ blank* '=', or alpha+ blank+
// testname blank+), which include Hash and Time lines. It is the regular
// expressions keyValueLine and keyNameLine, by hand: ptxmm merge reads
// every line after a hash with it.
func isKeyLine(line string) bool {
	i := 0
	for i < len(line) && isAlpha(line[i]) {
		i++
	}
	if i == 0 {
		return false
	}
	j := i
	for j < len(line) && isBlankByte(line[j]) {
		j++
	}
	if j < len(line) && line[j] == '=' {
		return true
	}
	if j == i {
		return false
	}
	k := j
	for k < len(line) && isTestNameByte(line[k]) {
		k++
	}
	return k > j && k < len(line) && isBlankByte(line[k])
}

func isBlankByte(c byte) bool { return c == ' ' || c == '\t' }

// isTestNameByte: herd's testname is (alpha | digit | _ / . - + [ ] :)+.
func isTestNameByte(c byte) bool {
	return isAlpha(c) || isDigit(c) || strings.IndexByte("_/.-+[]:", c) >= 0
}

func (r *reader) skipBlank() {
	for !r.done() && isBlank(r.line(r.i)) {
		r.i++
	}
}
