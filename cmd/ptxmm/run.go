package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/cuda"
	"github.com/ptxmm/ptxmm/gpu/harness"
	"github.com/ptxmm/ptxmm/gpu/sass"
	"github.com/ptxmm/ptxmm/internal/cli"
)

func runRun(args []string) int {
	return cli.WithCheckedOutput(os.Stdout, os.Stderr, func(out io.Writer) int {
		return runCommand(args, out, os.Stderr, func(path string) (gpu.Driver, error) { return cuda.Open(path) })
	})
}

// runFlags are the flags of ptxmm run that set the parameters; they are
// applied over the preset's values, so only the flags given change them.
type runFlags struct {
	fs  *flag.FlagSet
	par harness.Params
}

func addRunFlags(fs *flag.FlagSet) *runFlags {
	r := &runFlags{fs: fs}
	p := &r.par
	fs.String("preset", "pte", "parameter set: "+strings.Join(harness.PresetNames(), ", ")+" (the other flags change it; docs/hardware.md)")
	fs.Uint64Var(&p.Seed, "seed", 0, "seed of the run's random choices (0: drawn from the clock, and printed in the log)")
	fs.IntVar(&p.Iterations, "iterations", 0, "launches of each test (litmus7's -r)")
	fs.IntVar(&p.CTAs, "ctas", 0, "testing CTAs per launch at most (default: twice the multiprocessors)")
	fs.IntVar(&p.Groups, "groups", 0, "instance groups per CTA: a group is one warp per thread of the test's CTA and holds 32 instances")
	fs.BoolVar(&p.RandomGrid, "random-grid", false, "draw each launch's testing CTAs between half and all of -ctas")
	fs.BoolVar(&p.Shuffle, "shuffle", false, "shuffle the CTA ids: which CTAs test, which stress, which test CTA each plays")
	fs.BoolVar(&p.PermuteThreads, "permute-threads", false, "place an instance's CTAs and lanes by permutations with random co-prime factors")
	fs.BoolVar(&p.PermuteLocations, "permute-locations", false, "scatter the instances' locations by a permutation with a random co-prime factor")
	fs.IntVar(&p.MemStride, "mem-stride", 0, "distance between location slots, in slots of the test's largest location (16 bytes or more)")
	fs.BoolVar(&p.Barrier, "barrier", false, "start every test thread of a launch together, at a spin barrier")
	fs.IntVar(&p.BarrierBound, "barrier-bound", 0, "iterations a thread waits at the start barrier at most")
	fs.IntVar(&p.StressCTAs, "stress-ctas", 0, "CTAs per launch that run no test but stress memory")
	fs.IntVar(&p.StressIterations, "stress-iterations", 0, "iterations of each stressing thread's pattern")
	fs.IntVar(&p.PreStress, "pre-stress", 0, "iterations of the stress pattern each test thread runs before the start barrier")
	fs.StringVar(&p.Pattern, "stress-pattern", "", "stress pattern: st-st, st-ld, ld-st, ld-ld, or random (drawn per launch)")
	fs.IntVar(&p.Lines, "stress-lines", 0, "scratch lines the stress accesses")
	fs.IntVar(&p.LineBytes, "stress-line-bytes", 0, "bytes between scratch lines (a multiple of 128)")
	fs.IntVar(&p.SpinBound, "spin-bound", 0, "iterations a test thread's loops may take in all; an instance that hits the bound is reported and not counted")
	fs.DurationVar(&p.Timeout, "launch-timeout", 0, "time one launch may take before the run stops")
	return r
}

// params applies the flags given over the preset.
func (r *runFlags) params(sms int) (harness.Params, error) {
	preset := r.fs.Lookup("preset").Value.String()
	p, err := harness.Preset(preset, sms)
	if err != nil {
		return p, err
	}
	set := map[string]bool{}
	r.fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	given := r.par
	apply := func(name string, f func()) {
		if set[name] {
			f()
		}
	}
	apply("seed", func() { p.Seed = given.Seed })
	apply("iterations", func() { p.Iterations = given.Iterations })
	apply("ctas", func() { p.CTAs = given.CTAs })
	apply("groups", func() { p.Groups = given.Groups })
	apply("random-grid", func() { p.RandomGrid = given.RandomGrid })
	apply("shuffle", func() { p.Shuffle = given.Shuffle })
	apply("permute-threads", func() { p.PermuteThreads = given.PermuteThreads })
	apply("permute-locations", func() { p.PermuteLocations = given.PermuteLocations })
	apply("mem-stride", func() { p.MemStride = given.MemStride })
	apply("barrier", func() { p.Barrier = given.Barrier })
	apply("barrier-bound", func() { p.BarrierBound = given.BarrierBound })
	apply("stress-ctas", func() { p.StressCTAs = given.StressCTAs })
	apply("stress-iterations", func() { p.StressIterations = given.StressIterations })
	apply("pre-stress", func() { p.PreStress = given.PreStress })
	apply("stress-pattern", func() { p.Pattern = given.Pattern })
	apply("stress-lines", func() { p.Lines = given.Lines })
	apply("stress-line-bytes", func() { p.LineBytes = given.LineBytes })
	apply("spin-bound", func() { p.SpinBound = given.SpinBound })
	apply("launch-timeout", func() { p.Timeout = given.Timeout })
	return p, p.Validate()
}

