package cuda

import "runtime"

// worker runs functions on one goroutine locked to its operating-system
// thread, where the driver's context is current.
type worker struct {
	jobs chan func()
}

func newWorker() *worker {
	w := &worker{jobs: make(chan func())}
	go func() {
		runtime.LockOSThread()
		for f := range w.jobs {
			f()
		}
	}()
	return w
}

// do runs f on the worker's thread and waits for it.
func (w *worker) do(f func()) {
	done := make(chan struct{})
	w.jobs <- func() {
		defer close(done)
		f()
	}
	<-done
}

// stop ends the worker's goroutine.
func (w *worker) stop() { close(w.jobs) }
