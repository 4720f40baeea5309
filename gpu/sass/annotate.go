package sass

import (
	"fmt"
	"io"
	"sort"
)

// Annotate writes the machine code of each function, sorted by name, one
// instruction a line with its offset and, where the listing showed the
// encodings, its control bits (Control.String): the wait before an
// instruction and the scoreboards it releases are what order a warp's
// memory operations.
func Annotate(w io.Writer, code map[string][]Instr) error {
	var names []string
	for n := range code {
		names = append(names, n)
	}
	sort.Strings(names)
	for i, n := range names {
		if i > 0 {
			if _, err := fmt.Fprintln(w); err != nil {
				return err
			}
		}
		if _, err := fmt.Fprintf(w, "Function %s\n", n); err != nil {
			return err
		}
		for _, ins := range code[n] {
			ctl := "-"
			if ins.HasControl {
				ctl = ins.Control.String()
			}
			if _, err := fmt.Fprintf(w, "%04x  %-19s  %s\n", ins.Addr, ctl, ins.Text); err != nil {
				return err
			}
		}
	}
	return nil
}
