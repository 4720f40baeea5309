package catalog

import (
	"fmt"
	"slices"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
	"github.com/ptxmm/ptxmm/rules"
)

// Filler sets a model's input relations from candidate executions. It keeps
// the relations that depend only on the threads' runs between candidates
// that share them, so consecutive candidates of one combination of runs
// cost only their reads-from and barrier groups. A Filler is not safe for
// concurrent use.
type Filler struct {
	inputs []string // the model's .input relations
	// last identifies the combination of runs whose static relations the
	// instance already holds.
	lastInst  *rules.Instance
	lastCombo []int
	sets      map[string]*relations.Set
	rels      map[string]*relations.Rel
}

// NewFiller prepares to fill the inputs of model m (validated with Validate).
func NewFiller(m *datalog.Model) *Filler {
	return &Filler{inputs: m.Inputs()}
}

// choiceRelation reports whether a catalog relation depends on the choices
// of a candidate rather than only on the runs.
func choiceRelation(name string) bool { return name == "rf" || name == "bar" }

// Fill sets every input relation of the model in inst from x. The
// instance's domain must have one host atom per event of x, in event order,
// before any other atom.
func (f *Filler) Fill(inst *rules.Instance, x *execution.Execution) error {
	n := inst.Domain().Len()
	if n < len(x.Events) {
		return fmt.Errorf("catalog: the domain has %d atoms for %d events", n, len(x.Events))
	}
	static := f.lastInst != inst || !slices.Equal(f.lastCombo, x.Combo)
	if f.sets == nil || f.sizeOf() != n {
		f.sets = map[string]*relations.Set{}
		f.rels = map[string]*relations.Rel{}
		static = true
	}
	for _, name := range f.inputs {
		if !static && !choiceRelation(name) {
			continue
		}
		e, _ := Lookup(name)
		if e.Arity == 1 {
			s := f.set(name, n)
			fillSet(s, name, x)
			if err := inst.SetSet(name, s); err != nil {
				return err
			}
			continue
		}
		r := f.rel(name, n)
		fillRel(r, name, x)
		if err := inst.SetRel(name, r); err != nil {
			return err
		}
	}
	f.lastInst = inst
	f.lastCombo = append(f.lastCombo[:0], x.Combo...)
	return nil
}

func (f *Filler) sizeOf() int {
	for _, s := range f.sets {
		return s.N()
	}
	for _, r := range f.rels {
		return r.N()
	}
	return -1
}

func (f *Filler) set(name string, n int) *relations.Set {
	s, ok := f.sets[name]
	if !ok {
		s = relations.NewSet(n)
		f.sets[name] = s
	}
	s.Clear()
	return s
}

func (f *Filler) rel(name string, n int) *relations.Rel {
	r, ok := f.rels[name]
	if !ok {
		r = relations.NewRel(n)
		f.rels[name] = r
	}
	r.Clear()
	return r
}

// fillSet computes a catalog set.
func fillSet(s *relations.Set, name string, x *execution.Execution) {
	for i := range x.Events {
		if inSet(name, &x.Events[i]) {
			s.Add(i)
		}
	}
}

