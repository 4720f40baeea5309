package harness

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
	"github.com/ptxmm/ptxmm/gpu/sass"
	"github.com/ptxmm/ptxmm/litmus"
)

// Config is what a run needs besides the driver and the test.
type Config struct {
	Params Params
	// Model judges the observed states; Options are its check's options
	// (the run asks for explanations of forbidden states).
	Model   *checker.Model
	Options checker.Options
	// SASS, when set, checks the compiled code of each thread.
	SASS *sass.Checker
	// Keep, when set, writes each test's code to a folder (-keep).
	Keep *Keeper
}

// Run runs test t on the driver's device and compares what it observed
// with the model.
func Run(drv gpu.Driver, t *litmus.Test, cfg Config) (o *Outcome) {
	o = &Outcome{Test: t, Device: drv.Device(), Params: cfg.Params}
	defer func() {
		// A bug of ptxmm's in one test fails that test, not the run:
		// the other tests of a long GPU run still run and report.
		if r := recover(); r != nil {
			o.Err = fmt.Errorf("internal error (a bug in ptxmm: please report it with the test): %v", r)
		}
	}()
	o.judge(cfg)
	if o.Refused = ptxgen.Support(t, o.Device); o.Refused != nil {
		return o
	}
	if o.Refused = o.modelHang(); o.Refused != nil {
		return o
	}
	plan, err := ptxgen.NewPlan(t)
	if err != nil {
		o.Refused = err
		return o
	}
	o.Plan = plan
	o.printing = &checker.Result{Test: t, Layout: plan.Layout(), Observables: plan.CheckerObservables()}
	if o.Module, o.Refused = plan.Module(o.Device.Arch()); o.Refused != nil {
		return o
	}
	k, err := drv.Load(o.Module, ptxgen.Entry)
	if err != nil {
		o.Err = fmt.Errorf("loading the test's PTX module: %w", err)
		return o
	}
	defer k.Close()
	if cfg.Keep != nil {
		if err := cfg.Keep.keep(drv, o, cfg.SASS != nil); err != nil {
			o.Err = fmt.Errorf("-keep: %w", err)
			return o
		}
	}
	if cfg.SASS != nil {
		if o.Compiler, err = cfg.SASS.Check(drv, plan, o.Device.Arch()); err != nil {
			o.Err = fmt.Errorf("-sass: %w", err)
			return o
		}
	}
	o.Err = o.launchAll(drv, k, plan, cfg.Params)
	o.compare()
	return o
}

// judge checks the test against the model, with the explanations of the
// forbidden outcomes that alarms print.
func (o *Outcome) judge(cfg Config) {
	if cfg.Model == nil {
		o.ModelErr = errors.New("no model")
		return
	}
	opts := cfg.Options
	opts.Explain = true
	r := cfg.Model.Check(o.Test, opts)
	if r.Err != nil {
		o.ModelErr = r.Err
		return
	}
	o.Model = r
}

// modelHang refuses a test the model says may wait forever at a CTA or
// cluster barrier: on the GPU that would hang the launch (a wait on an
// mbarrier is a loop, which -spin-bound ends).
func (o *Outcome) modelHang() error {
	if o.Model == nil || o.Model.Hangs == 0 {
		return nil
	}
	for _, s := range o.Model.Stuck {
		_, at, _ := strings.Cut(s, ": ")
		if strings.HasPrefix(at, "bar") {
			return fmt.Errorf("%s: the model says a thread may wait forever at a barrier (%s), which would hang the GPU", o.Test.Pos, s)
		}
	}
	return nil
}

// buffers are the device memory of a test's launches.
type buffers struct {
	base, results, scratch, counter gpu.Ptr
}

func (b *buffers) free(drv gpu.Driver) {
	for _, p := range []gpu.Ptr{b.base, b.results, b.scratch, b.counter} {
		if p != 0 {
			drv.Free(p)
		}
	}
}

// seedOf mixes the run's seed with the test's name, so that each test of
// a run draws its own choices and a run with the same seed draws them
// again.
func seedOf(seed uint64, t *litmus.Test) *rand.Rand {
	h := fnv.New64a()
	fmt.Fprintf(h, "%s#%d", t.Name, t.Instance)
	return rand.New(rand.NewPCG(seed, h.Sum64()))
}

// launchAll runs the launches and collects the states.
func (o *Outcome) launchAll(drv gpu.Driver, k gpu.Kernel, plan *ptxgen.Plan, par Params) error {
	s, err := fitShape(par, plan, k)
	if err != nil {
		return err
	}
	o.Notes = s.notes
	most := ptxgen.Geometry{Rows: s.rows, Groups: s.groups, Stress: s.stress, LocStride: par.MemStride * plan.GlobalBytes}
	var buf buffers
	defer buf.free(drv)
	sizes := []struct {
		p *gpu.Ptr
		n int
	}{{&buf.base, most.LocationBytes(plan)}, {&buf.results, most.ResultBytes(plan)}, {&buf.scratch, par.Lines*par.LineBytes + 128}, {&buf.counter, most.CounterBytes(plan)}}
	for _, sz := range sizes {
		if *sz.p, err = drv.Alloc(sz.n); err != nil {
			return fmt.Errorf("allocating %d bytes of device memory: %w", sz.n, err)
		}
	}
	rng := seedOf(par.Seed, o.Test)
	hist := newHistogram(plan)
	start := time.Now()
	for it := 0; it < par.Iterations; it++ {
		g := s.launch(rng, par, plan)
		if err := g.Validate(plan); err != nil {
			return fmt.Errorf("launch %d: %w", it+1, err)
		}
		if err := o.launch(drv, k, plan, g, &buf, hist); err != nil {
			return fmt.Errorf("launch %d (%d CTAs of %d threads): %w", it+1, g.Grid(plan), g.Block(plan), err)
		}
		o.Launches++
	}
	o.Elapsed = time.Since(start)
	o.States = hist.states
	return nil
}

// launch runs one launch and adds its instances to the histogram.
func (o *Outcome) launch(drv gpu.Driver, k gpu.Kernel, plan *ptxgen.Plan, g ptxgen.Geometry, buf *buffers, hist *histogram) error {
	locs := initialMemory(plan, g)
	if err := drv.Write(buf.base, locs); err != nil {
		return err
	}
	if err := drv.Zero(buf.results, g.ResultBytes(plan)); err != nil {
		return err
	}
	if err := drv.Zero(buf.counter, g.CounterBytes(plan)); err != nil {
		return err
	}
	l := gpu.Launch{Grid: g.Grid(plan), Block: g.Block(plan), Cluster: plan.ClusterSize, Shared: g.Shared(plan),
		Params: g.Params(plan, uint64(buf.base), uint64(buf.results), uint64(buf.scratch), uint64(buf.counter)), Timeout: o.Params.Timeout}
	if err := k.Launch(l); err != nil {
		return err
	}
	results := make([]byte, g.ResultBytes(plan))
	if err := drv.Read(results, buf.results); err != nil {
		return err
	}
	if err := drv.Read(locs, buf.base); err != nil {
		return err
	}
	return o.collect(plan, g, results, locs, hist)
}
