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
	case BulkStore:
		return fmt.Sprintf("cp.async.bulk.global.shared::cta.bulk_group %s, %s, 16", t.Addrs[o.Dst].Name, t.Addrs[o.Addr].Name)
	}
	panic(fmt.Sprintf("program: unknown asynchronous operation kind %d", o.Kind))
}

// mbarSem spells an mbarrier operation's memory order when it is not the
// instruction's default (.release for an arrive, .acquire for a wait):
// ".relaxed.cta".
//
// At cluster scope both are spelt: ".release.cluster".
func mbarSem(o Op, def Sem) string {
	sem := o.Sem
	if sem == Weak {
		sem = def
	}
	if o.Scope == Cluster {
		return "." + sem.String() + ".cluster"
	}
	if sem == def {
		return ""
	}
	return "." + sem.String() + ".cta"
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
		if o.Loop {
			return "mbarrier.try_wait" + mbarSem(o, Acquire)
		}
		return "mbarrier.test_wait" + mbarSem(o, Acquire)
	case BulkStore:
		return "cp.async.bulk.bulk_group"
	}
	return "cp.async.bulk"
}

// asyncText spells the operations that take several instructions: a
// guarded wait and its branch past the rest of the thread; a try_wait
// loop; a remote arrive and the mapa that computes its address; a bulk
// load that arms its mbarrier; a bulk store with its commit and wait. ok is false for any other operation.
func (t *Test) asyncText(th, op int, o Op) (lines []string, ok bool) {
	switch {
	case o.Kind == MbarWait && o.Loop:
		label := fmt.Sprintf("LT%d%d", th, op)
		wait := fmt.Sprintf("mbarrier.try_wait%s %s, %s", mbarSem(o, Acquire), t.Reg(th, op), t.Addrs[o.Addr].Name)
		return []string{label + ":", wait, fmt.Sprintf("bne %s, 1, %s", t.Reg(th, op), label)}, true
	case o.Kind == MbarWait && o.Guard:
		return []string{t.asyncInstr(th, op, o), fmt.Sprintf("bne %s, 1, %s", t.Reg(th, op), guardLabel(th))}, true
	case o.Kind == MbarArrive && o.Remote:
		reg := fmt.Sprintf("ra%d", op)
		return []string{
			fmt.Sprintf("mapa.shared::cluster %s, %s, %d", reg, t.Addrs[o.Addr].Name, o.CTA),
			fmt.Sprintf("mbarrier.arrive%s.shared::cluster _, [%s]", remoteSem(o), reg),
		}, true
	case o.Kind == BulkLoad && o.Arm:
		return []string{fmt.Sprintf("mbarrier.arrive.expect_tx %s, 16", t.Addrs[o.Bar].Name), t.asyncInstr(th, op, o)}, true
	case o.Kind == BulkStore:
		wait := "cp.async.bulk.wait_group 0"
		if o.WaitRead {
			wait = "cp.async.bulk.wait_group.read 0"
		}
		return []string{t.asyncInstr(th, op, o), "cp.async.bulk.commit_group", wait}, true
	}
	return nil, false
}

// guardLabel is the label at the end of thread th that a guarded wait
// branches to.
func guardLabel(th int) string { return fmt.Sprintf("LW%d", th) }

// remoteSem spells a remote arrive's memory order and scope in full,
// since its scope decides whether the waiter sees it: ".release.cluster",
// ".release.cta".
func remoteSem(o Op) string {
	sem := o.Sem
	if sem == Weak {
		sem = Release
	}
	scope := CTA
	if o.Scope == Cluster {
		scope = Cluster
	}
	return "." + sem.String() + "." + scope.String()
}
