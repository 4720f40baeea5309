package ptxmm

import (
	"fmt"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm/catalog"
)

// Event describes one event of an execution by its attributes, from which
// ExecutionBuilder derives the structural base relations.
type Event struct {
	// Name names the event in witnesses; names must be unique.
	Name string `json:"name"`
	// Sets lists the catalog sets the event is in (W, ST, REL, GPU, GEN,
	// IW, ...; docs/catalog.md). E, and M for an event in R or W, are
	// added.
	Sets []string `json:"sets,omitempty"`
	// Thread names the event's thread; empty for an event in no thread
	// (an initial write). Every event of one thread must give the same
	// Host, GPU, Launch, Cluster and CTA.
	Thread string `json:"thread,omitempty"`
	// Host marks a host thread's event (a CUDA call, a task it enqueued):
	// host threads are in no CTA, cluster or GPU.
	Host bool `json:"host,omitempty"`
	// GPU, Launch (the kernel launch), Cluster and CTA say where a device
	// thread runs: threads are in the same GPU (sgpu) when their GPU is
	// the same, in the same cluster (sclu) when their GPU, Launch and
	// Cluster are, and in the same CTA (scta) when their GPU, Launch and
	// CTA are. A device thread's event must give GPU and CTA; an empty
	// Cluster is the CTA's own (as in a litmus test that names no
	// cluster), an empty Launch one launch for all.
	GPU     string `json:"gpu,omitempty"`
	Launch  string `json:"launch,omitempty"`
	Cluster string `json:"cluster,omitempty"`
	CTA     string `json:"cta,omitempty"`
	// Memory events (those in R or W) name the physical Location they
	// access, the virtual Address they use (empty: the location's name)
	// and the Generic address that aliases it (empty: Address; a
	// surface, texture or constant reference has the generic address it
	// aliases). Offset and Size are the bytes of the location accessed;
	// Size 0 means the whole location. OpOffset and OpSize are those of
	// the event's operation, where a read spanning several writes' bytes is
	// one event per piece (OpSize 0: Offset and Size).
	Location string `json:"location,omitempty"`
	Address  string `json:"address,omitempty"`
	Generic  string `json:"generic,omitempty"`
	Offset   int    `json:"offset,omitempty"`
	Size     int    `json:"size,omitempty"`
	OpOffset int    `json:"op_offset,omitempty"`
	OpSize   int    `json:"op_size,omitempty"`
	// Instr names the instruction instance of a thread the event belongs
	// to: events of one thread with the same Instr are same_instr (the
	// read and write of an atom); empty means an instruction of its own.
	Instr string `json:"instr,omitempty"`
	// Slice numbers, from 1, the destination CTA of a .multicast::cluster
	// load that the event belongs to; 0 (the default) is the whole
	// instruction, as a load's issue and source read are. Events of one
	// Instr with two different nonzero slices are not same_instr
	// (docs/catalog.md).
	Slice int `json:"slice,omitempty"`
	// CtaGroup and Shape are a tcgen05 event's .cta_group::N (empty: 1)
	// and shape, kind and packing qualifiers, for same_cta_group and
	// same_shape.
	CtaGroup string `json:"cta_group,omitempty"`
	Shape    string `json:"shape,omitempty"`
}

// ExecutionBuilder makes an Execution from events described by their
// attributes and the relations between them the host knows (po, rf, rmw,
// the dependencies, barrier groups, the host relations), so that a host
// describes events rather than the structural relations by hand: it
// derives E, M, loc, vaddr, gaddr, same_bytes, sthd, scta, sclu, sgpu,
// same_instr, same_cta_group and same_shape. The Execution it builds gives
// every base relation of the catalog: a set no event lists and a relation
// nothing relates are empty. It refuses a read that does not read from
// exactly one write of an overlapping location (rf), the one relation
// every execution with reads must give.
//
// Its fields are what it was given, so that it can be written as JSON
// (ptxmm oracle's "build" requests).
type ExecutionBuilder struct {
	Events []Event `json:"events"`
	// Relations are the relations given, by pairs of event indices.
	Relations map[string][][2]int `json:"relations,omitempty"`
	// Orders are the run-time orders given (Execution.Orders).
	Orders map[string][][2]int `json:"orders,omitempty"`
}

// NewExecutionBuilder returns an empty builder.
func NewExecutionBuilder() *ExecutionBuilder { return &ExecutionBuilder{} }

// Add adds an event and returns its index.
func (b *ExecutionBuilder) Add(e Event) int {
	b.Events = append(b.Events, e)
	return len(b.Events) - 1
}

// Relate relates event from to event to in a base relation.
func (b *ExecutionBuilder) Relate(name string, from, to int) {
	if b.Relations == nil {
		b.Relations = map[string][][2]int{}
	}
	b.Relations[name] = append(b.Relations[name], [2]int{from, to})
}

