package checker

import (
	"context"
	"sync"

	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// A worker is what one goroutine builds to check tests against a model:
// the model's evaluation instances, one per size of candidate execution,
// and the filler that sets their inputs. Building them cost a small test
// more than checking its candidates (a few hundred relations each), so a
// model keeps the workers of finished tests and hands them to the next
// ones, which reset them (rules.Instance.Reset) instead of building anew.
type worker struct {
	filler *fill.Filler
	// insts holds the instances by number of events, and bytes their
	// estimated memory.
	insts map[int]*rules.Instance
	bytes int64
	// warm holds the relations warm starts saved orders in, by number
	// of events (warmStart.kept).
	warm map[int]*warmRels
	// scratch lends the searches of the tests this worker checks the
	// events array of their candidates (session.search: the worker of a
	// session's first model).
	scratch execution.Scratch
}

// maxKeptBytes bounds the estimated memory of the instances a worker keeps
// between tests: the sizes of litmus tests, not those of a big test,
// whose instances would hold their memory for the rest of the run.
const maxKeptBytes = 16 << 20

// workerPool holds a model's idle workers; it is safe for concurrent use.
type workerPool struct {
	m    *Model
	pool sync.Pool
}

func newWorkerPool(m *Model) *workerPool {
	wp := &workerPool{m: m}
	wp.pool.New = func() any {
		return newWorker(m)
	}
	return wp
}

// worker returns an idle worker of the model, or a new one.
func (m *Model) worker() *worker {
	if m.workers == nil {
		return newWorker(m)
	}
	return m.workers.pool.Get().(*worker)
}

// newModelRun starts model m's part of a check, with an idle worker.
func newModelRun(m *Model, res *Result, maxBytes int64) *modelRun {
	w := m.worker()
	w.filler.Reset()
	return &modelRun{m: m, w: w, filler: w.filler, insts: map[int]*rules.Instance{}, res: res,
		seen: map[string]bool{}, forbid: map[string]bool{}, maxBytes: maxBytes, warm: warmStart{kept: w.warm}}
}

func newWorker(m *Model) *worker {
	return &worker{filler: fill.New(m.Syntax), insts: map[int]*rules.Instance{}, warm: map[int]*warmRels{}}
}

// spare takes the worker's instance for n events, if it keeps one, reset
// for a new test under the run's memory limit (nil if it keeps none). An
// instance whose relations the limit no longer admits is dropped: building
// it anew reports why. Once ctx is done, the instance is dropped and ctx's
// error returned.
func (r *modelRun) spare(ctx context.Context, n int) (*rules.Instance, error) {
	in, ok := r.w.insts[n]
	if !ok {
		return nil, nil
	}
	delete(r.w.insts, n)
	need := r.m.Program.EstimateBytes(n)
	r.w.bytes -= need
	if r.maxBytes > 0 && need > r.maxBytes {
		return nil, nil
	}
	if err := in.ResetContext(ctx, rules.Limits{MaxBytes: r.maxBytes}); err != nil {
		return nil, err
	}
	return in, nil
}

// release gives the run's worker back to its model, keeping the instances
// the run used as far as maxKeptBytes allows. The run must not be used
// afterwards.
func (r *modelRun) release() {
	w := r.w
	if w == nil || r.m.workers == nil {
		return
	}
	r.w, r.cur = nil, nil
	for n, in := range r.insts {
		if _, dup := w.insts[n]; dup {
			continue
		}
		if need := r.m.Program.EstimateBytes(n); w.bytes+need <= maxKeptBytes {
			w.insts[n] = in
			w.bytes += need
		}
	}
	r.insts = nil
	r.m.workers.pool.Put(w)
}
