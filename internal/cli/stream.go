package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/report"
)

// stream prints the results of a run as they come: each test's block as
// soon as it and every test before it are done, so that the log is in the
// order of the tests, and the same bytes, whatever order the workers
// finish in. A run that is interrupted (Ctrl-C, SIGTERM: the context of
// CheckConfig) stops starting tests, stops those running, prints those
// finished and names the others.
type stream struct {
	cfg    CheckConfig
	items  []*item
	stdout io.Writer
	stderr io.Writer
	ctx    context.Context
	cancel context.CancelFunc
	start  time.Time
	status *statusLine
	// summary counts what was printed, for the summary line.
	summary report.Summary
	// unfinished lists the tests an interruption left unchecked.
	unfinished []*item
}

func newStream(cfg CheckConfig, items []*item, stdout, stderr io.Writer) *stream {
	parent := cfg.Context
	if parent == nil {
		parent = context.Background()
	}
	s := &stream{cfg: cfg, items: items, stdout: stdout, stderr: stderr, start: time.Now()}
	s.ctx, s.cancel = context.WithCancel(parent)
	if cfg.Terminal != nil && !cfg.Quiet {
		s.status = newStatusLine(stderr, cfg.Terminal.Width, len(items), s.start)
	}
	return s
}

// run checks the items on workers with check, printing each result in
// order as soon as it can, and returns the exit status of what it printed
// and the results, in order.
func (s *stream) run(check func(ctx context.Context, it *item, o checker.Options), opts checker.Options, workers int) (int, []*checker.Result) {
	defer s.cancel()
	done := make([]chan struct{}, len(s.items))
	for i := range done {
		done[i] = make(chan struct{})
	}
	go parallelOn(opts.Cores, len(s.items), workers, func(i int) {
		it := s.items[i]
		defer close(done[i])
		if it.test == nil {
			return
		}
		if s.ctx.Err() != nil {
			it.skipped = true
			return
		}
		o := opts
		o.Progress = &it.candidates
		o.Spent = it.parsed
		check(s.ctx, it, o)
	})
	if s.status != nil {
		s.status.begin()
		defer s.status.end()
	}
	status := ExitOK
	var results []*checker.Result
	// One block is written at a time, and a writer keeps nothing it is
	// given: the buffers serve every item.
	var out, errs bytes.Buffer
	for i, it := range s.items {
		if s.status != nil {
			s.status.waitingFor(i, it)
		}
		<-done[i]
		if s.unfinishedItem(it) {
			s.unfinished = append(s.unfinished, it)
			continue
		}
		out.Reset()
		errs.Reset()
		if st := s.render(it, &out, &errs); st != ExitOK {
			status = st
		}
		if it.res != nil && it.err == nil {
			results = append(results, it.res)
		}
		if err := s.emit(out.Bytes(), errs.Bytes()); err != nil {
			// The output is lost (a closed pipe, a full disk): stop
			// checking what no one will read; WithCheckedOutput says why.
			return ExitError, results
		}
		if status == ExitError && s.cfg.StopOnError {
			// herd7's -exit true: the run ends at the first failure.
			fmt.Fprintf(s.stderr, "ptxmm: -exit true: the run stops at %s, which could not be checked\n", it.file)
			return status, results
		}
	}
	return status, results
}

// unfinishedItem reports whether an interruption kept the item from being
// checked to the end: never started, or stopped while running.
func (s *stream) unfinishedItem(it *item) bool {
	if it.skipped {
		return true
	}
	if s.cfg.Context == nil || s.cfg.Context.Err() == nil || it.res == nil || it.res.Err == nil {
		return false
	}
	return errors.Is(it.res.Err, context.Canceled)
}

// interrupted reports whether the run was cut short by its context.
func (s *stream) interrupted() bool {
	return s.cfg.Context != nil && s.cfg.Context.Err() != nil && len(s.unfinished) > 0
}

// render writes an item's block (stdout) and its messages (stderr) and
// returns the exit status they stand for.
func (s *stream) render(it *item, stdout, stderr io.Writer) int {
	status := ExitOK
	if it.err != nil && it.res != nil {
		// The test was checked, but its picture could not be made.
		status = ExitError
		fmt.Fprintln(stderr, "ptxmm:", it.err)
		it.err = nil
	}
	if it.err != nil {
		s.summary.AddError()
		if s.cfg.JSON {
			if err := report.ErrorJSON(stdout, it.file, it.err); err != nil {
				fmt.Fprintln(stderr, "ptxmm:", err)
			}
		}
		fmt.Fprintln(stderr, Quoted(it.err))
		return ExitError
	}
	s.summary.Add(it.res)
	if it.res.Err != nil {
		status = ExitError
		fmt.Fprintf(stderr, "ptxmm: %s: %v\n", it.test.Name, it.res.Err)
	}
	if s.cfg.JSON {
		if err := report.JSON(stdout, it.res); err != nil {
			fmt.Fprintln(stderr, "ptxmm:", err)
			return ExitError
		}
	} else {
		report.HerdLog(stdout, it.res, s.cfg.Log)
	}
	return status
}

// emit writes one item's output, with the progress line out of the way.
func (s *stream) emit(out, errs []byte) error {
	if s.status != nil {
		s.status.mu.Lock()
		defer s.status.mu.Unlock()
		s.status.clearLocked()
	}
	if len(errs) > 0 {
		s.stderr.Write(errs)
	}
	if len(out) > 0 {
		if _, err := s.stdout.Write(out); err != nil {
			return err
		}
	}
	if s.status != nil {
		s.status.done++
	}
	return nil
}

// reportUnfinished names on stderr the tests an interruption left
// unchecked, so that the partial log is not taken for the whole run.
func (s *stream) reportUnfinished() {
	const shown = 10
	var names []string
	for i, it := range s.unfinished {
		if i == shown {
			names = append(names, fmt.Sprintf("and %d more", len(s.unfinished)-shown))
			break
		}
		names = append(names, report.LogName(it.test))
	}
	fmt.Fprintf(s.stderr, "ptxmm: interrupted after %s: %d of %d tests were not finished and are not in the log: %s\n",
		elapsed(time.Since(s.start)), len(s.unfinished), len(s.items), strings.Join(names, ", "))
}

// summarize prints the summary line on a terminal.
func (s *stream) summarize() {
	if s.cfg.Terminal == nil {
		return
	}
	fmt.Fprintf(s.stderr, "ptxmm: %s in %s\n", s.summary.String(), elapsed(time.Since(s.start)))
}

// elapsed prints a duration for people: 0.4 s, 12.3 s, 4 min 05 s.
func elapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%d min %02d s", int(d.Minutes()), int(d.Seconds())%60)
}