// inSet decides membership of one event in a catalog set.
func inSet(name string, ev *execution.Event) bool {
	in := ev.Instr
	mem := ev.Kind == execution.KindRead || ev.Kind == execution.KindWrite
	switch name {
	case "E":
		return true
	case "IW":
		return ev.IsInit()
	case "M":
		return mem
	case "R":
		return ev.Kind == execution.KindRead
	case "W":
		return ev.Kind == execution.KindWrite
	case "F":
		return ev.Kind == execution.KindFence
	case "PF":
		return ev.Kind == execution.KindProxyFence
	case "BAR":
		return ev.Kind == execution.KindBarrier
	case "BAR_SYNC":
		return ev.Kind == execution.KindBarrier && ev.BarSync
	case "BAR_ARRIVE":
		return ev.Kind == execution.KindBarrier && !ev.BarSync
	case "GEN":
		return ev.IsInit() || ((mem || ev.Kind == execution.KindFence || ev.Kind == execution.KindBarrier) && in.Proxy == litmus.ProxyGeneric)
	case "SUR", "TEX", "CON":
		want := map[string]litmus.Proxy{"SUR": litmus.ProxySurface, "TEX": litmus.ProxyTexture, "CON": litmus.ProxyConstant}[name]
		return !ev.IsInit() && (mem || (ev.Kind == execution.KindProxyFence && !in.Alias)) && in.Proxy == want
	case "ALIAS":
		return ev.Kind == execution.KindProxyFence && in.Alias
	}
	if ev.IsInit() {
		return false
	}
	switch name {
	case "LD":
		return in.Op == litmus.OpLoad
	case "ST":
		return in.Op == litmus.OpStore
	case "ATOM":
		return in.Op == litmus.OpAtom
	case "RED":
		return in.Op == litmus.OpRed
	}
	if ev.Kind == execution.KindProxyFence || ev.Kind == execution.KindBarrier {
		return false
	}
	switch name {
	case "WEAK":
		return mem && in.Sem == litmus.SemWeak
	case "RLX":
		return in.Sem == litmus.SemRelaxed
	case "ACQ":
		return in.Sem == litmus.SemAcquire
	case "REL":
		return in.Sem == litmus.SemRelease
	case "ACQ_REL":
		return in.Sem == litmus.SemAcqRel
	case "SC":
		return in.Sem == litmus.SemSC
	case "VOL":
		return in.Sem == litmus.SemVolatile
	case "MMIO":
		return in.Sem == litmus.SemMMIO
	case "CTA":
		return in.Scope == litmus.ScopeCTA
	case "CLUSTER":
		return in.Scope == litmus.ScopeCluster
	case "GPU":
		return in.Scope == litmus.ScopeGPU
	case "SYS":
		return in.Scope == litmus.ScopeSys
	}
	return false
}

// fillRel computes a catalog binary relation.
func fillRel(r *relations.Rel, name string, x *execution.Execution) {
	evs := x.Events
	pairs := func(ps [][2]int) {
		for _, p := range ps {
			r.Add(p[0], p[1])
		}
	}
	switch name {
	case "po":
		for t, run := range x.Runs {
			base := x.ThreadStart[t]
			for i := range run.Events {
				for j := i + 1; j < len(run.Events); j++ {
					r.Add(base+i, base+j)
				}
			}
		}
	case "rf":
		for i, w := range x.RF {
			if w >= 0 {
				r.Add(w, i)
			}
		}
	case "rmw":
		pairs(x.RMW)
	case "addr":
		pairs(x.Addr)
	case "data":
		pairs(x.Data)
	case "ctrl":
		pairs(x.Ctrl)
	case "bar":
		for _, g := range x.BarGroups {
			for _, a := range g {
				for _, b := range g {
					if a != b {
						r.Add(a, b)
					}
				}
			}
		}
	default:
		same := sameFunc(name, x)
		for i := range evs {
			for j := range evs {
				if same(&evs[i], &evs[j]) {
					r.Add(i, j)
				}
			}
		}
	}
}

// sameFunc returns the equivalence a "same ..." relation is made of.
func sameFunc(name string, x *execution.Execution) func(a, b *execution.Event) bool {
	isMem := func(e *execution.Event) bool {
		return e.Kind == execution.KindRead || e.Kind == execution.KindWrite
	}
	threads := x.Test.Threads
	l := x.Layout
	bothThreads := func(a, b *execution.Event) bool { return a.Thread >= 0 && b.Thread >= 0 }
	switch name {
	case "loc":
		return func(a, b *execution.Event) bool { return isMem(a) && isMem(b) && a.Loc == b.Loc }
	case "vaddr":
		return func(a, b *execution.Event) bool { return isMem(a) && isMem(b) && a.Loc == b.Loc && a.Addr == b.Addr }
	case "gaddr":
		return func(a, b *execution.Event) bool {
			return isMem(a) && isMem(b) && a.Loc == b.Loc && l.Addrs[a.Addr].Generic == l.Addrs[b.Addr].Generic
		}
	case "sthd":
		return func(a, b *execution.Event) bool { return bothThreads(a, b) && a.Thread == b.Thread }
	case "scta":
		return func(a, b *execution.Event) bool {
			return bothThreads(a, b) && threads[a.Thread].GPU == threads[b.Thread].GPU && threads[a.Thread].CTA == threads[b.Thread].CTA
		}
	case "sclu":
		return func(a, b *execution.Event) bool {
			return bothThreads(a, b) && threads[a.Thread].GPU == threads[b.Thread].GPU && threads[a.Thread].Cluster == threads[b.Thread].Cluster
		}
	case "sgpu":
		return func(a, b *execution.Event) bool {
			return bothThreads(a, b) && threads[a.Thread].GPU == threads[b.Thread].GPU
		}
	}
	return func(a, b *execution.Event) bool { return false }
}
