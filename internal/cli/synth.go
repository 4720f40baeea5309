package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ptxmm/ptxmm/report"
	"github.com/ptxmm/ptxmm/synth"
)

// SynthConfig is what ptxmm diff -synth was asked to do.
type SynthConfig struct {
	Options      synth.Options
	NameA, NameB string
	// Budget bounds the whole search (0: none); Context stops it early
	// (an interrupt).
	Budget  time.Duration
	Context context.Context
	// Explain adds each test's candidate execution and the failed checks
	// of the model that forbids it, with their witnesses.
	Explain bool
	// Dir, when set, receives each test as NAME.litmus, and @all.
	Dir string
	// Terminal, when set, is standard error's terminal, for the progress
	// line (not with Quiet).
	Terminal *Terminal
	Quiet    bool
}

// Synth runs ptxmm diff -synth and returns the exit status: 0 when no
// test separates the models up to the bounds, 1 when some do, 2 on errors
// (a check that hit a limit, a directory that cannot be written, a test
// the checker does not confirm).
func Synth(cfg SynthConfig, stdout, stderr io.Writer) int {
	ctx := cfg.Context
	if ctx == nil {
		ctx = context.Background()
	}
	if cfg.Budget > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, cfg.Budget)
		defer cancel()
	}
	if cfg.Dir != "" {
		if err := os.MkdirAll(cfg.Dir, 0o755); err != nil {
			fmt.Fprintln(stderr, "ptxmm diff -synth:", err)
			return ExitError
		}
	}
	var progress *synthProgress
	if cfg.Terminal != nil && !cfg.Quiet {
		progress = &synthProgress{w: stderr, width: cfg.Terminal.Width}
		cfg.Options.Progress = progress.update
	}
	var mu sync.Mutex
	var files []string
	writeErr := error(nil)
	cfg.Options.Found = func(size int, tests []*synth.Found) {
		mu.Lock()
		defer mu.Unlock()
		progress.clear()
		for _, f := range tests {
			printFound(stdout, f, cfg)
			if cfg.Dir != "" && writeErr == nil {
				file := f.Test.Name + ".litmus"
				writeErr = os.WriteFile(filepath.Join(cfg.Dir, file), []byte(f.Test.Litmus()), 0o644)
				files = append(files, file)
			}
		}
	}
	rep := synth.Search(ctx, cfg.Options)
	progress.clear()
	status := ExitOK
	if len(rep.Tests) > 0 {
		status = ExitMismatch
	}
	if cfg.Dir != "" && writeErr == nil {
		writeErr = os.WriteFile(filepath.Join(cfg.Dir, "@all"), []byte(strings.Join(append(files, ""), "\n")), 0o644)
	}
	if writeErr != nil {
		fmt.Fprintln(stderr, "ptxmm diff -synth:", writeErr)
		status = ExitError
	}
	fmt.Fprintln(stdout, summary(rep, cfg))
	for _, m := range rep.NotMonotone {
		fmt.Fprintf(stderr, "ptxmm diff -synth: warning: %s allowed an outcome under stronger memory orders or scopes than one under which it forbade it; the search assumes a model never does, so it may have missed tests (docs/generate.md)\n", m)
	}
	if rep.ThinAir > 0 {
		fmt.Fprintf(stderr, "ptxmm diff -synth: on %d program(s) the models disagree about executions whose values come out of thin air; such an execution has no final state, so no test exhibits it\n", rep.ThinAir)
	}
	if rep.Undefined > 0 {
		fmt.Fprintf(stderr, "ptxmm diff -synth: %d test(s) pin an outcome the models disagree on but are undefined under both (a consistent execution raises an .undefined check, such as async_copy_race), so their verdicts do not separate the models; they are left out\n", rep.Undefined)
	}
	for _, t := range rep.Unconfirmed {
		fmt.Fprintf(stderr, "ptxmm diff -synth: internal error: the search found this test separating, but checking it does not confirm it:\n%s", t.Litmus())
		status = ExitError
	}
	if rep.Err != nil {
		fmt.Fprintf(stderr, "ptxmm diff -synth: %s\n", Quoted(rep.Err))
		status = ExitError
	}
	if rep.Stopped != nil {
		why := "interrupted"
		if cfg.Budget > 0 && ctx.Err() == context.DeadlineExceeded {
			why = fmt.Sprintf("the time budget of %s ran out (-budget)", cfg.Budget)
		}
		fmt.Fprintf(stderr, "ptxmm diff -synth: stopped: %s; tests of up to %d instructions were searched completely\n", why, rep.Complete)
		if why == "interrupted" {
			return ExitInterrupted
		}
	}
	return status
}

// printFound prints one test: its text, and the models' verdicts or, with
// Explain, ptxmm diff's account of the outcome.
func printFound(w io.Writer, f *synth.Found, cfg SynthConfig) {
	fmt.Fprint(w, f.Test.Litmus())
	d := f.Diff
	if cfg.Explain {
		report.Diff(w, d, cfg.NameA, cfg.NameB)
		return
	}
	fmt.Fprintf(w, "  verdict: %s %s, %s %s\n\n", cfg.NameA, d.A.Verdict, cfg.NameB, d.B.Verdict)
}

// summary is the last line of a search.
func summary(rep *synth.Report, cfg SynthConfig) string {
	return fmt.Sprintf("%d separating tests of up to %d instructions between %s and %s (%d shapes, %d with a cycle through every access, %d programs checked)",
		len(rep.Tests), rep.Complete, cfg.NameA, cfg.NameB, rep.Skeletons, rep.Critical, rep.Programs)
}

// synthProgress keeps a line on a terminal's standard error saying how
// far the search is.
type synthProgress struct {
	mu    sync.Mutex
	w     io.Writer
	width int
	last  time.Time
	shown bool
}

func (p *synthProgress) update(pr synth.Progress) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if time.Since(p.last) < statusRefresh {
		return
	}
	p.last = time.Now()
	width := p.width
	if width <= 0 {
		width = 80
	}
	more := ""
	if pr.Listing {
		more = "+"
	}
	text := fmt.Sprintf("%d instructions: %d of %d%s shapes, %d programs checked, %d tests found, %s",
		pr.Size, pr.Done, pr.Total, more, pr.Programs, pr.Found, elapsed(pr.Elapsed))
	fmt.Fprintf(p.w, "\r%s\x1b[K", fitWidth(text, width-1))
	p.shown = true
}

// clear erases the line.
func (p *synthProgress) clear() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}
