package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/ptxmm/ptxmm/herdlog"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/report"
)

// MergeConfig is what ptxmm merge was asked to do.
type MergeConfig struct {
	// Logs are the herd logs to merge; "-" reads standard input.
	Logs []string
	// Table prints a verdict table and the totals instead of the merged
	// log.
	Table bool
	// Stdin is read for "-".
	Stdin io.Reader
}

// Merge runs ptxmm merge and returns the exit status: ExitOK when the
// logs merged into one whole, ExitMismatch (1) when tests conflict or
// shards are missing, given twice or cut short (the merged output is
// still printed) or a log is empty, ExitError (2) when a log cannot be
// read.
func Merge(cfg MergeConfig, stdout, stderr io.Writer) int {
	if len(cfg.Logs) == 0 {
		fmt.Fprintln(stderr, "ptxmm merge: no logs given: name the herd logs to merge (- for standard input)")
		return ExitError
	}
	var logs []*herdlog.Log
	status, empty := ExitOK, 0
	given := map[string]bool{}
	for k, path := range cfg.Logs {
		// A log given twice is named apart in the messages about it.
		name := path
		if given[path] {
			name = fmt.Sprintf("%s (argument %d)", path, k+1)
		}
		given[path] = true
		l, err := readLog(path, name, cfg.Stdin)
		if err != nil {
			fmt.Fprintln(stderr, Quoted(err))
			status = ExitError
			continue
		}
		if len(l.Entries) == 0 && len(l.Sections) == 0 {
			// Every log ptxmm check prints, a shard's with no test
			// too, holds something: an empty one is a task that
			// stopped before its first line, and what it was to
			// check is unknown.
			fmt.Fprintf(stderr, "ptxmm merge: %s is empty: no test and no shard header (a task that stopped before printing anything?)\n", l.File)
			empty++
		}
		logs = append(logs, l)
	}
	if status != ExitOK {
		return status
	}
	if empty > 0 {
		status = ExitMismatch
	}
	m := herdlog.Merge(logs)
	for _, d := range m.Duplicates {
		fmt.Fprintf(stderr, "ptxmm merge: duplicate: %s at %s, with the same results as at %s\n", d.Again.Name, d.Again.Pos(), d.First.Pos())
	}
	for _, c := range m.Conflicts {
		status = ExitMismatch
		fmt.Fprintf(stderr, "ptxmm merge: conflict: %s at %s disagrees with %s (kept): %s\n",
			c.Again.Name, c.Again.Pos(), c.First.Pos(), strings.Join(c.Differences, "; "))
	}
	for _, tests := range m.Clashes {
		var at []string
		for _, t := range tests {
			at = append(at, t.Pos())
		}
		fmt.Fprintf(stderr, "ptxmm merge: warning: %d different tests are named %s (%s); herd's log tools take them for one test\n",
			len(tests), tests[0].Name, strings.Join(at, ", "))
	}
	for _, p := range m.ShardProblems {
		status = ExitMismatch
		fmt.Fprintln(stderr, "ptxmm merge:", p)
	}
	var err error
	if cfg.Table {
		err = report.MergeTable(stdout, m)
	} else {
		err = m.WriteLog(stdout)
		fmt.Fprintln(stderr, "ptxmm merge:", report.MergeSummary(m))
	}
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm merge:", err)
		return ExitError
	}
	return status
}

// readLog reads a log from path, or from stdin for "-", naming it name in
// messages.
func readLog(path, name string, stdin io.Reader) (*herdlog.Log, error) {
	var data []byte
	var err error
	switch {
	case path != "-":
		data, err = limits.LogFile.ReadFile(path)
	case stdin == nil:
		return nil, fmt.Errorf("-: no standard input to read")
	default:
		name = strings.Replace(name, "-", "<stdin>", 1)
		data, err = limits.LogFile.ReadAll("<stdin>", stdin)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot read log: %w", err)
	}
	return herdlog.Read(name, data)
}
