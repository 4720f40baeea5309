package cli

import (
	"fmt"
	"io"

	"github.com/ptxmm/ptxmm/report"
)

// warnDuplicateNames warns about two tests of the run with the same name
// in herd logs: herd's log tools take them for one test (and refuse a log
// whose two tests of one name have different kinds).
func warnDuplicateNames(items []*item, stderr io.Writer) {
	first := map[string]string{}
	warned := map[string]bool{}
	for _, it := range items {
		if it.test == nil {
			continue
		}
		name := report.LogName(it.test)
		prev, ok := first[name]
		if !ok {
			first[name] = it.file
			continue
		}
		if warned[name] {
			continue
		}
		warned[name] = true
		if prev == it.file {
			fmt.Fprintf(stderr, "ptxmm: warning: test %s is given twice (%s); herd's log tools take the two for one test\n", name, prev)
		} else {
			fmt.Fprintf(stderr, "ptxmm: warning: tests in %s and %s are both named %s; herd's log tools take them for one test\n", prev, it.file, name)
		}
	}
}
