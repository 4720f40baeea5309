package harness

import (
	"errors"
	"fmt"
	"io"

	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

// Exit statuses of ptxmm run.
const (
	ExitOK    = 0 // every test ran, and the GPU showed nothing the model forbids
	ExitAlarm = 1 // the GPU showed a state the model forbids
	ExitError = 2 // bad input, no driver, a test refused or that failed to run
)

// Command is what ptxmm run was asked to do.
type Command struct {
	Config
	Files []string
	JSON  bool
	// SkipUnsupported reports the tests the device cannot run without
	// failing the run.
	SkipUnsupported bool
	// Table, when set, receives the Markdown table of the run (Table).
	Table io.Writer
	// Stop, when it closes, ends the run after the test running then (a
	// signal, a time limit): the tests not run are named, and the table
	// holds those that ran.
	Stop <-chan struct{}
}

// stopped reports whether the command was told to stop.
func (cmd Command) stopped() bool {
	select {
	case <-cmd.Stop:
		return true
	default:
		return false
	}
}

// Main runs the command's tests on the driver's device, prints their
// logs on stdout and returns the exit status.
func Main(cmd Command, drv gpu.Driver, stdout, stderr io.Writer) int {
	files, err := cli.CollectTests(cmd.Files, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm run:", err)
		return ExitError
	}
	status := ExitOK
	var outs []*Outcome
	defer func() {
		if cmd.Table != nil {
			Table(cmd.Table, outs)
		}
	}()
	fail := func(s int) {
		if status == ExitOK || s == ExitError {
			status = s
		}
	}
	// skip says why the remaining tests are not run, "" while they are.
	skip := ""
	for _, file := range files {
		if skip == "" && cmd.stopped() {
			skip = "the run was told to stop (by a signal or a time limit)"
			fail(ExitError)
		}
		if skip != "" {
			fmt.Fprintf(stderr, "ptxmm run: %s not run: %s\n", file, skip)
			fail(ExitError)
			continue
		}
		tests, err := litmus.ParseFile(file)
		if err != nil {
			fmt.Fprintln(stderr, cli.Quoted(err))
			if cmd.JSON {
				if err := report.ErrorJSON(stdout, file, err); err != nil {
					fmt.Fprintln(stderr, "ptxmm run:", err)
				}
			}
			fail(ExitError)
			continue
		}
		if len(tests) > 0 && len(tests[0].Warnings) > 0 {
			fmt.Fprintln(stderr, tests[0].Warnings.Quoted())
		}
		for _, t := range tests {
			if skip == "" && cmd.stopped() {
				skip = "the run was told to stop (by a signal or a time limit)"
				fail(ExitError)
			}
			if skip != "" {
				fmt.Fprintf(stderr, "ptxmm run: %s not run: %s\n", t.Name, skip)
				continue
			}
			o := Run(drv, t, cmd.Config)
			outs = append(outs, o)
			var werr error
			if cmd.JSON {
				werr = JSON(stdout, o)
			} else {
				Log(stdout, o)
			}
			if werr != nil {
				fmt.Fprintln(stderr, "ptxmm run:", werr)
				return ExitError
			}
			switch {
			case o.Refused != nil:
				fmt.Fprintf(stderr, "ptxmm run: %s cannot run on this device (%s, %s):\n%s\n", t.Name, o.Device.Name, o.Device.Arch(), cli.Quoted(o.Refused))
				if !cmd.SkipUnsupported {
					fail(ExitError)
				}
			case o.Err != nil:
				fmt.Fprintf(stderr, "ptxmm run: %s: %v\n", t.Name, o.Err)
				fail(ExitError)
				if errors.Is(o.Err, gpu.ErrContextLost) {
					skip = "the GPU could not be used after " + t.Name + "'s failure; the remaining tests are not run (run them again in another process)"
				}
			case len(o.Alarms()) > 0:
				fmt.Fprintf(stderr, "ptxmm run: %s: the GPU showed %d state(s) the model forbids\n", t.Name, len(o.Alarms()))
				fail(ExitAlarm)
			}
		}
	}
	return status
}
