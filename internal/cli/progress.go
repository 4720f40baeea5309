package cli

import (
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ptxmm/ptxmm/report"
)

// Terminal describes a standard error that is a terminal.
type Terminal struct {
	// Width is its width in columns (0: unknown, taken as 80): the
	// progress line is cut to fit, since a line that wraps cannot be
	// redrawn in place.
	Width int
}

// statusRefresh is how often the progress line is redrawn; it first
// appears after one period, so that a quick run never shows it.
const statusRefresh = 200 * time.Millisecond

// statusLine keeps one line on a terminal's standard error saying how far
// a run is: the tests done of the total, the test the log waits for, its
// candidate executions so far, and the time elapsed. The line is erased
// before anything else is written to the terminal (stream.emit holds mu)
// and when the run ends.
type statusLine struct {
	mu    sync.Mutex
	w     io.Writer
	width int
	total int
	start time.Time
	// done counts the tests printed; current is the one the log waits
	// for, index its place.
	done    int
	current *item
	index   int
	shown   bool
	stop    chan struct{}
	stopped chan struct{}
}

func newStatusLine(w io.Writer, width, total int, start time.Time) *statusLine {
	if width <= 0 {
		width = 80
	}
	return &statusLine{w: w, width: width, total: total, start: start}
}

// begin starts redrawing the line.
func (l *statusLine) begin() {
	l.stop, l.stopped = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(l.stopped)
		tick := time.NewTicker(statusRefresh)
		defer tick.Stop()
		for {
			select {
			case <-l.stop:
				return
			case <-tick.C:
				l.draw()
			}
		}
	}()
}

// end stops redrawing and erases the line.
func (l *statusLine) end() {
	close(l.stop)
	<-l.stopped
	l.mu.Lock()
	defer l.mu.Unlock()
	l.clearLocked()
}

// waitingFor records the test the log waits for.
func (l *statusLine) waitingFor(index int, it *item) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.index, l.current = index, it
}

// draw redraws the line.
func (l *statusLine) draw() {
	l.mu.Lock()
	defer l.mu.Unlock()
	text := fmt.Sprintf("%d of %d tests done, %s", l.done, l.total, elapsed(time.Since(l.start)))
	if it := l.current; it != nil && it.test != nil {
		text += fmt.Sprintf("; checking %s (%d candidates)", report.LogName(it.test), it.candidates.Load())
	}
	text = fitWidth(text, l.width-1)
	// \r goes back to the start of the line, \x1b[K erases the rest of it.
	fmt.Fprintf(l.w, "\r%s\x1b[K", text)
	l.shown = true
}

// clearLocked erases the line if it is shown; l.mu is held.
func (l *statusLine) clearLocked() {
	if l.shown {
		fmt.Fprint(l.w, "\r\x1b[K")
		l.shown = false
	}
}

// fitWidth cuts text to at most n characters, marking the cut.
func fitWidth(text string, n int) string {
	r := []rune(text)
	if n < 4 || len(r) <= n {
		return text
	}
	return string(r[:n-3]) + "..."
}
