package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/synth"
)

// wantsSynth reports whether ptxmm diff was asked for -synth, which takes
// flags of its own.
func wantsSynth(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		name, _, _ := strings.Cut(strings.TrimLeft(a, "-"), "=")
		if strings.HasPrefix(a, "-") && name == "synth" {
			return a != "-synth=false" && a != "--synth=false"
		}
	}
	return false
}

// synthCommand is ptxmm diff -synth: the smallest tests that separate two
// models, found by search rather than read from files.
func synthCommand(args []string, out io.Writer) int {
	fs := flag.NewFlagSet("diff -synth", flag.ContinueOnError)
	fs.Bool("synth", true, "search for the tests that separate the models instead of reading tests")
	opts := checker.DefaultOptions()
	var models modelList
	fs.Var(&models, "model", "model `FILE` (.dl or .cat) to compare (give it twice; once compares with the embedded model)")
	mf := addModelFlags(fs)
	addLimitFlags(fs, &opts)
	events := fs.Int("events", 5, "most instructions (loads, stores, atomics, fences) of a test")
	threads := fs.Int("threads", 4, "most threads of a test")
	locations := fs.Int("locations", 3, "most memory locations of a test")
	vocab := fs.String("vocab", synth.DefaultFeatures, "comma-separated `FEATURES` the tests may use besides loads and stores; without -vocab, the default and the opt-in features that reach rules where the models differ, whose shapes are searched first (docs/generate.md): "+synth.FeatureHelp())
	scopes := fs.String("scopes", "gpu", "comma-separated `SCOPES` of strong operations: cta, cluster, gpu, sys (each thread runs in a CTA of its own on one GPU; with cta, threads may also share a CTA; with cluster, CTAs a cluster; with sys, threads run on several GPUs)")
	budget := fs.Duration("budget", 0, "time the whole search may take (0: no limit); the tests found by then are printed")
	explain := fs.Bool("explain", false, "show, for each test, the execution one model allows and the checks with which the other forbids it")
	dir := fs.String("o", "", "write each test to `DIR`/NAME.litmus and list them in DIR/@all")
	workers := fs.Int("j", runtime.GOMAXPROCS(0), "shapes searched in parallel (at least 1); below the CPUs, also the Go runtime's processors (GOMAXPROCS, unless set)")
	addQuietFlag(fs)
	fs.Usage = func() {
		fmt.Fprintf(fs.Output(), `Usage: ptxmm diff -synth -model A.dl [-model B.dl] [-events N] [-o DIR]

Searches for the smallest litmus tests on which two models disagree: every
shape of program up to -events instructions, -threads threads and
-locations locations (each once up to renaming), the weakest memory orders
and scopes that separate the models, one test per outcome they disagree
on, whose condition pins every register and final value; each test is
checked with both models. Smallest first. docs/generate.md explains the
search and what it assumes. Exit status: 0 no test separates the models, 1
some do, 2 errors, 130 interrupted.

Flags:
`)
		fs.PrintDefaults()
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return flagFailure(err)
	}
	applyMemoryLimit(opts.MaxMemory)
	if err := errors.Join(checkLimitFlags(opts), checkSynthBounds(*events, *threads, *locations, *workers, *budget)); err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm diff -synth:", err)
		return cli.ExitError
	}
	applyWorkers(*workers)
	if len(pos) > 0 {
		fmt.Fprintf(os.Stderr, "ptxmm diff -synth: unexpected argument %q: -synth searches for tests instead of reading them\n", pos[0])
		return cli.ExitError
	}
	if len(models) == 0 || len(models) > 2 {
		fmt.Fprintln(os.Stderr, "ptxmm diff -synth: give -model once (compared with the embedded model) or twice")
		return cli.ExitError
	}
	v, err := synth.ParseVocabulary(*vocab, *scopes)
	if err != nil {
		fmt.Fprintln(os.Stderr, "ptxmm diff -synth:", err)
		return cli.ExitError
	}
	names, loaded, err := models.load(mf)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return cli.ExitError
	}
	so := synth.Options{A: loaded[0], B: loaded[1], Vocabulary: v, Check: opts, Workers: *workers,
		Bounds: synth.Bounds{Events: *events, Threads: *threads, Locations: *locations}}
	if !flagGiven(fs, "vocab") {
		// The default extended by the opt-in parts that reach where the
		// models differ, whose shapes are searched first (docs/generate.md).
		so = synth.Derive(so)
		if added := so.First; len(added) > 0 && !quiet(fs) {
			fmt.Fprintf(os.Stderr, "ptxmm diff -synth: vocabulary %s: the default and %s, which reach rules where the models differ (-vocab sets the vocabulary)\n",
				synth.DefaultFeatures+","+strings.Join(added, ","), strings.Join(added, ", "))
		}
	}
	ctx, stop := interruptContext()
	defer stop()
	cfg := cli.SynthConfig{
		Options: so,
		NameA:   names[0], NameB: names[1], Budget: *budget, Context: ctx, Explain: *explain, Dir: *dir,
		Terminal: stderrTerminal(), Quiet: quiet(fs),
	}
	return cli.Synth(cfg, out, os.Stderr)
}

// checkSynthBounds rejects bounds that cannot mean anything.
func checkSynthBounds(events, threads, locations, workers int, budget time.Duration) error {
	switch {
	case events < 1:
		return fmt.Errorf("-events %d: a test has at least one instruction", events)
	case threads < 1:
		return fmt.Errorf("-threads %d: a test has at least one thread", threads)
	case threads > 16:
		return fmt.Errorf("-threads %d: at most 16 threads", threads)
	case locations < 1:
		return fmt.Errorf("-locations %d: a test has at least one location", locations)
	case locations > 8:
		return fmt.Errorf("-locations %d: at most 8 locations", locations)
	case events > 16:
		return fmt.Errorf("-events %d: at most 16 instructions", events)
	case budget < 0:
		return fmt.Errorf("-budget %s: the time budget is at least 0 (0: no limit)", budget)
	}
	return checkWorkers(workers)
}

// flagGiven reports whether the command line set the flag.
func flagGiven(fs *flag.FlagSet, name string) bool {
	given := false
	fs.Visit(func(f *flag.Flag) {
		if f.Name == name {
			given = true
		}
	})
	return given
}