// Order relates event from to event to in a run-time order of the model
// (Execution.Orders).
func (b *ExecutionBuilder) Order(name string, from, to int) {
	if b.Orders == nil {
		b.Orders = map[string][][2]int{}
	}
	b.Orders[name] = append(b.Orders[name], [2]int{from, to})
}

// derived are the relations Build derives from the events' attributes.
var derived = []string{"E", "M", "loc", "vaddr", "gaddr", "same_bytes", "sthd", "scta", "sclu", "sgpu", "same_instr", "same_cta_group", "same_shape"}

// Build derives the structural relations and returns the execution.
func (b *ExecutionBuilder) Build() (*Execution, error) {
	x := &Execution{Sets: map[string][]int{}, Relations: map[string][][2]int{}, Orders: b.Orders}
	for _, e := range catalog.Entries() {
		if e.Arity == 1 {
			x.Sets[e.Name] = []int{}
		} else {
			x.Relations[e.Name] = [][2]int{}
		}
	}
	evs, err := b.events()
	if err != nil {
		return nil, err
	}
	for i, e := range evs {
		x.Events = append(x.Events, e.Name)
		for _, s := range e.sets {
			x.Sets[s] = append(x.Sets[s], i)
		}
	}
	for _, name := range sortedKeys(b.Relations) {
		entry, ok := catalog.Lookup(name)
		switch {
		case !ok:
			return nil, fmt.Errorf("execution: %s is not a catalog relation (see docs/catalog.md)", name)
		case entry.Arity != 2:
			return nil, fmt.Errorf("execution: %s is a set of the catalog: list it in the events' Sets", name)
		case slices.Contains(derived, name):
			return nil, fmt.Errorf("execution: %s is derived from the events' attributes: it cannot be given", name)
		}
		for _, p := range b.Relations[name] {
			for _, i := range p {
				if i < 0 || i >= len(evs) {
					return nil, fmt.Errorf("execution: %s: event index %d is out of range (there are %d events)", name, i, len(evs))
				}
			}
		}
		x.Relations[name] = append(x.Relations[name], b.Relations[name]...)
	}
	for name, same := range structural() {
		var pairs [][2]int
		for i := range evs {
			for j := range evs {
				if same(&evs[i], &evs[j]) {
					pairs = append(pairs, [2]int{i, j})
				}
			}
		}
		x.Relations[name] = append(x.Relations[name], pairs...)
	}
	if err := readsFrom(evs, x.Relations["rf"]); err != nil {
		return nil, err
	}
	return x, nil
}

// event is an Event with what Build works out of it.
type event struct {
	Event
	sets            []string
	mem, thread     bool
	device          bool
	cluster         string
	opOffset, opLen int
	address         string
	generic         string
}

// events checks the events' attributes and completes them.
func (b *ExecutionBuilder) events() ([]event, error) {
	threads := map[string]*Event{}
	names := map[string]bool{}
	out := make([]event, len(b.Events))
	for i, e := range b.Events {
		what := fmt.Sprintf("execution: event %d (%q)", i, e.Name)
		if names[e.Name] {
			return nil, fmt.Errorf("%s: the name is taken by another event; names must be unique", what)
		}
		names[e.Name] = true
		ev := event{Event: e, sets: []string{"E"}, thread: e.Thread != ""}
		for _, s := range e.Sets {
			entry, ok := catalog.Lookup(s)
			switch {
			case !ok:
				return nil, fmt.Errorf("%s: %s is not a set of the catalog (see docs/catalog.md)", what, s)
			case entry.Arity != 1:
				return nil, fmt.Errorf("%s: %s is a relation of the catalog, not a set: relate it with Relate", what, s)
			case slices.Contains(derived, s):
				continue // E and M are added below
			}
			if !slices.Contains(ev.sets, s) {
				ev.sets = append(ev.sets, s)
			}
			ev.mem = ev.mem || s == "R" || s == "W"
		}
		if ev.mem {
			ev.sets = append(ev.sets, "M")
			if e.Location == "" {
				return nil, fmt.Errorf("%s: a memory event (in R or W) names the Location it accesses", what)
			}
			if e.Offset < 0 || e.Size < 0 || e.OpOffset < 0 || e.OpSize < 0 {
				return nil, fmt.Errorf("%s: offsets and sizes cannot be negative", what)
			}
		}
		if e.Slice < 0 {
			return nil, fmt.Errorf("%s: a slice numbers a multicast destination from 1 (0: the whole instruction), found %d", what, e.Slice)
		}
		ev.address, ev.generic = cmpOr(e.Address, e.Location), cmpOr(e.Generic, cmpOr(e.Address, e.Location))
		ev.opOffset, ev.opLen = e.OpOffset, e.OpSize
		if e.OpSize == 0 {
			ev.opOffset, ev.opLen = e.Offset, e.Size
		}
		if ev.thread {
			ev.device = !e.Host
			if ev.device && (e.GPU == "" || e.CTA == "") {
				return nil, fmt.Errorf("%s: an event of a device thread gives its GPU and CTA (thread %s)", what, e.Thread)
			}
			ev.cluster = cmpOr(e.Cluster, "cta "+e.CTA)
			if first, ok := threads[e.Thread]; !ok {
				threads[e.Thread] = &b.Events[i]
			} else if first.Host != e.Host || first.GPU != e.GPU || first.Launch != e.Launch || first.Cluster != e.Cluster || first.CTA != e.CTA {
				return nil, fmt.Errorf("%s: thread %s is placed elsewhere by event %q (host, GPU, launch, cluster and CTA must agree)", what, e.Thread, first.Name)
			}
		}
		out[i] = ev
	}
	return out, nil
}

