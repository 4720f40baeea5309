package program

import "fmt"

// Space is where a location lives: global memory (the default), shared
// memory (one copy per CTA), or an mbarrier object in shared memory.
type Space int

const (
	// Global memory: a location declared x=0.
	Global Space = iota
	// Shared memory: x @ shared = V, one copy per CTA; a bulk copy's
	// destination.
	Shared
	// Mbarrier is an mbarrier object, b @ mbarrier COUNT, in shared
	// memory.
	Mbarrier
)

// decl spells the declaration of a location of its own in the test's
// init block: "x=0;" for a global location starting at 0 (as before
// spaces were written), "x=7;", "y @ shared = 0;", "b @ mbarrier 1;".
func (a Addr) decl() string {
	switch a.Space {
	case Shared:
		return fmt.Sprintf("%s @ shared = %d;", a.Name, a.Init)
	case Mbarrier:
		return fmt.Sprintf("%s @ mbarrier %d;", a.Name, a.Count)
	}
	return fmt.Sprintf("%s=%d;", a.Name, a.Init)
}

// AddAddr adds a location of its own and returns its index.
func (t *Test) AddAddr(a Addr) int {
	a.AliasOf = -1
	t.Addrs = append(t.Addrs, a)
	return len(t.Addrs) - 1
}

// asyncInstr spells the mbarrier and bulk copy operations.
func (t *Test) asyncInstr(th, op int, o Op) string {
	switch o.Kind {
	case MbarArrive:
		b := t.Addrs[o.Addr].Name
		if o.ExpectTx > 0 {
			return fmt.Sprintf("mbarrier.arrive.expect_tx%s %s, %d", mbarSem(o, Release), b, o.ExpectTx)
		}
		return fmt.Sprintf("mbarrier.arrive%s %s", mbarSem(o, Release), b)
	case MbarWait:
		return fmt.Sprintf("mbarrier.test_wait%s %s, %s", mbarSem(o, Acquire), t.Reg(th, op), t.Addrs[o.Addr].Name)
	case BulkLoad:
		return fmt.Sprintf("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes %s, %s, 16, %s",
			t.Addrs[o.Addr].Name, t.Addrs[o.Src].Name, t.Addrs[o.Bar].Name)
	}
	panic(fmt.Sprintf("program: unknown asynchronous operation kind %d", o.Kind))
}

// mbarSem spells an mbarrier operation's memory order when it is not the
// instruction's default (.release for an arrive, .acquire for a wait):
// ".relaxed.cta".
func mbarSem(o Op, def Sem) string {
	if o.Sem == def || o.Sem == Weak {
		return ""
	}
	return "." + o.Sem.String() + ".cta"
}

// asyncMnemonic names an mbarrier or bulk copy operation.
func asyncMnemonic(o Op) string {
	switch o.Kind {
	case MbarArrive:
		if o.ExpectTx > 0 {
			return "mbarrier.arrive.expect_tx" + mbarSem(o, Release)
		}
		return "mbarrier.arrive" + mbarSem(o, Release)
	case MbarWait:
		return "mbarrier.test_wait" + mbarSem(o, Acquire)
	}
	return "cp.async.bulk"
}

// guardLabel is the label at the end of thread th that a guarded wait
// branches to.
func guardLabel(th int) string { return fmt.Sprintf("LW%d", th) }
