package program

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// Kind says what an operation does.
type Kind int

const (
	// Load reads memory (ld).
	Load Kind = iota
	// Store writes memory (st).
	Store
	// RMW reads and writes one location atomically (atom.exch).
	RMW
	// Fence is a memory fence (fence.sc, fence.acq_rel, ...).
	Fence
	// AliasFence is the proxy fence fence.proxy.alias, which orders
	// accesses through different virtual addresses of one location.
	AliasFence
	// Barrier is the CTA barrier bar.sync 0: the threads of a CTA that
	// execute it meet there (the k-th barrier of each thread with the
	// k-th of the others).
	Barrier
	// ProxyFence is the proxy fence fence.proxy.PROXY (Op.Proxy: surface,
	// texture or constant), which orders the accesses through that
	// proxy's references with the generic accesses of their locations.
	ProxyFence
	// ClusterBarrier is barrier.cluster.arrive followed by
	// barrier.cluster.wait: every thread of the cluster meets there. Its
	// Sem is that of the arrive: Release (the default) or Relaxed.
	ClusterBarrier
	// MbarArrive is mbarrier.arrive on the mbarrier at Addr (Sem Release,
	// the default, or Relaxed; scope .cta), with .expect_tx ExpectTx
	// bytes when ExpectTx is above 0 (async.go).
	MbarArrive
	// MbarWait is mbarrier.test_wait on the mbarrier at Addr (Sem
	// Acquire, the default, or Relaxed): it sets its register to 1 when
	// it sees the current phase complete.
	MbarWait
	// BulkLoad is a bulk copy (cp.async.bulk, TMA) of 16 bytes from the
	// global address Src to the shared address Addr, whose complete-tx
	// goes to the mbarrier at Bar.
	BulkLoad
	// BulkStore is a bulk copy of 16 bytes from the shared address Addr
	// to the global address Dst in a bulk async-group, which the thread
	// commits and waits for at once (cp.async.bulk.wait_group 0, or
	// .read when WaitRead: only until the source has been read). It
	// reads through the async proxy and takes no register: its value
	// shows in Dst's final value.
	BulkStore
)

// Reads reports whether an operation of kind k reads memory.
func (k Kind) Reads() bool { return k == Load || k == RMW || k == MbarWait }

// Writes reports whether an operation of kind k writes memory.
func (k Kind) Writes() bool { return k == Store || k == RMW || k == BulkLoad }

// Barrier reports whether an operation of kind k is a barrier.
func (k Kind) Barrier() bool { return k == Barrier || k == ClusterBarrier }

// Memory reports whether an operation of kind k accesses memory.
func (k Kind) Memory() bool { return k == Load || k == Store || k == RMW }

// Sem is the memory order of an operation: litmus's, so that a program
// names its orders as the tests it becomes do.
type Sem = litmus.Sem

// The memory orders a program uses.
const (
	// Weak is a plain (.weak) access; fences are never weak.
	Weak = litmus.SemWeak
	// Relaxed is .relaxed.
	Relaxed = litmus.SemRelaxed
	// Acquire is .acquire.
	Acquire = litmus.SemAcquire
	// Release is .release.
	Release = litmus.SemRelease
	// AcqRel is .acq_rel (read-modify-writes and fences).
	AcqRel = litmus.SemAcqRel
	// SC is .sc (fences).
	SC = litmus.SemSC
)

// Proxy is the proxy an address reaches its location through (8.6):
// litmus's.
type Proxy = litmus.Proxy

// The proxies of a program's addresses and proxy fences.
const (
	// Generic is the proxy of ld, st and atom.
	Generic = litmus.ProxyGeneric
	// Surface is the proxy of suld and sust.
	Surface = litmus.ProxySurface
	// Texture is the proxy of tld.
	Texture = litmus.ProxyTexture
	// Constant is the proxy of cold.
	Constant = litmus.ProxyConstant
	// Async is the proxy of the bulk copies (fence.proxy.async).
	Async = litmus.ProxyAsync
)

// Scope is the scope of a strong operation: litmus's.
type Scope = litmus.Scope

// The scopes.
const (
	// NoScope is the scope of weak accesses and proxy fences.
	NoScope = litmus.ScopeNone
	// CTA is .cta.
	CTA = litmus.ScopeCTA
	// Cluster is .cluster.
	Cluster = litmus.ScopeCluster
	// GPU is .gpu.
	GPU = litmus.ScopeGPU
	// Sys is .sys.
	Sys = litmus.ScopeSys
)

// Scopes lists the scopes from the narrowest to the widest.
func Scopes() []Scope { return []Scope{CTA, Cluster, GPU, Sys} }

// ParseScope reads a scope's PTX name (cta, cluster, gpu, sys).
func ParseScope(s string) (Scope, error) {
	for _, sc := range Scopes() {
		if sc.String() == s {
			return sc, nil
		}
	}
	return NoScope, fmt.Errorf("unknown scope %q: expected cta, cluster, gpu or sys", s)
}

// Dep is a dependency of an operation on the value an earlier read of its
// thread returned.
type Dep int

