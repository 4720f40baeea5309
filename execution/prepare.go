package execution

import (
	"context"
	"sort"

	"github.com/ptxmm/ptxmm/litmus"
)

// Options bound the enumeration.
type Options struct {
	// Unroll is how many times a run may take a backward branch (per
	// thread) before it is cut.
	Unroll int
	// MaxRuns bounds the runs of one thread (-max-runs).
	MaxRuns int
	// SpinReduction leaves out failed spin-loop iterations (see
	// explorer.jump). It is sound for models whose checks can only lose
	// violations when events are removed (rules.Program.EventMonotone).
	SpinReduction bool
	// MaxSteps bounds the instructions one run executes
	// (-max-instructions); 0 means DefaultMaxSteps.
	MaxSteps int
	// MaxBytes bounds the memory the runs of the test take (-max-memory);
	// 0 means no bound.
	MaxBytes int64
	// PlainSpins makes Spinning runs of awaits that poll plain memory,
	// whose polls must then read writes no write follows in the model's
	// coherence order (Execution.LatestReads); without it only awaits
	// that poll mbarriers spin.
	PlainSpins bool
	// Probes keeps, with SpinReduction, the runs that go round an await
	// after a failed iteration, up to the unrolling bound, as probes
	// (Analysis.Probes): the reduction keeps states and verdicts, but the
	// flags a failed iteration raises may be raised nowhere else.
	// ProbeDepth, when positive, bounds the failed iterations of a probe
	// run (the flags of a model may need no more: FlagPersists).
	Probes     bool
	ProbeDepth int
}

// DefaultMaxSteps is the default bound on the instructions of one run.
const DefaultMaxSteps = 100_000

// DefaultOptions are the bounds the command line starts from.
func DefaultOptions() Options {
	return Options{Unroll: 2, MaxRuns: 100000, MaxSteps: DefaultMaxSteps}
}

// Analysis is everything about a test that does not depend on the choices
// made by a candidate execution: its memory layout and each thread's runs.
type Analysis struct {
	Test   *litmus.Test
	Layout *Layout
	// Runs lists each thread's runs (finished or blocked).
	Runs [][]*Run
	// Cut counts the runs abandoned at the unrolling bound, per thread.
	Cut []int
	// Spins counts failed spin-loop iterations left out, per thread;
	// Awaits the failed await iterations met, left out or not.
	Spins, Awaits []int
	// Probes lists, per thread, the runs with failed await iterations
	// that the spin reduction leaves out of Runs (Options.Probes); a
	// search of the flags they may raise takes them (WithProbes).
	Probes [][]*Run
	// NoAddr counts, per thread, the paths abandoned because a register
	// loaded from memory is used as an address while no value the test
	// stores is an address; NoAddrAt is the first such instruction.
	NoAddr   []int
	NoAddrAt []*litmus.Instr
	opts     Options
	// kernels lists the device threads of each kernel, in a test with host
	// threads where some device thread may wait forever; nil otherwise
	// (hosthang.go).
	kernels map[string][]int
	// wholeCombos builds the events of every combination of runs, none
	// skipped for its CTAs' barriers (ctabarriers.go): for the tests that
	// compare the skip against it.
	wholeCombos bool
}

// Prepare analyses a test: its layout and the runs of each thread.
func Prepare(t *litmus.Test, opts Options) (*Analysis, error) {
	return PrepareContext(context.Background(), t, opts)
}

// PrepareContext is Prepare under a context: the exploration of the paths
// stops soon after ctx is done, with ctx's error (its cause when it has
// one).
func PrepareContext(ctx context.Context, t *litmus.Test, opts Options) (*Analysis, error) {
	l, err := NewLayout(t)
	if err != nil {
		return nil, err
	}
	addrValues := storedAddresses(t, l)
	// Accesses through registers may reach bytes of a location that no
	// access through its name does: the layout then grows and the runs
	// are explored again with it (bytes.go). Each pass can only add
	// segments or bytes, so this ends.
	for {
		a, grow, err := explore(ctx, t, l, opts, addrValues)
		if err != nil {
			return nil, err
		}
		changed, err := l.grow(t, grow)
		if err != nil {
			return nil, err
		}
		if !changed {
			return a, l.checkWhole(a.Runs)
		}
	}
}

