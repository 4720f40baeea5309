package report

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/herdlog"
	"github.com/ptxmm/ptxmm/litmus"
)

// The logs ptxmm prints must read as herd's log lexer reads them
// (herdtools7, tools/lexLog_tools.mll, which mcompare7 and msum7 use),
// and give back what was checked: herdlog's reader follows that lexer.

// checkLog reads a log of results and checks it against them.
func checkLog(t *testing.T, log string, results []*checker.Result) {
	t.Helper()
	l, err := herdlog.Read("log", []byte(log))
	require.NoError(t, err)
	tests := l.Entries
	require.Len(t, tests, len(results), "every checked test is in the log")
	for k, lt := range tests {
		r := results[k]
		require.Equal(t, LogName(r.Test), lt.Name)
		if r.Err != nil {
			require.Equal(t, r.Err.Error(), lt.Err, lt.Name)
			continue
		}
		require.Empty(t, lt.Err, lt.Name)
		require.Regexp(t, `^[0-9a-f]{32}$`, lt.Hash, "%s has a hash (msum7 needs it)", lt.Name)
		require.Equal(t, litmus.Hash(r.Test), lt.Hash)
		require.Regexp(t, `^[0-9]+\.[0-9]{2}$`, lt.Time, lt.Name)
		require.Len(t, lt.States, len(r.States), "%s: every state line reads", lt.Name)
		for _, st := range lt.States {
			require.Len(t, st.Bindings, len(r.Observables), "%s: one binding per observable", lt.Name)
		}
		require.Equal(t, r.Cut > 0, lt.Loop, lt.Name)
		_, _, hasCond := Condition(r.Test)
		require.Equal(t, hasCond, lt.HasWitnesses, lt.Name)
		if c := r.Test.Condition; c != nil {
			require.Equal(t, r.Verdict, lt.Validation, lt.Name)
			kind := map[litmus.CondKind]string{litmus.CondExists: "Allowed", litmus.CondNotExists: "Forbidden", litmus.CondForall: "Required"}[c.Kind]
			require.Equal(t, kind, lt.Kind, lt.Name)
			pos, neg := r.Positive, r.Negative
			if c.Kind == litmus.CondNotExists {
				pos, neg = neg, pos
			}
			require.Equal(t, [2]int64{int64(pos), int64(neg)}, [2]int64{lt.Positive, lt.Negative}, lt.Name)
			require.True(t, strings.HasPrefix(lt.Condition, c.Kind.String()+" ("), lt.Condition)
		}
		flags := len(r.Flags)
		if r.Hangs > 0 {
			flags++ // Flag deadlock
		}
		require.Len(t, lt.Flags, flags, lt.Name)
		for _, st := range lt.States {
			for _, b := range st.Bindings {
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
