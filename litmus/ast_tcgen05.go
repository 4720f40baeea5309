package litmus

// TcOp is the operation of a tcgen05 instruction (PTX ISA 9.7.16).
type TcOp int

const (
	// TcMma is tcgen05.mma: asynchronous, reads a and b, writes d.
	TcMma TcOp = iota
	// TcCp is tcgen05.cp: asynchronous copy of shared memory into tensor memory.
	TcCp
	// TcShift is tcgen05.shift.down: asynchronous read and write of tensor memory.
	TcShift
	// TcLd is tcgen05.ld: asynchronous load of tensor memory into a register.
	TcLd
	// TcSt is tcgen05.st: asynchronous store to tensor memory.
	TcSt
	// TcCommit is tcgen05.commit: an arrive-on an mbarrier once the
	// thread's earlier mma, cp and shift complete.
	TcCommit
	// TcWaitLd is tcgen05.wait::ld.
	TcWaitLd
	// TcWaitSt is tcgen05.wait::st.
	TcWaitSt
	// TcFenceBefore is tcgen05.fence::before_thread_sync.
	TcFenceBefore
	// TcFenceAfter is tcgen05.fence::after_thread_sync.
	TcFenceAfter
	// TcAlloc is tcgen05.alloc.
	TcAlloc
	// TcDealloc is tcgen05.dealloc.
	TcDealloc
	// TcRelinquish is tcgen05.relinquish_alloc_permit.
	TcRelinquish
)

var tcNames = [...]string{"mma", "cp", "shift", "ld", "st", "commit", "wait::ld", "wait::st",
	"fence::before_thread_sync", "fence::after_thread_sync", "alloc", "dealloc", "relinquish_alloc_permit"}

func (o TcOp) String() string { return tcNames[o] }

// Async reports whether the operation is one of the asynchronous tcgen05
// instructions (9.7.16.6.1): mma, cp, shift, ld and st. tcgen05.commit's
// arrive-on is asynchronous too, but the instruction is counted with the
// synchronous ones there.
func (o TcOp) Async() bool { return o <= TcSt }
