package report

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/ptxmm/ptxmm/herdlog"
)

// MergeTable prints merged logs as a verdict table, one test per row,
// sorted as the merged log is, then the totals:
//
//	Test        Kind      Result  Positive  Negative  Notes
//	Atomicity1  Required  Ok      2         0
//	MP          Allowed   No      0         3
//	...
//
//	93 tests: 47 Ok, 40 No, 6 Undef; 0 duplicates, 0 conflicts
//
// Notes lists the flags a test raised; a test that could not be checked
// has Error as its result and the message there.
func MergeTable(w io.Writer, m *herdlog.Merged) error {
	var rows bytes.Buffer
	tw := tabwriter.NewWriter(&rows, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Test\tKind\tResult\tPositive\tNegative\tNotes")
	for _, e := range m.Entries {
		if e.Err != "" {
			fmt.Fprintf(tw, "%s\t%s\tError\t-\t-\t%s\n", e.Name, dash(e.Kind), e.Err)
			continue
		}
		result := e.Validation
		if e.Loop {
			result = "Loop " + result
		}
		pos, neg := "-", "-"
		if e.HasWitnesses {
			pos, neg = fmt.Sprint(e.Positive), fmt.Sprint(e.Negative)
		}
		notes := ""
		if len(e.Flags) > 0 {
			notes = "Flag " + strings.Join(e.Flags, ", ")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Name, dash(e.Kind), result, pos, neg, notes)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// The rows without notes end in the padding of the last column.
	var b strings.Builder
	for _, line := range strings.SplitAfter(rows.String(), "\n") {
		b.WriteString(strings.TrimRight(line, " \n"))
		if strings.HasSuffix(line, "\n") {
			b.WriteByte('\n')
		}
	}
	_, err := fmt.Fprintf(w, "%s\n%s\n", b.String(), MergeSummary(m))
	return err
}

// MergeSummary says in one line what a merge gave: the totals, the
// duplicates and conflicts, and the logs it read.
func MergeSummary(m *herdlog.Merged) string {
	s := fmt.Sprintf("%s; %s, %s; from %s", m.Totals(), plural(len(m.Duplicates), "duplicate"),
		plural(len(m.Conflicts), "conflict"), plural(m.Logs, "log"))
	for _, p := range m.Plans {
		if p.Present == p.Count {
			s += fmt.Sprintf(" (all %d shards of plan %s)", p.Count, p.Plan)
		} else {
			s += fmt.Sprintf(" (%d of the %d shards of plan %s)", p.Present, p.Count, p.Plan)
		}
	}
	return s
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
