package herdlog

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// block prints a small test block.
func block(name, kind, hash, validation string, states ...string) string {
	s := fmt.Sprintf("Test %s %s\nStates %d\n", name, kind, len(states))
	for _, st := range states {
		s += st + "\n"
	}
	return s + validation + "\nWitnesses\nPositive: 1 Negative: 0\nCondition exists (x=1)\nTime " + name + " 0.01\nHash=" + hash + "\n\n"
}

func mustRead(t *testing.T, name, text string) *Log {
	t.Helper()
	l, err := Read(name, []byte(text))
	require.NoError(t, err)
	return l
}

func names(entries []*Entry) []string {
	var out []string
	for _, e := range entries {
		out = append(out, e.Name+"@"+e.Pos())
	}
	return out
}

func TestMerge(t *testing.T) {
	a := mustRead(t, "a.log", block("MP", "Allowed", "h1", "Ok", "x=1;")+block("SB", "Allowed", "h2", "Ok", "x=1;")+"Error E: timeout\n\n")
	b := mustRead(t, "b.log", block("CoRR", "Allowed", "h3", "Ok", "x=1;")+
		block("MP", "Allowed", "h1", "Ok", "x=1;")+ // the same results: a duplicate
		block("SB", "Allowed", "h2", "No", "x=0;")+ // other results: a conflict
		block("SB", "Forbidden", "h2", "Ok", "x=1;")+ // another condition: another test
		block("E", "Allowed", "h4", "Ok", "x=1;")) // checked here, an error in a.log
	m := Merge([]*Log{a, b})
	assert.Equal(t, []string{"CoRR@b.log:1", "E@b.log:41", "MP@a.log:1", "SB@a.log:11", "SB@b.log:31"}, names(m.Entries),
		"sorted by name, then hash, kind and condition; the first of each test kept")
	require.Len(t, m.Duplicates, 1)
	assert.Equal(t, "MP@b.log:11", m.Duplicates[0].Again.Name+"@"+m.Duplicates[0].Again.Pos())
	require.Len(t, m.Conflicts, 2)
	assert.Equal(t, "E", m.Conflicts[0].First.Name)
	assert.Equal(t, []string{"a.log:21 says error: timeout, b.log:41 says Ok (Positive: 1 Negative: 0)"}, m.Conflicts[0].Differences)
	assert.Equal(t, []string{"Ok (Positive: 1 Negative: 0) vs No (Positive: 1 Negative: 0)",
		"states: 1 only in the first, 1 only in the second (such as x=1;)"}, m.Conflicts[1].Differences)
	require.Len(t, m.Clashes, 1)
	assert.Equal(t, []string{"SB@a.log:11", "SB@b.log:31"}, names(m.Clashes[0]))
	assert.Empty(t, m.ShardProblems)
	assert.Equal(t, "5 tests: 5 Ok", m.Totals().String())

	// The merged log reads back to the same entries, and merges with
	// itself into itself.
	var out bytes.Buffer
	require.NoError(t, m.WriteLog(&out))
	again := mustRead(t, "merged.log", out.String())
	require.Len(t, again.Entries, len(m.Entries))
	for i, e := range again.Entries {
		assert.Empty(t, e.Differences(m.Entries[i]), e.Name)
		assert.Equal(t, m.Entries[i].Text, e.Text)
	}
	var twice bytes.Buffer
	require.NoError(t, Merge([]*Log{again}).WriteLog(&twice))
	assert.Equal(t, out.String(), twice.String())
}

func TestMergeErrorsOnly(t *testing.T) {
	a := mustRead(t, "a.log", "Error E: timeout\n\nError E: timeout\n\nError E: out of memory\n")
	m := Merge([]*Log{a})
	assert.Equal(t, []string{"E@a.log:1"}, names(m.Entries))
	assert.Len(t, m.Duplicates, 1)
	require.Len(t, m.Conflicts, 1)
	assert.Equal(t, []string{`error "timeout" vs "out of memory"`}, m.Conflicts[0].Differences)
	assert.Equal(t, "0 tests; 1 error", m.Totals().String())
}

// TestMergeShards: every shard of a run once, each log whole.
func TestMergeShards(t *testing.T) {
	header := func(i, n, taken, total, logged int) string {
		return Shard{Index: i, Count: n, Plan: "ab", Taken: taken, Total: total, Logged: logged}.Header() + "\n"
	}
	s0 := header(0, 3, 2, 5, 2) + block("A", "Allowed", "1", "Ok") + block("D", "Allowed", "4", "Ok")
	s1 := header(1, 3, 2, 5, 1) + block("B", "Allowed", "2", "Ok") // one file could not be read
	s2 := header(2, 3, 1, 5, 1) + block("C", "Allowed", "3", "Ok")
	cut := header(2, 3, 1, 5, 1)
	cases := []struct {
		name     string
		logs     []string
		problems []string
		plans    []Plan
	}{
		{"all", []string{s0, s1, s2}, nil, []Plan{{"ab", 3, 3}}},
		{"pasted together", []string{s0 + s1 + s2}, nil, []Plan{{"ab", 3, 3}}},
		{"missing", []string{s0, s2}, []string{"plan ab: no log holds shard(s) 1 of 3"}, []Plan{{"ab", 3, 2}}},
		{"twice", []string{s0, s1, s2, s1}, []string{"shard 1/3 of plan ab is given 2 times: log1:1, log3:1"}, []Plan{{"ab", 3, 3}}},
		{"cut short", []string{s0, s1, cut}, []string{"log2:1: shard 2/3 of plan ab holds 0 tests where its header announces 1: the log was cut short or mixed with another"}, []Plan{{"ab", 3, 3}}},
		{"split otherwise", []string{s0, s1, s2, header(0, 2, 3, 5, 0)}, []string{"log3:1: plan ab is split into 2 shards of 5 tests here, into 3 of 5 at log0:1"}, []Plan{{"ab", 3, 3}}},
		{"tests lost", []string{s0, s1, header(2, 3, 0, 5, 0)}, []string{"plan ab: its 3 shards took 4 tests, but the run has 5"}, []Plan{{"ab", 3, 3}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var logs []*Log
			for i, text := range c.logs {
				logs = append(logs, mustRead(t, fmt.Sprintf("log%d", i), text))
			}
			m := Merge(logs)
			assert.Equal(t, c.problems, m.ShardProblems)
			assert.Equal(t, c.plans, m.Plans)
		})
	}
}

func TestGaps(t *testing.T) {
	cases := []struct {
		present []int
		n       int
		want    string
	}{
		{nil, 1, "0"},
		{[]int{0}, 1, ""},
		{[]int{0, 2}, 10, "1, 3-9"},
		{[]int{5}, 75555555, "0-4, 6-75555554"},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, gaps(c.present, c.n), "%v of %d", c.present, c.n)
	}
}
