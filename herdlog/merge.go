package herdlog

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// Merged is the union of logs: one entry per test, and what the union
// found on the way.
type Merged struct {
	// Logs is the number of logs merged.
	Logs int
	// Entries holds one entry per test, sorted by name (byte order, as
	// herd's tools sort them), then by hash, kind and condition: the first
	// the logs give.
	Entries []*Entry
	// Duplicates are tests given again with the same results.
	Duplicates []Pair
	// Conflicts are tests given again with other results (or checked in
	// one log and an error in another): the first is kept.
	Conflicts []Pair
	// Clashes are names that several different tests (different hashes,
	// kinds or conditions) have; each is kept, and herd's tools take them
	// for one test.
	Clashes [][]*Entry
	// ShardProblems say what is wrong with the shards of the runs the logs
	// come from: a shard no log holds, a shard given twice, a log cut short.
	ShardProblems []string
	// Plans are the runs whose shards the logs hold, each with its count.
	Plans []Plan
}

// Pair is an entry given again (Again) after First.
type Pair struct {
	First, Again *Entry
	// Differences says how the results differ (for a conflict).
	Differences []string
}

// Plan is a run split into shards.
type Plan struct {
	Plan  string
	Count int
	// Present is how many of its shards the logs hold.
	Present int
}

// Merge unions logs: a test is identified by its name, its hash, its kind
// and its condition (the hash, herd's, digests the initial state, the code
// and the observed locations, not the condition: two files may differ only
// there); the same test in two logs is a duplicate when their results
// agree and a conflict when they do not.
func Merge(logs []*Log) *Merged {
	m := &Merged{Logs: len(logs)}
	byName := map[string][]*Entry{}
	var names []string
	order := 0
	for _, l := range logs {
		for _, e := range l.Entries {
			e.order = order
			order++
			if _, ok := byName[e.Name]; !ok {
				names = append(names, e.Name)
			}
			byName[e.Name] = append(byName[e.Name], e)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		m.mergeName(byName[name])
	}
	m.checkShards(logs)
	return m
}

// mergeName unions the entries of one name, in the order given.
func (m *Merged) mergeName(entries []*Entry) {
	byIdentity := map[string]*Entry{}
	var tests []*Entry
	var firstErr *Entry
	for _, e := range entries {
		if e.Err != "" {
			if firstErr == nil {
				firstErr = e
				continue
			}
			m.pair(firstErr, e)
			continue
		}
		if first, ok := byIdentity[e.identity()]; ok {
			m.pair(first, e)
			continue
		}
		byIdentity[e.identity()] = e
		tests = append(tests, e)
	}
	sort.SliceStable(tests, func(a, b int) bool { return tests[a].identity() < tests[b].identity() })
	if len(tests) > 1 {
		m.Clashes = append(m.Clashes, tests)
	}
	if firstErr == nil {
		m.Entries = append(m.Entries, tests...)
		return
	}
	if len(tests) == 0 {
		m.Entries = append(m.Entries, firstErr)
		return
	}
	// Checked in one log, an error in another: the results are kept, and
	// the error is a conflict with them.
	m.Entries = append(m.Entries, tests...)
	for _, t := range tests {
		first, again := t, firstErr
		if entryBefore(firstErr, t) {
			first, again = firstErr, t
		}
		m.Conflicts = append(m.Conflicts, Pair{First: first, Again: again, Differences: first.Differences(again)})
	}
}

// identity tells tests of one name apart.
func (e *Entry) identity() string { return e.Hash + "\x00" + e.Kind + "\x00" + e.Condition }

// entryBefore orders entries by where they were read: an entry read from
// a log given earlier comes first; within one log, by line. Logs are not
// compared by name: the order of the arguments counts, which pair
// records.
func entryBefore(a, b *Entry) bool { return a.order < b.order }

// pair records e given again after first.
func (m *Merged) pair(first, e *Entry) {
	d := first.Differences(e)
	if len(d) == 0 {
		m.Duplicates = append(m.Duplicates, Pair{First: first, Again: e})
		return
	}
	m.Conflicts = append(m.Conflicts, Pair{First: first, Again: e, Differences: d})
}

// checkShards checks that every shard of every run the logs come from is
// there once, with all the tests its header announces.
func (m *Merged) checkShards(logs []*Log) {
	type where struct {
		log *Log
		sec *Section
	}
	byPlan := map[string][]where{}
	var plans []string
	for _, l := range logs {
		for _, s := range l.Sections {
			if s.Entries != s.Shard.Logged {
				m.ShardProblems = append(m.ShardProblems, fmt.Sprintf("%s:%d: %s holds %d tests where its header announces %d: the log was cut short or mixed with another",
					l.File, s.Line, s.Shard.Name(), s.Entries, s.Shard.Logged))
			}
			if _, ok := byPlan[s.Shard.Plan]; !ok {
				plans = append(plans, s.Shard.Plan)
			}
			byPlan[s.Shard.Plan] = append(byPlan[s.Shard.Plan], where{l, s})
		}
	}
	for _, plan := range plans {
		secs := byPlan[plan]
		first := secs[0].sec.Shard
		at := map[int][]string{}
		taken := 0
		for _, w := range secs {
			s := w.sec.Shard
			pos := fmt.Sprintf("%s:%d", w.log.File, w.sec.Line)
			if s.Count != first.Count || s.Total != first.Total {
				m.ShardProblems = append(m.ShardProblems, fmt.Sprintf("%s: plan %s is split into %d shards of %d tests here, into %d of %d at %s:%d",
					pos, plan, s.Count, s.Total, first.Count, first.Total, secs[0].log.File, secs[0].sec.Line))
				continue
			}
			if len(at[s.Index]) == 0 {
				taken += s.Taken
			}
			at[s.Index] = append(at[s.Index], pos)
		}
		var present []int
		for i := range at {
			present = append(present, i)
		}
		sort.Ints(present)
		for _, i := range present {
			if n := len(at[i]); n > 1 {
				m.ShardProblems = append(m.ShardProblems, fmt.Sprintf("shard %d/%d of plan %s is given %d times: %s",
					i, first.Count, plan, n, strings.Join(at[i], ", ")))
			}
		}
		if missing := gaps(present, first.Count); missing != "" {
			m.ShardProblems = append(m.ShardProblems, fmt.Sprintf("plan %s: no log holds shard(s) %s of %d",
				plan, missing, first.Count))
		} else if taken != first.Total {
			m.ShardProblems = append(m.ShardProblems, fmt.Sprintf("plan %s: its %d shards took %d tests, but the run has %d",
				plan, first.Count, taken, first.Total))
		}
		m.Plans = append(m.Plans, Plan{Plan: plan, Count: first.Count, Present: len(at)})
	}
}

// gaps lists the numbers from 0 to n-1 that present (sorted) lacks, as
// ranges: "1, 3-9".
func gaps(present []int, n int) string {
	var out []string
	next := 0
	add := func(lo, hi int) {
		switch {
		case lo > hi:
		case lo == hi:
			out = append(out, fmt.Sprint(lo))
		default:
			out = append(out, fmt.Sprintf("%d-%d", lo, hi))
		}
	}
	for _, i := range present {
		add(next, i-1)
		next = i + 1
	}
	add(next, n-1)
	return strings.Join(out, ", ")
}

// WriteLog prints the merged log: each entry's text, a blank line after
// each, so that it reads as a herd log (merged again, or by msum7). A
// block without hash lines (not one of ptxmm's or herd7's, which always
// print Hash) is closed by a comment line, which herd's lexer skips, so
// that it does not read the next Test line as one of the block's.
func (m *Merged) WriteLog(w io.Writer) error {
	for _, e := range m.Entries {
		// A last line ending in a carriage return ("x\r\r\n" in the log)
		// keeps it when it ends with "\r\n", which readers take as one
		// newline.
		nl := "\n"
		if strings.HasSuffix(e.Text, "\r") {
			nl = "\r\n"
		}
		text := e.Text + nl + "\n"
		if e.open {
			text += "# end of test " + e.Name + "\n\n"
		}
		if _, err := io.WriteString(w, text); err != nil {
			return err
		}
	}
	return nil
}

// Totals counts the merged tests.
type Totals struct {
	Tests int
	// Validations counts the tests by their validation line (Ok, No, ...).
	Validations map[string]int
	// Loop counts the tests whose runs the unrolling bound cut.
	Loop int
	// Errors counts the tests that could not be checked.
	Errors int
}

// Totals counts the merged tests.
func (m *Merged) Totals() Totals {
	t := Totals{Validations: map[string]int{}}
	for _, e := range m.Entries {
		if e.Err != "" {
			t.Errors++
			continue
		}
		t.Tests++
		t.Validations[e.Validation]++
		if e.Loop {
			t.Loop++
		}
	}
	return t
}

// String prints the totals: "93 tests: 60 Ok, 30 No, 3 Undef (2 with
// Loop); 1 error".
func (t Totals) String() string {
	var parts []string
	for _, v := range []string{"Ok", "No", "Undef", "Succeeded", "Failed", "??"} {
		if n := t.Validations[v]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, v))
		}
	}
	s := fmt.Sprintf("%d tests", t.Tests)
	if len(parts) > 0 {
		s += ": " + strings.Join(parts, ", ")
	}
	if t.Loop > 0 {
		s += fmt.Sprintf(" (%d with Loop)", t.Loop)
	}
	switch t.Errors {
	case 0:
	case 1:
		s += "; 1 error"
	default:
		s += fmt.Sprintf("; %d errors", t.Errors)
	}
	return s
}
