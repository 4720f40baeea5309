package cli

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptxmm/ptxmm/gen"
)

// GenConfig is what ptxmm gen was asked to do.
type GenConfig struct {
	Request gen.Request
	// Dir is where the tests go, one NAME.litmus file each and an @all
	// file listing them (diy7's layout); "" prints them to stdout.
	Dir string
	// Name renames the test when there is exactly one.
	Name string
}

// Gen runs ptxmm gen and returns the exit status: 0 when tests were
// written, 2 on errors (a cycle that does not close, an unknown edge, a
// directory that cannot be written, no test at all).
func Gen(cfg GenConfig, stdout, stderr io.Writer) int {
	g, err := gen.Generate(cfg.Request)
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm gen:", err)
		return ExitError
	}
	if g.Rejected > 0 {
		fmt.Fprintf(stderr, "ptxmm gen: %d combination(s) of the alternatives form no cycle and were left out; the first: %v\n", g.Rejected, g.FirstRejection)
	}
	if g.Unplaced > 0 {
		fmt.Fprintf(stderr, "ptxmm gen: %d cycle(s) with synchronized edges were left out under a -placement other than gpu: %v\n", g.Unplaced, g.FirstUnplaced)
	}
	if len(g.Tests) == 0 && g.Unplaced > 0 {
		fmt.Fprintln(stderr, "ptxmm gen: no test: the cycles with synchronized edges place their threads themselves (use -placement gpu, the default)")
		return ExitError
	}
	if len(g.Tests) == 0 {
		fmt.Fprintln(stderr, "ptxmm gen: no test: no combination forms a cycle")
		return ExitError
	}
	if cfg.Name != "" {
		if len(g.Tests) != 1 {
			fmt.Fprintf(stderr, "ptxmm gen: -name %s names one test, but the request makes %d\n", cfg.Name, len(g.Tests))
			return ExitError
		}
		g.Tests[0].Name = cfg.Name
	}
	if cfg.Dir == "" {
		for i, t := range g.Tests {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprint(stdout, t.Litmus())
		}
		return ExitOK
	}
	if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
		fmt.Fprintln(stderr, "ptxmm gen:", err)
		return ExitError
	}
	var all strings.Builder
	for _, t := range g.Tests {
		file := t.Name + ".litmus"
		if err := os.WriteFile(filepath.Join(cfg.Dir, file), []byte(t.Litmus()), 0o644); err != nil {
			fmt.Fprintln(stderr, "ptxmm gen:", err)
			return ExitError
		}
		all.WriteString(file + "\n")
	}
	if err := os.WriteFile(filepath.Join(cfg.Dir, "@all"), []byte(all.String()), 0o644); err != nil {
		fmt.Fprintln(stderr, "ptxmm gen:", err)
		return ExitError
	}
	fmt.Fprintf(stdout, "Generator produced %d tests in %s\n", len(g.Tests), cfg.Dir)
	return ExitOK
}
