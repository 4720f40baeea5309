package repl

import (
	"bufio"
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptxmm/ptxmm/checker"
)

// FuzzLines runs fuzzed REPL lines over MP with the embedded model:
// whatever a line says (a command, a query, a rule, a check), the session
// answers or reports an error, within its time and memory limits, and
// never panics. Seeds are below and in testdata/fuzz/FuzzLines.
func FuzzLines(f *testing.F) {
	for _, lines := range []string{
		":execs\n:exec 3\n:checks",
		":show po\n:why fr(e7, e2)",
		"?- po(X, Y), rf(Y, Z).",
		"late(X) :- W(X), !IW(X).\n?- late(X).",
		"let hb = po | rf\n.check acyclic(hb) as hb_acyclic\n:execs",
		":find P1:%r0 == 1\n:events\n:relations",
		"?- E(A), E(B), E(C), E(D), A != B.",
		":test ../examples/SB+fence.sc.litmus\n:next\n:prev",
	} {
		f.Add(lines)
	}
	// One session is built (in every fuzzing process) and copied for each
	// input: building it compiles spec.dl and checks MP, most of the time
	// of an input otherwise.
	base, err := New(ModelSource{Path: filepath.Join("..", "spec.dl")}, checker.DefaultOptions())
	if err != nil {
		f.Fatal(err)
	}
	if err := base.LoadTest(filepath.Join("..", "examples", "MP.litmus"), 0); err != nil {
		f.Fatal(err)
	}
	// Tight limits for the lines, so that each input takes little.
	base.opts.Timeout = 50 * time.Millisecond
	base.opts.MaxMemory = 32 << 20
	base.opts.MaxCandidates = 500
	f.Fuzz(func(t *testing.T, lines string) {
		s := *base
		s.inst, s.filled = nil, -1
		var out bytes.Buffer
		// A line over the scanner's bound is an error, as the REPL's
		// documentation says: not a crash. No other error ends a script.
		if err := RunScript(&s, strings.NewReader(lines), &out); err != nil && !errors.Is(err, bufio.ErrTooLong) {
			t.Fatalf("the script stopped: %v", err)
		}
		// Whatever a line holds, the answer is safe to print on a
		// terminal: a control character of the input is escaped.
		if i := strings.IndexFunc(out.String(), isControl); i >= 0 {
			t.Fatalf("the output holds control character %q: %q", out.String()[i], out.String())
		}
	})
}

// isControl reports whether r is a control character other than tab and
// newline, which a terminal may act on (source.Escape's set).
func isControl(r rune) bool {
	return r < 0x20 && r != '\t' && r != '\n' || r == 0x7f || r >= 0x80 && r < 0xa0 ||
		r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x2028 || r == 0x2029
}
