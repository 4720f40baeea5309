package rules

import (
	"sync"

	"github.com/ptxmm/ptxmm/datalog"
)

// Quiet plans. Finding the dead strata (findDead) walks every starting rule
// of the program: about 50,000 instructions on the PTX model, once per test
// of a host that checks many, which was a twentieth of the evaluation of a
// suite of small tests. What it finds depends only on which of the inputs
// the starting rules read are empty, and the tests of a suite leave empty
// the same few sets of them (no tensor memory, no restricted fence, no
// asynchronous proxy): the dead strata are kept per set, shared by the
// instances of a program that take the same QuietPlans.

// maxQuietPlans bounds the sets of empty inputs a QuietPlans keeps: past
// it, findDead computes the dead strata of a new set without keeping them.
const maxQuietPlans = 256

// QuietPlans keeps the dead strata of a program per set of empty inputs,
// for the instances given it (Instance.SetQuietPlans). It is safe for
// concurrent use.
type QuietPlans struct {
	p *Program
	// inputs lists the inputs some starting rule reads positively: the
	// only relations whose emptiness findDead asks about. A key has a bit
	// per entry, set when the input is empty. bit[r] is r's position in
	// inputs, or -1. Both are the program's (quietInputs).
	inputs []relID
	bit    []int32
	mu     sync.Mutex
	plans  map[string]*quietPlan
}

// quietPlan is what findDead found for one set of empty inputs.
type quietPlan struct {
	dead strataBits
	// watch lists the empty inputs findDead asked about, in the order it
	// asked, and full the inputs it found holding tuples.
	watch, full []relID
	// key is the plan's key (QuietPlans.key).
	key string
	// starved[i] has bit k set when rule k of stratum i, a stratum of at
	// most 64 rules that is not dead, has a positive atom over one of the
	// empty inputs or over a relation of a dead stratum: while the inputs
	// stay empty and the dead strata quiet, it derives nothing, and
	// runDirtyFlat passes over it without asking. starving lists the
	// empty inputs those rules read. Both are found once, when the plan
	// is first taken again (planFound); nil until then.
	once     sync.Once
	starved  []uint64
	starving []relID
}

// QuietPlans returns an empty cache of the program's dead strata per set of
// empty inputs, for SetQuietPlans.
func (p *Program) QuietPlans() *QuietPlans {
	return &QuietPlans{p: p, plans: map[string]*quietPlan{}, inputs: p.quietInputs, bit: p.quietBit}
}

// findQuietInputs lists the inputs the starting rules read positively
// (Program.quietInputs), when the program is compiled: a program read
// from its image at every start does not walk its rules for them.
func (p *Program) findQuietInputs() {
	p.quietBit = make([]int32, len(p.rels))
	for r := range p.quietBit {
		p.quietBit[r] = -1
	}
	for _, s := range p.strata {
		for _, rp := range s.starters {
			for _, r := range rp.positive {
				if p.quietBit[r] < 0 && p.rels[r].kind == datalog.RelInput {
					p.quietBit[r] = int32(len(p.quietInputs))
					p.quietInputs = append(p.quietInputs, r)
				}
			}
		}
	}
}

// SetQuietPlans gives the instance qp, of the instance's program
// (Program.QuietPlans): the instance then takes the dead strata of a set of
// empty inputs from it when another instance found them, and leaves there
// those it finds. Nil, or the plans of another program, takes it back.
// Reset keeps it.
func (in *Instance) SetQuietPlans(qp *QuietPlans) {
	if qp != nil && qp.p != in.p {
		qp = nil
	}
	in.quiet.plans = qp
}

// key writes into buf the bits of the inputs of qp that are empty in in.
func (qp *QuietPlans) key(in *Instance, buf []byte) []byte {
	buf = buf[:0]
	var b byte
	for k, r := range qp.inputs {
		c := &in.empty[r]
		if v := in.versions[r] + 1; c.at != v {
			c.at, c.is = v, in.stores[r].isEmpty()
		}
		if c.is {
			b |= 1 << uint(k&7)
		}
		if k&7 == 7 {
			buf = append(buf, b)
			b = 0
		}
	}
	if len(qp.inputs)&7 != 0 {
		buf = append(buf, b)
	}
	return buf
}

// lookup returns the plan kept for key, or nil.
func (qp *QuietPlans) lookup(key []byte) *quietPlan {
	qp.mu.Lock()
	defer qp.mu.Unlock()
	return qp.plans[string(key)]
}

// keep keeps plan for key, while there is room.
func (qp *QuietPlans) keep(key []byte, plan *quietPlan) {
	qp.mu.Lock()
	defer qp.mu.Unlock()
	if len(qp.plans) < maxQuietPlans {
		qp.plans[string(key)] = plan
	}
}

// planFound is findDead's shortcut: with a plan kept for the inputs empty
// now, it sets the dead strata, the watched inputs and the listed ones as
// findDead would, and reports true; otherwise it returns the key under
// which findDead keeps what it finds.
func (in *Instance) planFound() (found bool, key []byte) {
	q := &in.quiet
	q.key = q.plans.key(in, q.key)
	plan := q.plans.lookup(q.key)
	if plan == nil {
		return false, q.key
	}
	copy(q.dead, plan.dead)
	q.plan = plan
	for _, r := range plan.watch {
		in.watchInput(r)
	}
	for _, r := range plan.full {
		q.listInput(r)
	}
	// The starved rules are found when a plan is taken again (a single
	// test does not earn them back), and rest on empty inputs findDead may
	// not have asked about (it stops at a stratum's first live starter):
	// those are watched too, so that the plan is dropped when one fills.
	plan.once.Do(func() { plan.starved, plan.starving = q.plans.starvedRules(plan) })
	for _, r := range plan.starving {
		if !q.watched[r] {
			in.watchInput(r)
		}
	}
	q.planStarved = plan.starved
	return true, nil
}

// keepPlan leaves in the instance's QuietPlans, under key, the dead strata
// findDead found and the inputs it asked about.
func (in *Instance) keepPlan(key []byte) {
	q := &in.quiet
	plan := &quietPlan{dead: append(strataBits(nil), q.dead...)}
	for r, st := range q.starved {
		if st < 0 && in.p.rels[r].kind == datalog.RelInput {
			plan.full = append(plan.full, relID(r))
		}
	}
	plan.watch = append([]relID(nil), q.watch...)
	plan.key = string(key)
	q.plan = plan
	q.plans.keep(key, plan)
}

// starvedRules returns quietPlan.starved for plan, and the empty inputs
// that starve its rules.
func (qp *QuietPlans) starvedRules(plan *quietPlan) (out []uint64, starving []relID) {
	p := qp.p
	key, dead := plan.key, plan.dead
	seen := map[relID]bool{}
	out = make([]uint64, len(p.strata))
	for i, s := range p.strata {
		if dead.has(i) || len(s.rules) > 64 {
			continue
		}
		for k, rp := range s.rules {
			for _, r := range rp.positive {
				t := p.stratumOf[r]
				b := qp.bit[r]
				if t >= 0 && int(t) < i && dead.has(int(t)) {
					out[i] |= 1 << uint(k)
					break
				}
				if t < 0 && b >= 0 && key[b>>3]&(1<<uint(b&7)) != 0 {
					out[i] |= 1 << uint(k)
					if !seen[r] {
						seen[r] = true
						starving = append(starving, r)
					}
					break
				}
			}
		}
	}
	return out, starving
}