// runCommand is ptxmm run with the driver opened by open.
func runCommand(args []string, out, stderr io.Writer, open func(path string) (gpu.Driver, error)) int {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(stderr)
	opts := checker.DefaultOptions()
	model := fs.String("model", "", "model `FILE` (.dl, or a herd7 .cat model) to compare the GPU with instead of the embedded PTX model")
	mf := addModelFlags(fs)
	addLimitFlags(fs, &opts)
	jsonOut := fs.Bool("json", false, "print one JSON object per test instead of litmus7's log")
	useSASS := fs.Bool("sass", false, "check that the compiler kept each thread's memory operations and fences (needs cuobjdump or nvdisasm on the PATH)")
	driver := fs.String("driver", "", "`PATH` of libcuda.so.1 (default: $PTXMM_LIBCUDA, then the loader's search path and the usual driver folders)")
	skip := fs.Bool("skip-unsupported", false, "report the tests the device cannot run without failing the run")
	table := fs.String("table", "", "also write a Markdown table of the run's tests to `FILE` (the table of docs/hardware.md)")
	keep := fs.String("keep", "", "write each test's PTX module, the driver's machine code of it and, with cuobjdump or nvdisasm on the PATH, its listing with the control bits to folder `DIR`")
	rf := addRunFlags(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), "Usage: ptxmm run [flags] FILE|DIR|@LIST...\n\nRuns litmus tests on the GPU and compares what it does with the model (docs/hardware.md).\n\nFlags:\n")
		fs.PrintDefaults()
	}
	files, err := parseInterspersed(fs, args)
	if err != nil {
		return cli.ExitError
	}
	if err := checkLimitFlags(opts); err != nil {
		fmt.Fprintln(stderr, "ptxmm run:", err)
		return cli.ExitError
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "ptxmm run: no tests given: name .litmus or .test files, or directories")
		return cli.ExitError
	}
	if _, err := rf.params(1); err != nil {
		fmt.Fprintln(stderr, "ptxmm run:", err)
		return cli.ExitError
	}
	cmd := harness.Command{Files: files, JSON: *jsonOut, SkipUnsupported: *skip}
	if *useSASS {
		d, err := sass.FindDisassembler()
		if err != nil {
			fmt.Fprintln(stderr, "ptxmm run:", err)
			return cli.ExitError
		}
		cmd.SASS = &sass.Checker{Disassembler: d}
	}
	if *keep != "" {
		cmd.Keep = &harness.Keeper{Dir: *keep}
		if d, err := sass.FindDisassembler(); err == nil {
			cmd.Keep.Disassembler = &d
		} else {
			fmt.Fprintln(stderr, "ptxmm run: -keep: neither cuobjdump nor nvdisasm is on the PATH: the machine code is kept as cubins, without listings")
		}
	}
	applyMemoryLimit(opts.MaxMemory)
	m, err := mf.load(*model, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return cli.ExitError
	}
	cmd.Model, cmd.Options = m, opts
	drv, err := open(*driver)
	if err != nil {
		fmt.Fprintln(stderr, "ptxmm run:", err)
		if errors.Is(err, gpu.ErrNoDriver) {
			fmt.Fprintln(stderr, "ptxmm run needs an NVIDIA GPU and its driver; every other command works without them")
		}
		return cli.ExitError
	}
	defer drv.Close()
	if cmd.Params, err = rf.params(drv.Device().SMs); err != nil {
		fmt.Fprintln(stderr, "ptxmm run:", err)
		return cli.ExitError
	}
	if cmd.Params.Seed == 0 {
		cmd.Params.Seed = clockSeed()
	}
	if *table != "" {
		f, err := os.Create(*table)
		if err != nil {
			fmt.Fprintln(stderr, "ptxmm run:", err)
			return cli.ExitError
		}
		defer f.Close()
		cmd.Table = f
	}
	// SIGTERM (timeout's, a scheduler's) and SIGINT end the run after
	// the test running then, so that the logs and the table hold the
	// tests that ran.
	stop, done := make(chan struct{}), make(chan struct{})
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGTERM, os.Interrupt)
	defer func() {
		signal.Stop(sig)
		close(done)
	}()
	go func() {
		select {
		case <-sig:
			fmt.Fprintln(stderr, "ptxmm run: stopping after the test running now")
			close(stop)
		case <-done:
		}
	}()
	cmd.Stop = stop
	return harness.Main(cmd, drv, out, stderr)
}
