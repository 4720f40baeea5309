package herdlog

import (
	"fmt"
	"sort"
	"strings"
)

// Log is one herd log as read.
type Log struct {
	// File is the name the log was read under, for messages.
	File string
	// Entries are the tests of the log, in log order.
	Entries []*Entry
	// Sections are the shard headers the log holds, in log order, with the
	// entries that follow each; a log printed by one shard has one, a log
	// of several shards pasted together one per shard, other logs none.
	Sections []*Section
}

// Section is the part of a log that follows a shard header.
type Section struct {
	Shard Shard
	// Line is the header's line.
	Line int
	// Entries counts the entries between this header and the next one.
	Entries int
}

// Entry is one test of a log: a test block, or ptxmm's "Error NAME:
// message" line for a test that could not be checked (Err is then set and
// the fields about results are empty).
type Entry struct {
	// Name is the test's name as herd's tools read it (without a .litmus
	// suffix).
	Name string
	// File and Line locate the entry's first line.
	File string
	Line int
	// Err is the message of an Error line, or of the Fatal line that
	// stopped herd on the test.
	Err string

	Kind       string // Allowed, Forbidden, Required, ... or ""
	States     []State
	Validation string // Ok, No, Undef, Succeeded, Failed, ??
	Loop       bool
	// HasWitnesses tells whether the block has the Witnesses lines.
	HasWitnesses       bool
	Positive, Negative int64
	Condition          string // without herd's "is (not) validated"
	Flags              []string
	Hash               string
	Time               string // the seconds as written, or ""

	// Text is the entry's text in the log, from its first line to its last,
	// with ptxmm's own lines after the hash lines: what a merged log
	// prints for it.
	Text string

	// order is the entry's place among all the entries a merge reads.
	order int
	// open tells that the block ends without hash lines, where herd's
	// lexer would take the next test's line for one.
	open bool
}

// State is one final state: its bindings "loc=value" in a canonical
// order, the faults it lists, and how many times a run observed it (1 in
// a log of a model; a count in logs of runs on hardware and msum7's).
type State struct {
	Count    int64
	Bindings []string
	Faults   []string
}

// String prints the state as herd logs do, bindings and faults in their
// canonical order.
func (s State) String() string {
	var b strings.Builder
	for i, x := range append(append([]string(nil), s.Bindings...), s.Faults...) {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(x)
		b.WriteByte(';')
	}
	return b.String()
}

// Pos prints where the entry is: file:line.
func (e *Entry) Pos() string { return fmt.Sprintf("%s:%d", e.File, e.Line) }

// Result prints what the entry says about its test, for messages: the
// validation, with Loop, and the witnesses; or the error.
func (e *Entry) Result() string {
	if e.Err != "" {
		return "error: " + e.Err
	}
	v := e.Validation
	if e.Loop {
		v = "Loop " + v
	}
	if e.HasWitnesses {
		v += fmt.Sprintf(" (Positive: %d Negative: %d)", e.Positive, e.Negative)
	}
	return v
}

// Differences lists how two entries of one test disagree about its
// results, in words; the time and ptxmm's own lines are not results. The
// states are compared as sets.
func (e *Entry) Differences(o *Entry) []string {
	var out []string
	if (e.Err != "") != (o.Err != "") {
		return []string{fmt.Sprintf("%s says %s, %s says %s", e.Pos(), e.Result(), o.Pos(), o.Result())}
	}
	if e.Err != "" {
		if e.Err != o.Err {
			out = append(out, fmt.Sprintf("error %q vs %q", e.Err, o.Err))
		}
		return out
	}
	if e.Kind != o.Kind {
		out = append(out, fmt.Sprintf("kind %s vs %s", orNone(e.Kind), orNone(o.Kind)))
	}
	if e.Validation != o.Validation || e.Loop != o.Loop || e.HasWitnesses != o.HasWitnesses ||
		e.Positive != o.Positive || e.Negative != o.Negative {
		out = append(out, fmt.Sprintf("%s vs %s", e.Result(), o.Result()))
	}
	if only, other := stateDifference(e.States, o.States), stateDifference(o.States, e.States); len(only)+len(other) > 0 {
		out = append(out, fmt.Sprintf("states: %d only in the first, %d only in the second (such as %s)",
			len(only), len(other), firstOf(only, other)))
	}
	if e.Condition != o.Condition {
		out = append(out, fmt.Sprintf("condition %q vs %q", e.Condition, o.Condition))
	}
	if !sameSet(e.Flags, o.Flags) {
		out = append(out, fmt.Sprintf("flags [%s] vs [%s]", strings.Join(e.Flags, ", "), strings.Join(o.Flags, ", ")))
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

// stateDifference lists the states of a (with their counts) that b does
// not have.
func stateDifference(a, b []State) []string {
	in := map[string]bool{}
	for _, s := range b {
		in[stateKey(s)] = true
	}
	var out []string
	for _, s := range a {
		if !in[stateKey(s)] {
			out = append(out, s.String())
		}
	}
	return out
}

func stateKey(s State) string { return fmt.Sprintf("%d:%s", s.Count, s.String()) }

func firstOf(a, b []string) string {
	if len(a) > 0 {
		return a[0]
	}
	return b[0]
}

func sameSet(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	x := append([]string(nil), a...)
	y := append([]string(nil), b...)
	sort.Strings(x)
	sort.Strings(y)
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}