// explore enumerates the runs of every thread on layout l, and returns
// what accesses through registers found missing from the layout.
func explore(ctx context.Context, t *litmus.Test, l *Layout, opts Options, addrValues []Value) (*Analysis, *sizing, error) {
	grow := newSizing()
	a := &Analysis{Test: t, Layout: l, opts: opts, Cut: make([]int, len(t.Threads)), Spins: make([]int, len(t.Threads)), Awaits: make([]int, len(t.Threads)),
		NoAddr: make([]int, len(t.Threads)), NoAddrAt: make([]*litmus.Instr, len(t.Threads))}
	notStarted := make([]*Run, len(t.Threads))
	copied, copiedAll := copiedRoots(t, l)
	budget := &exploreBudget{ctx: ctx, max: opts.MaxBytes}
	for _, th := range t.Threads {
		if err := budget.stopped(); err != nil {
			return nil, nil, err
		}
		ex := newExplorer(t, th, l, opts.Unroll, addrValues)
		ex.copied, ex.copiedAll = copied, copiedAll
		ex.budget = budget
		if opts.MaxSteps > 0 {
			ex.maxSteps = opts.MaxSteps
		}
		ex.spinReduction = opts.SpinReduction
		ex.plainSpins = opts.PlainSpins
		ex.probes = opts.SpinReduction && opts.Probes
		ex.probeDepth = opts.ProbeDepth
		ex.grow = grow
		var runs, probes []*Run
		ex.emit = func(r *Run) error {
			if r.Probe {
				probes = append(probes, r)
			} else {
				runs = append(runs, r)
			}
			if len(runs)+len(probes) > opts.MaxRuns {
				return &LimitError{Limit: "runs per thread", Value: opts.MaxRuns, Flag: "-max-runs",
					What: "thread " + th.Name}
			}
			return budget.keep(th.Name, r)
		}
		s, err := ex.start()
		if err != nil {
			return nil, nil, err
		}
		if err := ex.explore(s); err != nil {
			return nil, nil, err
		}
		if th.Kernel != "" {
			if notStarted[th.Index], err = ex.notStartedRun(); err != nil {
				return nil, nil, err
			}
		}
		a.Runs = append(a.Runs, runs)
		a.Probes = append(a.Probes, probes)
		a.Cut[th.Index] = ex.cut
		a.Spins[th.Index], a.Awaits[th.Index] = ex.spins, ex.awaits
		a.NoAddr[th.Index], a.NoAddrAt[th.Index] = ex.noAddr, ex.noAddrAt
	}
	a.addHostHangRuns(notStarted)
	return a, grow, nil
}

// storedAddresses lists the addresses the program uses as values (in
// register initialisations, moves, stores and mapa): the only addresses a
// register loaded from memory can hold.
func storedAddresses(t *litmus.Test, l *Layout) []Value {
	seen := map[Value]bool{}
	var out []Value
	add := func(v Value) {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	addName := func(name string) {
		if a, ok := l.Addr(name); ok {
			add(AddrValue(a))
		}
	}
	for _, ri := range t.RegInits {
		if ri.Addr != "" {
			addName(ri.Addr)
		}
	}
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			for _, o := range []litmus.Operand{in.Src, in.Src2, in.A, in.B} {
				if o.Kind == litmus.OperandAddr {
					addName(o.Addr)
				}
			}
			if in.Op == litmus.OpMapa && in.A.Kind == litmus.OperandAddr && in.B.Kind == litmus.OperandImm {
				if a, ok := l.Addr(in.A.Addr); ok {
					add(RemoteAddrValue(a, ctaKeyOf(th.GPU, th.Launch, int(in.B.Imm))))
				}
			}
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].N != out[j].N {
			return out[i].N < out[j].N
		}
		return out[i].Remote < out[j].Remote
	})
	return out
}

// HasProbes reports whether some thread has probe runs.
func (a *Analysis) HasProbes() bool {
	for _, p := range a.Probes {
		if len(p) > 0 {
			return true
		}
	}
	return false
}

// WithProbes returns the analysis whose runs are a's and its probes: its
// search, filtered to the combinations with a probe (Search.Filter,
// FailedIters), goes through the executions with failed await iterations
// that a's leaves out.
func (a *Analysis) WithProbes() *Analysis {
	c := *a
	c.Runs = make([][]*Run, len(a.Runs))
	for t := range a.Runs {
		c.Runs[t] = append(append([]*Run(nil), a.Runs[t]...), a.Probes[t]...)
	}
	c.Probes = nil
	return &c
}

// FailedIters counts the failed await iterations of runs (probes').
func FailedIters(runs []*Run) int {
	n := 0
	for _, r := range runs {
		n += r.FailedIters
	}
	return n
}

// CutRuns is the total number of runs cut at the unrolling bound.
func (a *Analysis) CutRuns() int {
	n := 0
	for _, c := range a.Cut {
		n += c
	}
	return n
}

// MaxEvents is the number of events of the largest candidate execution of
// the analysis: every initial write and the longest run of each thread.
// The checker bounds an execution's size by it before building one.
func (a *Analysis) MaxEvents() int {
	n := len(a.Layout.Locs)
	for _, runs := range a.Runs {
		longest := 0
		for _, r := range runs {
			longest = max(longest, len(r.Events))
		}
		n += longest
	}
	return n
}
