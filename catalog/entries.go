package catalog

import (
	"fmt"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// Entry documents one base relation.
type Entry struct {
	Name  string
	Arity int
	Doc   string
}

// entries is the catalog, in the order docs/catalog.md lists it.
func entries() []Entry {
	return append([]Entry{
		{"E", 1, "every event of the execution, initial writes included"},
		{"IW", 1, "the initial writes W0, one per memory location (8.2.6)"},
		{"M", 1, "memory events: R | W"},
		{"R", 1, "reads: ld, suld, tld, cold, the read of every atom and red, and the reads of multimem.ld_reduce and multimem.red (one per location)"},
		{"W", 1, "writes: st, sust, the write of every atom and red (a failed atom.cas writes nothing), the writes of multimem.st and multimem.red (one per location), and the initial writes"},
		{"F", 1, "memory fences: fence.sc, fence.acq_rel, fence.acquire, fence.release, membar"},
		{"PF", 1, "proxy fences: fence.proxy.alias, .surface, .texture, .constant, .async, and the unidirectional fence.proxy.async::generic.release and .acquire (the only proxy fences in REL, ACQ and CLUSTER)"},
		{"SYNC_RESTRICT", 1, "restricted fences: fence.release.sync_restrict::shared::cta.cluster, fence.acquire.sync_restrict::shared::cluster.cluster and the unidirectional proxy fences fence.proxy.async::generic.{release,acquire}.sync_restrict::...; their effect applies to the operations in their window (pf_window)"},
		{"BAR", 1, "CTA barrier arrivals: bar.sync, bar.arrive and bar.red, in any spelling (bar.cta, barrier, barrier.cta, .aligned); barrier.cluster is in CBAR_ARRIVE and CBAR_WAIT"},
		{"BAR_SYNC", 1, "arrivals that wait for their barrier: bar.sync and bar.red (and their barrier spellings)"},
		{"BAR_ARRIVE", 1, "arrivals of bar.arrive (and barrier.arrive)"},
		{"BAR_RED", 1, "arrivals of bar.red (and barrier.red): they wait, as bar.sync does, and reduce a predicate"},
		{"LD", 1, "events of load instructions (ld, suld, tld, cold, multimem.ld_reduce)"},
		{"ST", 1, "events of store instructions (st, sust, multimem.st)"},
		{"ATOM", 1, "events (read and write) of atom instructions"},
		{"RED", 1, "events (read and write) of red instructions, multimem.red included"},
		{"WEAK", 1, "memory events of .weak instructions (ld and st without a qualifier are weak)"},
		{"RLX", 1, "events of .relaxed instructions (atom and red without a qualifier are relaxed)"},
		{"ACQ", 1, "events of .acquire instructions (fence.acquire included)"},
		{"REL", 1, "events of .release instructions (fence.release included)"},
		{"ACQ_REL", 1, "events of .acq_rel instructions (fence.acq_rel, and fence without a qualifier, included)"},
		{"SC", 1, "fence.sc and membar events"},
		{"VOL", 1, "events of .volatile instructions"},
		{"MMIO", 1, "events of .mmio instructions"},
		{"CTA", 1, "events of instructions with scope .cta (membar.cta included)"},
		{"CLUSTER", 1, "events of instructions with scope .cluster"},
		{"GPU", 1, "events of instructions with scope .gpu (membar.gl included)"},
		{"SYS", 1, "events of instructions with scope .sys (membar.sys included)"},
		{"GEN", 1, "events using the generic proxy: ld, st, atom, red, mbarrier operations, cp.async's copy, memory fences and barriers, and the initial writes"},
		{"SUR", 1, "events using the surface proxy (sust, suld), and fence.proxy.surface"},
		{"TEX", 1, "events using the texture proxy (tld), and fence.proxy.texture"},
		{"CON", 1, "events using the constant proxy (cold), and fence.proxy.constant"},
		{"ALIAS", 1, "fence.proxy.alias events"},
		{"ASYNC_PROXY", 1, "events using the async proxy: the memory operations of cp.async.bulk, cp.reduce.async.bulk and wgmma.mma_async, fence.proxy.async, and the implicit proxy fence that follows a bulk load"},
		{"ASYNC", 1, "operations performed asynchronously to their thread (8.9.1.1), in no program order: the copies' memory operations, a bulk load's implicit proxy fence and complete-tx, cp.async.mbarrier.arrive's arrive-on, wgmma.mma_async's reads"},
		{"ISSUE", 1, "the issue, in program order, of an asynchronous instruction: cp.async, cp.async.bulk, cp.reduce.async.bulk, cp.async.mbarrier.arrive, wgmma.mma_async"},
		{"CP_ASYNC", 1, "events of cp.async, cp.async.commit_group, cp.async.wait_group and cp.async.wait_all"},
		{"BULK", 1, "events of cp.async.bulk, cp.reduce.async.bulk, cp.async.bulk.commit_group and cp.async.bulk.wait_group"},
		{"BULK_REDUCE", 1, "events of cp.reduce.async.bulk"},
		{"BULK_BAD_SIZE", 1, "the issue of a cp.async.bulk or cp.reduce.async.bulk whose size is not a multiple of 16 (undefined in PTX)"},
		{"WGMMA", 1, "events of wgmma.mma_async, wgmma.fence, wgmma.commit_group and wgmma.wait_group"},
		{"CP_MBAR_ARRIVE", 1, "events of cp.async.mbarrier.arrive: its issue, its pending-count increment (without .noinc) and its asynchronous arrive-on"},
		{"ST_ASYNC", 1, "events of st.async and red.async: the issue, the asynchronous store (or the reduction's read and write) and the complete-tx on the mbarrier"},
		{"COMMIT", 1, "commit_group events (cp.async, cp.async.bulk, wgmma)"},
		{"WAIT_GROUP", 1, "wait_group events (cp.async, cp.async.bulk, wgmma)"},
		{"WAIT_READ", 1, "cp.async.bulk.wait_group.read events: they wait for the source reads only"},
		{"WAIT_ALL", 1, "cp.async.wait_all events"},
		{"WGMMA_FENCE", 1, "wgmma.fence events"},
		{"MBAR", 1, "mbarrier operations (reads and writes of an mbarrier object): mbarrier instructions, cp.async.mbarrier.arrive's updates, the complete-tx of a bulk copy, st.async or red.async, and the initial write of a declared mbarrier"},
		{"MBAR_INIT", 1, "mbarrier.init writes"},
		{"MBAR_WAIT", 1, "mbarrier.test_wait and mbarrier.try_wait reads"},
		{"MBAR_UNINIT", 1, "mbarrier operations that read a location holding no mbarrier state: an uninitialized object (undefined in PTX)"},
		{"MBAR_PENDING_OVER", 1, "the writes of cp.async.mbarrier.arrive's pending-count increments (without .noinc) that leave the pending arrival count above 2^20-1 (undefined in PTX)"},
		{"NOCOMPLETE_COMPLETES", 1, "the writes of mbarrier.arrive.noComplete and mbarrier.arrive_drop.noComplete that complete the phase they arrive on (undefined in PTX)"},
		{"MBAR_INIT_FENCE", 1, "fence.mbarrier_init.release.cluster events"},
		{"CBAR_ARRIVE", 1, "barrier.cluster.arrive events"},
		{"CBAR_WAIT", 1, "barrier.cluster.wait events"},
		{"TC", 1, "events of tcgen05 instructions"},
		{"TC_MMA", 1, "events of tcgen05.mma"},
		{"TC_CP", 1, "events of tcgen05.cp"},
		{"TC_CP_4X256B", 1, "events of tcgen05.cp with the .4x256b shape"},
		{"TC_SHIFT", 1, "events of tcgen05.shift"},
		{"TC_LD", 1, "events of tcgen05.ld"},
		{"TC_ST", 1, "events of tcgen05.st"},
		{"TC_COMMIT", 1, "events of tcgen05.commit: its issue and its asynchronous arrive-on"},
		{"TC_WAIT_LD", 1, "tcgen05.wait::ld events"},
		{"TC_WAIT_ST", 1, "tcgen05.wait::st events"},
		{"TC_BEFORE", 1, "tcgen05.fence::before_thread_sync events"},
		{"TC_AFTER", 1, "tcgen05.fence::after_thread_sync events"},
		{"TMEM", 1, "memory events on tensor memory (initial writes included)"},
		{"SHARED", 1, "memory events on shared memory (mbarrier objects included), and proxy fences restricted to shared memory (.shared::cta, .shared::cluster)"},
		{"GLOBAL", 1, "memory events on global memory (initial writes included), and proxy fences restricted to global memory (.global)"},
		{"OUTSIDE_SPACE", 1, "memory events of ld, st, atom, red, multimem and asynchronous instructions whose address (held in a register) is outside the window of the state space the instruction names: .global on shared memory, .shared or .shared::cta on memory other than the executing CTA's shared memory, .shared::cluster on memory other than the shared memory of the thread's cluster, and generic addressing on the shared memory of another cluster; also the mbarrier accesses of cp.async.mbarrier.arrive, and the destination write of cp.async and of a bulk copy into .shared::cta, outside the executing CTA's shared memory (undefined in PTX)"},
		{"MULTIMEM", 1, "events of multimem.ld_reduce, multimem.st and multimem.red: one read, write or read and write per location of the multimem address (8.2.3)"},
		{"MULTIMEM_ADDR", 1, "memory events through a multimem address (8.2.3), whatever their instruction"},
		{"po", 2, "program order: each thread's events in the order the thread executes them (the read of an atom before its write); initial writes and asynchronous operations are in no program order (8.9.1, 8.9.1.1), nor are the operations of one multimem instruction on different locations, the elements of one vector or packed access (8.2.4, 8.2.5) or the pieces of one read among themselves"},
		{"rf", 2, "reads-from: the write each read takes its value from; a read whose bytes different writes may write is one read event per piece of bytes (docs/model.md, section 20), each reading from one write"},
		{"rmw", 2, "from the read to the write of the same atom or red"},
		{"addr", 2, "address dependency: from a read to a memory event whose address register depends on the value read"},
		{"data", 2, "data dependency: from a read to a write whose value depends on the value read"},
		{"ctrl", 2, "control dependency: from a read to every event after a branch whose condition depends on the value read"},
		{"loc", 2, "memory events (initial writes included) that overlap: they access at least one common byte of the same physical memory location, reflexive (8.2, 8.2.1)"},
		{"vaddr", 2, "overlapping memory events (loc) that use the same virtual address, reflexive (8.2.1); an initial write uses the address of the location's declaration"},
		{"gaddr", 2, "overlapping memory events (loc) whose generic address is the same, reflexive: a surface, texture or constant reference has the generic address it aliases; a generic address is its own"},
		{"same_bytes", 2, "memory events of operations that access exactly the same bytes of the same physical location, reflexive: complete overlap (8.2.1) when they also use the same virtual address; the pieces of a read that spans several writes' bytes share the bytes of their operation"},
		{"sthd", 2, "events of the same thread, reflexive (initial writes belong to no thread)"},
		{"scta", 2, "events of threads in the same CTA, reflexive (a CTA belongs to one kernel launch; host threads are in no CTA)"},
		{"sclu", 2, "events of threads in the same cluster, reflexive (a cluster belongs to one kernel launch; host threads are in none)"},
		{"sgpu", 2, "events of threads on the same GPU, reflexive (host threads are on none)"},
		{"bar", 2, "barrier arrivals that completed together (the same barrier, the same phase), irreflexive and symmetric"},
		{"cbar", 2, "from each barrier.cluster.arrive to the barrier.cluster.wait events that returned when its phase completed"},
		{"same_instr", 2, "events of the same instruction instance (the read and write of an atom; the issue and operations of an asynchronous instruction), reflexive; of a .multicast::cluster load, the events of one destination CTA are not related to those of another (each is related to the issue and the source read)"},
		{"same_cta_group", 2, "events of tcgen05 instructions with the same .cta_group::N (1 by default), reflexive"},
		{"same_shape", 2, "events of tcgen05 instructions with the same shape, kind and packing qualifiers, reflexive"},
		{"group_commit", 2, "from the issue of a cp.async, bulk store, bulk reduction or wgmma.mma_async to the commit_group of its kind that closes its group: the first one after it in program order (a cp.async.wait_all closes a cp.async-group too; a bulk load, completed on an mbarrier, is in no group)"},
		{"same_group", 2, "events of two different asynchronous instruction instances of a thread (their issues and operations) that one commit_group (or cp.async.wait_all) closes: the same committed async-group; instructions that no commit follows are in no group"},
		{"pf_window", 2, "from a proxy fence, or a restricted fence (SYNC_RESTRICT), to the memory events (initial writes included) whose location lies in the window of the state space the fence names, seen from its thread: .global global memory, .shared::cta the executing CTA's shared memory, .shared::cluster the shared memory of the CTAs of its cluster; every memory event when it names none"},
		{"wait_pending", 2, "from a wait_group N to the commit_group events of its family among the N most recent before it in program order: the groups it leaves pending"},
	}, hostEntries()...)
}

// table is the catalog, built once: it never changes.
var table = entries()

// byName indexes table.
var byName = func() map[string]Entry {
	m := map[string]Entry{}
	for _, e := range table {
		m[e.Name] = e
	}
	return m
}()

// Entries returns the catalog: every base relation a model may .input.
func Entries() []Entry { return append([]Entry(nil), table...) }

// Lookup returns the entry for a name.
func Lookup(name string) (Entry, bool) {
	e, ok := byName[name]
	return e, ok
}

// Validate checks that every .input relation of the model is a catalog
// relation with the catalog's arity.
func Validate(m *datalog.Model) source.List {
	var errs source.List
	for _, io := range m.IO {
		if io.Kind != datalog.IOInput {
			continue
		}
		e, ok := Lookup(io.Name)
		if !ok {
			errs.Add(io.Pos, ".input %s: the catalog has no relation %s (see docs/catalog.md for the base relations ptxmm provides)", io.Name, io.Name)
			continue
		}
		if r := m.Relations[io.Name]; r != nil && r.Arity != e.Arity {
			errs.Add(io.Pos, ".input %s: the catalog's %s has %d column(s), but the model declares %d", io.Name, io.Name, e.Arity, r.Arity)
		}
	}
	return errs
}

// ChoiceRelations lists the catalog relations that are known only in part
// before a candidate's reads-from is complete (fill.Filler.FillPartial): rf
// itself, what depends on the values reads return (the barrier groups,
// reads of uninitialized mbarriers, .noComplete arrives that complete a
// phase, pending-count increments over the limit), and the cluster barrier phases, which the enumeration resolves
// for complete candidates.
func ChoiceRelations() []string {
	return []string{"rf", "bar", "cbar", "MBAR_UNINIT", "NOCOMPLETE_COMPLETES", "MBAR_PENDING_OVER"}
}

// Describe prints an entry as "name/arity: doc".
func (e Entry) Describe() string { return fmt.Sprintf("%s/%d: %s", e.Name, e.Arity, e.Doc) }