func cmpOr(s, dflt string) string {
	if s == "" {
		return dflt
	}
	return s
}

// overlap reports memory events that access a common byte of a location
// (a size of 0 is the whole location).
func overlap(a, b *event) bool {
	if !a.mem || !b.mem || a.Location != b.Location {
		return false
	}
	if a.Size == 0 || b.Size == 0 {
		return true
	}
	return a.Offset < b.Offset+b.Size && b.Offset < a.Offset+a.Size
}

// structural returns the equivalences Build derives, as the catalog
// defines them (docs/catalog.md).
func structural() map[string]func(a, b *event) bool {
	both := func(a, b *event) bool { return a.thread && b.thread }
	device := func(a, b *event) bool { return a.device && b.device }
	isTC := func(e *event) bool { return slices.Contains(e.sets, "TC") }
	return map[string]func(a, b *event) bool{
		"loc":   overlap,
		"vaddr": func(a, b *event) bool { return overlap(a, b) && a.address == b.address },
		"gaddr": func(a, b *event) bool { return overlap(a, b) && a.generic == b.generic },
		"same_bytes": func(a, b *event) bool {
			return a.mem && b.mem && a.Location == b.Location && a.opOffset == b.opOffset && a.opLen == b.opLen
		},
		"sthd": func(a, b *event) bool { return both(a, b) && a.Thread == b.Thread },
		"same_instr": func(a, b *event) bool {
			return both(a, b) && a.Thread == b.Thread && (a == b || a.Instr != "" && a.Instr == b.Instr &&
				(a.Slice == 0 || b.Slice == 0 || a.Slice == b.Slice))
		},
		"scta": func(a, b *event) bool {
			return device(a, b) && a.GPU == b.GPU && a.Launch == b.Launch && a.CTA == b.CTA
		},
		"sclu": func(a, b *event) bool {
			return device(a, b) && a.GPU == b.GPU && a.Launch == b.Launch && a.cluster == b.cluster
		},
		"sgpu": func(a, b *event) bool { return device(a, b) && a.GPU == b.GPU },
		"same_cta_group": func(a, b *event) bool {
			return both(a, b) && isTC(a) && isTC(b) && cmpOr(a.CtaGroup, "1") == cmpOr(b.CtaGroup, "1")
		},
		"same_shape": func(a, b *event) bool { return both(a, b) && isTC(a) && isTC(b) && a.Shape == b.Shape },
	}
}

// readsFrom refuses reads-from that is not a function from the reads to
// writes of overlapping locations.
func readsFrom(evs []event, rf [][2]int) error {
	from := make([][]int, len(evs))
	for _, p := range rf {
		w, r := &evs[p[0]], &evs[p[1]]
		switch {
		case !slices.Contains(w.sets, "W") || !slices.Contains(r.sets, "R"):
			return fmt.Errorf("execution: rf relates %q to %q: it goes from a write (W) to a read (R)", w.Name, r.Name)
		case !overlap(w, r):
			return fmt.Errorf("execution: rf relates %q to %q, which access no common byte of a location", w.Name, r.Name)
		}
		from[p[1]] = append(from[p[1]], p[0])
	}
	for i := range evs {
		if !slices.Contains(evs[i].sets, "R") {
			continue
		}
		switch ws := from[i]; len(ws) {
		case 0:
			return fmt.Errorf("execution: read %q reads from no write: relate its write to it in rf", evs[i].Name)
		case 1:
		default:
			var names []string
			for _, w := range ws {
				names = append(names, fmt.Sprintf("%q", evs[w].Name))
			}
			return fmt.Errorf("execution: read %q reads from %d writes (%s): a read reads from one write (one read event per piece of bytes)", evs[i].Name, len(ws), strings.Join(names, ", "))
		}
	}
	return nil
}
