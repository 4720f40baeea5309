package litmus

import (
	"context"
	"fmt"
	"io/fs"
	"time"

	"github.com/ptxmm/ptxmm/limits"
)

// ParseBytesPerByte bounds the memory parsing a test takes per byte of its
// text: measured at about 220 bytes allocated per byte on tests of one
// thread of half a million stores and of 230,000 threads.
const ParseBytesPerByte = 256

// ParseLimits bound parsing one test file.
type ParseLimits struct {
	// Timeout bounds the time parsing takes (-timeout); 0 means none.
	Timeout time.Duration
	// MaxMemory bounds the memory parsing takes (-max-memory), estimated
	// before the file is read as ParseBytesPerByte times its size; 0
	// means no bound.
	MaxMemory int64
}

// ParseMemoryError refuses a file whose parse would take more memory than
// the limit.
type ParseMemoryError struct {
	File        string
	Size, Limit int64
}

func (e *ParseMemoryError) Error() string {
	return fmt.Sprintf("parsing %s (%s) would take about %s of memory, over the memory limit of %s; raise it with -max-memory",
		e.File, limits.FormatSize(e.Size), limits.FormatSize(e.Size*ParseBytesPerByte), limits.FormatSize(e.Limit))
}

// ParseTimeoutError reports a parse that took longer than its time limit.
type ParseTimeoutError struct{ Limit time.Duration }

func (e *ParseTimeoutError) Error() string {
	return fmt.Sprintf("parsing took longer than the time limit of %s; raise it with -timeout", e.Limit)
}

// ParseFileLimits is ParseFile within limits: a file too large for the
// memory limit is refused before it is read, and parsing stops soon after
// the time limit.
func ParseFileLimits(path string, lim ParseLimits) ([]*Test, error) {
	f, err := FormatForPath(path)
	if err != nil {
		return nil, err
	}
	var look func(fs.FileInfo) error
	if lim.MaxMemory > 0 {
		look = func(info fs.FileInfo) error {
			if info.Size()*ParseBytesPerByte > lim.MaxMemory {
				return &ParseMemoryError{File: path, Size: info.Size(), Limit: lim.MaxMemory}
			}
			return nil
		}
	}
	src, err := limits.TestFile.ReadFileLooked(path, look)
	if err != nil {
		return nil, err
	}
	// The time limit is a deadline the parse reads the clock against, not
	// a context with a timer: a suite of small tests would start and stop
	// a timer per file.
	stop := &parseStop{}
	if lim.Timeout > 0 {
		stop.limit, stop.deadline = lim.Timeout, time.Now().Add(lim.Timeout)
	}
	return parseStopping(path, src, f, stop)
}

// ParseContext is Parse under a context: parsing stops soon after ctx is
// done, with ctx's cause (or error), and what was read is dropped.
func ParseContext(ctx context.Context, file string, src []byte, f Format) ([]*Test, error) {
	return parseStopping(file, src, f, &parseStop{ctx: ctx})
}

// parseStopping parses until stop says to stop, then returns the reason.
func parseStopping(file string, src []byte, f Format, stop *parseStop) ([]*Test, error) {
	var tests []*Test
	var err error
	if f == FormatNV {
		tests, err = parseNVFile(file, src, stop)
	} else {
		var t *Test
		if t, err = parseHerdFile(file, src, stop); err == nil {
			tests = []*Test{t}
		}
	}
	if stop.done {
		return nil, stop.reason()
	}
	return tests, err
}

// parseStop ends a parse early once its context is done or its deadline
// has passed: the loops over tokens, rows, cells and statements ask it
// every step, and it looks at the context and the clock every 256 of
// them. A nil *parseStop never stops.
type parseStop struct {
	ctx context.Context // nil: no context
	// deadline, when not zero, ends the parse with a ParseTimeoutError
	// naming limit.
	deadline time.Time
	limit    time.Duration
	steps    int
	done     bool
}

// stopped reports whether the parse is to end now.
func (s *parseStop) stopped() bool {
	if s == nil {
		return false
	}
	if !s.done {
		s.steps++
		if s.steps&255 == 0 && s.expired() {
			s.done = true
		}
	}
	return s.done
}

// expired reports whether the context is done or the deadline passed.
func (s *parseStop) expired() bool {
	if s.ctx != nil && s.ctx.Err() != nil {
		return true
	}
	return !s.deadline.IsZero() && !time.Now().Before(s.deadline)
}

// reason is the error of a parse that stopped: the context's cause (or
// error), or the time limit.
func (s *parseStop) reason() error {
	if s.ctx != nil {
		if cause := context.Cause(s.ctx); cause != nil {
			return cause
		}
	}
	return &ParseTimeoutError{s.limit}
}
