package limits

// Cores is the number of goroutines checking may keep busy at once (-j),
// shared by the tests checked in parallel and by the parts of one test's
// search: a worker checking tests holds one core while it has tests to
// check, and a test whose search splits (checker, "Searching in
// parallel") takes the cores no worker holds, so that the last big test
// of a run, or a run of one test, still gets every core. A nil *Cores has
// one core and none to spare. Cores is safe for concurrent use.
type Cores struct {
	free chan struct{}
}

// NewCores returns n cores, all free (nil when n < 2: nothing to share).
func NewCores(n int) *Cores {
	if n < 2 {
		return nil
	}
	c := &Cores{free: make(chan struct{}, n)}
	for i := 0; i < n; i++ {
		c.free <- struct{}{}
	}
	return c
}

// Size returns the number of cores, 1 for nil.
func (c *Cores) Size() int {
	if c == nil {
		return 1
	}
	return cap(c.free)
}

// TryTake takes a free core if there is one.
func (c *Cores) TryTake() bool {
	if c == nil {
		return false
	}
	select {
	case <-c.free:
		return true
	default:
		return false
	}
}

// Give frees a core taken with TryTake.
func (c *Cores) Give() {
	if c != nil {
		c.free <- struct{}{}
	}
}
