package fill

import (
	"context"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/relations"
)

// The "same ..." relations (loc, vaddr, gaddr, same_bytes, sthd,
// same_instr, same_cta_group, same_shape, scta, sclu, sgpu) relate two
// events by what each has alone: its location and bytes, its thread, its
// instruction's qualifiers, its thread's place in the grid. They are
// filled by classes: the events are grouped by that signature, and each
// pair of related classes is added at once (relations.Rel.AddProduct), a
// row a word operation, rather than testing every pair of events: the
// pair tests and their additions were a tenth of a small test's static
// fill. same_pairs_test.go holds the pairwise definitions the classes are
// checked against.

// signature is what a "same ..." relation looks at in an event. Events of
// different parts are never related; within a part, the relation relates
// two events by their signatures alone.
// Four integers, compared without a call: the comparison is most of
// grouping a small test's events.
type signature struct{ part, a, b, c int }

// sameRelation gives a "same ..." relation by signatures.
type sameRelation struct {
	// sig returns an event's signature; false for an event related to none.
	sig func(x *execution.Execution, e *execution.Event) (signature, bool)
	// related says whether the events of two signatures of one part are
	// related; nil when exactly those of equal signatures are (the classes
	// are the relation's).
	related func(s, t *signature) bool
	// slices, with related nil, says that a signature's b numbers a slice
	// of the events of equal part and a (a destination of a multicast
	// load): the events of one slice are related, and those whose b is 0
	// (the instruction's issue and read) are related to every slice.
	slices bool
}

// sameRelationOf returns the "same ..." relation name, and false for a
// name that is none.
func sameRelationOf(name string) (sameRelation, bool) {
	// overlap: the bytes [a, a+b) of two accesses meet.
	overlap := func(s, t *signature) bool { return s.a < t.a+t.b && t.a < s.a+s.b }
	// bytes: a memory event's location and bytes (execution.Overlap).
	bytes := func(e *execution.Event) (signature, bool) {
		return signature{part: e.Loc, a: e.Off, b: e.Size}, e.IsMemory()
	}
	tcgen05 := func(e *execution.Event) bool { return e.Thread >= 0 && e.Instr.Op == litmus.OpTcgen05 }
	// device returns the thread of a device thread's event: host threads
	// are in no CTA, cluster or GPU.
	device := func(x *execution.Execution, e *execution.Event) (*litmus.Thread, bool) {
		if e.Thread < 0 || x.Test.Threads[e.Thread].Host {
			return nil, false
		}
		return x.Test.Threads[e.Thread], true
	}
	switch name {
	case "loc":
		return sameRelation{
			sig:     func(_ *execution.Execution, e *execution.Event) (signature, bool) { return bytes(e) },
			related: overlap,
		}, true
	case "vaddr", "gaddr":
		// The address an access names, or its generic address: c.
		generic := name == "gaddr"
		return sameRelation{
			sig: func(x *execution.Execution, e *execution.Event) (signature, bool) {
				s, ok := bytes(e)
				if s.c = e.Addr; ok && generic {
					s.c = x.Layout.Addrs[e.Addr].Generic
				}
				return s, ok
			},
			related: func(s, t *signature) bool { return s.c == t.c && overlap(s, t) },
		}, true
	case "same_bytes":
		return sameRelation{sig: func(_ *execution.Execution, e *execution.Event) (signature, bool) {
			return signature{part: e.Loc, a: e.OpOff, b: e.OpSize}, e.IsMemory()
		}}, true
	case "sthd":
		return sameRelation{sig: func(_ *execution.Execution, e *execution.Event) (signature, bool) {
			return signature{part: e.Thread}, e.Thread >= 0
		}}, true
	case "same_instr":
		// The events of one destination CTA of a multicast load are a
		// slice of its instance (execution.Event.Elem): each CTA's
		// complete-tx follows the write into that CTA, not the others'
		// (docs/model.md, "Multicast loads").
		return sameRelation{sig: func(_ *execution.Execution, e *execution.Event) (signature, bool) {
			s := signature{part: e.Thread, a: e.Step}
			if e.Thread >= 0 && e.Instr.CtaMask.Kind != litmus.OperandNone {
				s.b = e.Elem
			}
			return s, e.Thread >= 0
		}, slices: true}, true
	case "same_cta_group":
		return sameRelation{sig: func(_ *execution.Execution, e *execution.Event) (signature, bool) {
			if !tcgen05(e) {
				return signature{}, false
			}
			return signature{a: e.Instr.CtaGroup}, true
		}}, true
	case "same_shape":
		return sameRelation{sig: func(x *execution.Execution, e *execution.Event) (signature, bool) {
			if !tcgen05(e) {
				return signature{}, false
			}
			return signature{a: firstShape(x, e)}, true
		}}, true
	case "scta", "sclu", "sgpu":
		// CTA and cluster numbers are per kernel launch (Table 21, 8.3).
		return sameRelation{sig: func(x *execution.Execution, e *execution.Event) (signature, bool) {
			t, ok := device(x, e)
			if !ok {
				return signature{}, false
			}
			switch name {
			case "scta":
				return signature{part: t.GPU, a: t.Launch, b: t.CTA}, true
			case "sclu":
				return signature{part: t.GPU, a: t.Launch, b: t.Cluster}, true
			}
			return signature{part: t.GPU}, true
		}}, true
	}
	return sameRelation{}, false
}