const (
	// NoDep: the operation does not depend on a read.
	NoDep Dep = iota
	// Data: the value a store or read-modify-write writes is computed from
	// the value read (as r^r+v, so that it is still v).
	Data
	// Ctrl: the operation follows a branch on the value read (a branch to
	// the next instruction, so that it executes whatever was read).
	Ctrl
)

var depNames = [...]string{"", "data", "ctrl"}

func (d Dep) String() string { return depNames[d] }

// Op is one instruction of a thread.
type Op struct {
	Kind  Kind
	Sem   Sem
	Scope Scope
	// Addr indexes Test.Addrs (memory operations).
	Addr int
	// Value is what a store or read-modify-write writes.
	Value int64
	// Dep is the operation's dependency on the read at index From of its
	// thread's operations.
	Dep  Dep
	From int
	// Proxy is the proxy a ProxyFence orders.
	Proxy Proxy
	// Src and Bar are a BulkLoad's source address and mbarrier; ExpectTx
	// is the tx-count an MbarArrive announces (async.go).
	Src, Bar int
	ExpectTx int64
	// Guard makes an MbarWait branch past the rest of its thread when it
	// does not see the phase complete, so that the operations after it
	// run only once the phase has completed.
	Guard bool
	// Loop makes an MbarWait a try_wait loop: it polls until it sees the
	// phase complete.
	Loop bool
	// Remote makes an MbarArrive arrive on CTA's copy of its mbarrier,
	// another CTA of the thread's cluster, through the address mapa
	// computes (async.go).
	Remote bool
	CTA    int
	// Dst is a BulkStore's destination; WaitRead makes its wait
	// cp.async.bulk.wait_group.read.
	Dst      int
	WaitRead bool
	// Arm makes a BulkLoad arm its mbarrier itself, with
	// mbarrier.arrive.expect_tx Bar, 16 just before the copy: one
	// operation of two instructions.
	Arm bool
}

// Place is where a thread runs: its GPU, its CTA on that GPU and, when
// Cluster is at least 0, the cluster of that CTA.
type Place struct {
	GPU, Cluster, CTA int
}

// Thread is one thread of a test.
type Thread struct {
	Place Place
	Ops   []Op
}

// Addr is a named address: a location of its own, or (AliasOf at least 0)
// a second virtual address of another address's location: a generic one,
// or the reference of another proxy (Proxy).
type Addr struct {
	Name    string
	AliasOf int
	Proxy   Proxy
	// Space, Init and Count declare a location other than a global one
	// starting at 0: its state space (shared memory, or an mbarrier
	// object expecting Count arrivals per phase) and initial value.
	Space Space
	Init  int64
	Count int
}

// Alias returns the index of the second address of location loc (an
// address of its own), adding it, named after the location with _alias,
// the first time it is asked for.
func (t *Test) Alias(loc int) int {
	for i, a := range t.Addrs {
		if a.AliasOf == loc && a.Proxy == Generic {
			return i
		}
	}
	t.Addrs = append(t.Addrs, Addr{Name: t.Addrs[loc].Name + "_alias", AliasOf: loc})
	return len(t.Addrs) - 1
}

// ProxyRef returns the index of location loc's reference in proxy p
// (surface, texture or constant), adding it, named after the location
// with _surface, _texture or _constant, the first time it is asked for.
func (t *Test) ProxyRef(loc int, p Proxy) int {
	for i, a := range t.Addrs {
		if a.AliasOf == loc && a.Proxy == p {
			return i
		}
	}
	t.Addrs = append(t.Addrs, Addr{Name: t.Addrs[loc].Name + "_" + p.String(), AliasOf: loc, Proxy: p})
	return len(t.Addrs) - 1
}

// Pin is one conjunct of a final condition: a read's register (Thread and
// Op index the read) or, when Thread is -1, the final value of the
// location at address Addr.
type Pin struct {
	Thread, Op int
	Addr       int
	Value      int64
}

// Test is a litmus test described by its structure.
type Test struct {
	Name string
	// Doc is the test's comment, printed in quotes after its name (a
	// double quote in it becomes a single one). It may span lines, as
	// diy7's "Cycle=..." lines, which herd's format puts there too.
	Doc     string
	Addrs   []Addr
	Threads []Thread
	// Pins is the condition, a conjunction, under Quantifier ("exists",
	// "~exists" or "forall"); with no pins the condition is "true".
	Quantifier string
	Pins       []Pin
	// Observe lists terms the final state shows beyond the condition's
	// (herd's locations clause), in the same form as Pins (Value unused).
	Observe []Pin
}

// EventCount counts the test's operations: memory operations, fences and
// barriers (a read-modify-write is one, and so is a cluster barrier's
// arrive and wait).
func (t *Test) EventCount() int {
	n := 0
	for _, th := range t.Threads {
		n += len(th.Ops)
	}
	return n
}

// Reg names the register that read op of thread th loads into: r0, r1,
// ... in the order of the thread's reads.
func (t *Test) Reg(th, op int) string {
	k := 0
	for _, o := range t.Threads[th].Ops[:op] {
		if o.Kind.Reads() {
			k++
		}
	}
	return fmt.Sprintf("r%d", k)
}