// firstShape returns the first tcgen05 event of x with the shape of e's
// instruction: a shape as a number, for a signature.
func firstShape(x *execution.Execution, e *execution.Event) int {
	for i := range x.Events {
		if f := &x.Events[i]; f.Thread >= 0 && f.Instr.Op == litmus.OpTcgen05 && f.Instr.Shape == e.Instr.Shape {
			return i
		}
	}
	return -1 // not reached: e is one
}

// sameFiller returns the filler of a "same ..." relation. What it keeps
// from one fill to the next is reused: a Filler fills one execution at a
// time.
func sameFiller(rel sameRelation) relFiller {
	var c sameClasses
	return func(ctx context.Context, r *relations.Rel, x *execution.Execution) error {
		c.group(rel, x, r.N())
		for i := range c.sigs {
			// ctx is looked at every ctxEvery classes: the pairs of
			// classes are as many as the pairs of events of a test whose
			// events all differ.
			if i%ctxEvery == ctxEvery-1 {
				if err := ctx.Err(); err != nil {
					return err
				}
			}
			if rel.related == nil {
				r.AddProduct(c.members[i], c.members[i])
				if rel.slices && c.sigs[i].b != 0 {
					whole := c.sigs[i]
					whole.b = 0
					if j, ok := c.find(whole); ok {
						r.AddProduct(c.members[i], c.members[j])
						r.AddProduct(c.members[j], c.members[i])
					}
				}
				continue
			}
			for j := range c.sigs {
				if c.sigs[i].part == c.sigs[j].part && rel.related(&c.sigs[i], &c.sigs[j]) {
					r.AddProduct(c.members[i], c.members[j])
				}
			}
		}
		return nil
	}
}

// ctxEvery is how many classes sameFiller relates between two looks at
// its context: a look costs more than relating a class of a small test
// (put looks before each relation too).
const ctxEvery = 16

// sameClasses groups the events of an execution by signature.
type sameClasses struct {
	sigs    []signature
	members []*relations.Set // the events of each signature
	// index finds a signature's class once there are more than
	// scanClasses: below, a look through them costs less than hashing.
	index map[signature]int
	last  int // the class found last: events of one class often follow
}

// scanClasses is how many classes are looked through before the index.
const scanClasses = 16

// group groups the events of x, of a domain of n atoms, by their
// signatures under rel.
func (c *sameClasses) group(rel sameRelation, x *execution.Execution, n int) {
	c.sigs, c.last = c.sigs[:0], 0
	clear(c.index)
	for i := range x.Events {
		s, ok := rel.sig(x, &x.Events[i])
		if ok {
			c.members[c.classOf(s, n)].Add(i)
		}
	}
}

// find returns the class of signature s once the events are grouped,
// and false when no event has it.
func (c *sameClasses) find(s signature) (int, bool) {
	if len(c.sigs) > scanClasses {
		k, ok := c.index[s]
		return k, ok
	}
	for k := range c.sigs {
		if c.sigs[k] == s {
			return k, true
		}
	}
	return 0, false
}

// classOf returns the class of signature s, made empty over n atoms when
// it is new.
func (c *sameClasses) classOf(s signature, n int) int {
	if c.last < len(c.sigs) && c.sigs[c.last] == s {
		return c.last
	}
	if len(c.sigs) <= scanClasses {
		for k := range c.sigs {
			if c.sigs[k] == s {
				c.last = k
				return k
			}
		}
	} else if k, ok := c.index[s]; ok {
		c.last = k
		return k
	}
	k := len(c.sigs)
	c.sigs = append(c.sigs, s)
	if k == len(c.members) {
		c.members = append(c.members, relations.NewSet(n))
	}
	if c.members[k].N() != n {
		c.members[k] = relations.NewSet(n)
	}
	c.members[k].Clear()
	if len(c.sigs) > scanClasses {
		if c.index == nil {
			c.index = map[signature]int{}
		}
		if len(c.index) == 0 {
			for j, t := range c.sigs {
				c.index[t] = j
			}
		}
		c.index[s] = k
	}
	c.last = k
	return k
}
