package execution

import (
	"fmt"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/ptxmm/ptxmm/internal/payoff"
	"github.com/ptxmm/ptxmm/litmus"
)

// Nogoods are choices of reads-from that a model rejects whatever the
// other reads read: sets of (read, write) pairs such that every candidate
// of the combination of runs containing them all is of no interest. The
// host learns them (from candidates it rejected, by dropping the pairs it
// still rejects without) and adds them; the search then abandons every
// branch that contains one, without asking (Search.Nogoods). A set holds
// within its combination of runs (event indices change with the runs).
// Nogoods are safe for concurrent use: the parts of a split search share
// what each learns.
type Nogoods struct {
	mu      sync.Mutex
	byCombo map[string]*nogoodSets
	// hints are the sets learned in every combination, each pair named
	// by its events' places in the program (eventPlace) rather than by
	// indices: a set learned in one combination often holds in the
	// others, which share most of their events (the runs of a thread
	// that fails an await differ from the one that passes at once only
	// from the await on). Hints only say where to look: the host checks
	// one before it adds it to another combination (Hints).
	hints     [][][2]eventPlace
	hintsByPr map[[2]eventPlace][]int
	hintSeen  map[string]bool
	// learned and hits count the sets added and the branches they cut,
	// for Worth; asked counts the calls of Worth.
	learned, hits, asked atomic.Int64
}

// nogoodSets are the sets of one combination of runs.
type nogoodSets struct {
	mu   sync.RWMutex
	sets [][][2]int
	// byPair lists, per (read, write) pair, the sets containing it.
	byPair map[[2]int][]int
	// refuted marks the hints (by index) the host found not to hold in
	// this combination: they are not offered again.
	refuted map[int]bool
	// places indexes the combination's events by place, for the hints
	// (made on first use: the events of a combination are the same in
	// every search of it).
	places *placeIndex
}

// placeIndex is the place of each event of a combination of runs, and
// the event at each place.
type placeIndex struct {
	of []eventPlace
	at map[eventPlace]int
}

// placesOf returns the index of x's events by place, x being of the
// combination of s.
func (s *nogoodSets) placesOf(x *Execution) *placeIndex {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.places == nil || len(s.places.of) != len(x.Events) {
		idx := &placeIndex{of: make([]eventPlace, len(x.Events)), at: make(map[eventPlace]int, len(x.Events))}
		for e := range x.Events {
			idx.of[e] = placeOf(x, e)
			if _, dup := idx.at[idx.of[e]]; !dup {
				idx.at[idx.of[e]] = e
			}
		}
		s.places = idx
	}
	return s.places
}

// of returns the sets of a combination of runs, made on first use.
func (n *Nogoods) of(combo []int) *nogoodSets {
	key := fmt.Sprint(combo)
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.byCombo == nil {
		n.byCombo = map[string]*nogoodSets{}
	}
	s, ok := n.byCombo[key]
	if !ok {
		s = &nogoodSets{byPair: map[[2]int][]int{}, refuted: map[int]bool{}}
		n.byCombo[key] = s
	}
	return s
}

// Add records that the reads-from pairs of x for reads are rejected
// whatever the other reads read.
func (n *Nogoods) Add(x *Execution, reads []int) {
	set := make([][2]int, 0, len(reads))
	for _, r := range reads {
		set = append(set, [2]int{r, x.RF[r]})
	}
	s := n.of(x.Combo)
	s.mu.Lock()
	id := len(s.sets)
	s.sets = append(s.sets, set)
	for _, p := range set {
		s.byPair[p] = append(s.byPair[p], id)
	}
	s.mu.Unlock()
	n.learned.Add(1)
	n.addHint(x, set)
}

// eventPlace names an event by its place in the program, the same in
// every combination of runs that executes it: its thread, the step of
// the run that executes its instruction, the instruction, and which of
// the instruction's events it is (an initial write by its location).
type eventPlace struct {
	thread, step int
	instr        *litmus.Instr
	kind         EventKind
	role         Role
	elem, off    int
	loc          int
}

// placeOf returns the place of event e of x.
func placeOf(x *Execution, e int) eventPlace {
	ev := &x.Events[e]
	return eventPlace{thread: ev.Thread, step: ev.Step, instr: ev.Instr, kind: ev.Kind, role: ev.Role, elem: ev.Elem, off: ev.Off, loc: ev.Loc}
}

// addHint records set, learned in x's combination, as a hint for the
// others (once per distinct set of places).
func (n *Nogoods) addHint(x *Execution, set [][2]int) {
	hint := make([][2]eventPlace, len(set))
	for i, p := range set {
		hint[i] = [2]eventPlace{placeOf(x, p[0]), placeOf(x, p[1])}
	}
	key := fmt.Sprint(hint)
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.hintSeen[key] {
		return
	}
	if n.hintSeen == nil {
		n.hintSeen, n.hintsByPr = map[string]bool{}, map[[2]eventPlace][]int{}
	}
	n.hintSeen[key] = true
	id := len(n.hints)
	n.hints = append(n.hints, hint)
	for _, p := range hint {
		n.hintsByPr[p] = append(n.hintsByPr[p], id)
	}
}

// A Hint is a set learned in some combination of runs, as the reads of
// another combination it names (Nogoods.Hints).
type Hint struct {
	ID    int
	Reads []int
}

// Hints returns, for a candidate x whose reads-from pairs of reads are
// chosen, the sets learned (in any combination of runs) whose every pair
// x holds, each as the reads of x it names, smallest first, at most
// limit of them, leaving out those refuted in x's combination (Refute).
// They are only likely nogoods of x's combination: the host checks one
// before it adds it.
func (n *Nogoods) Hints(x *Execution, reads []int, limit int) []Hint {
	return n.hintsOf(n.of(x.Combo), x, reads, reads, limit)
}

// Refute records that hint h does not hold in x's combination of runs.
func (n *Nogoods) Refute(x *Execution, h Hint) {
	s := n.of(x.Combo)
	s.mu.Lock()
	s.refuted[h.ID] = true
	s.mu.Unlock()
}

// hintsOf is Hints for the sets holding the pair of one of with, in the
// combination whose sets are own. It is asked at every node of a search
// with hints, so it allocates nothing until a hint is found.
func (n *Nogoods) hintsOf(own *nogoodSets, x *Execution, reads, with []int, limit int) []Hint {
	n.mu.Lock()
	none := len(n.hints) == 0
	n.mu.Unlock()
	if none {
		return nil
	}
	places := own.placesOf(x)
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []Hint
	for i, r := range with {
		for _, id := range n.hintsByPr[[2]eventPlace{places.of[r], places.of[x.RF[r]]}] {
			if i > 0 && slices.ContainsFunc(out, func(h Hint) bool { return h.ID == id }) || own.isRefuted(id) {
				continue
			}
			if set := places.reads(x, reads, n.hints[id]); set != nil {
				out = append(out, Hint{ID: id, Reads: set})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b Hint) int { return len(a.Reads) - len(b.Reads) })
	if len(out) > limit {
		out = out[:limit]
	}
	return out
}

// isRefuted reports whether hint id was found not to hold in the
// combination (Refute).
func (s *nogoodSets) isRefuted(id int) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.refuted[id]
}

// reads returns the reads of x, among reads, that hint names, when x
// holds each of its pairs (nil otherwise).
func (idx *placeIndex) reads(x *Execution, reads []int, hint [][2]eventPlace) []int {
	var set []int
	for _, p := range hint {
		read, ok := idx.at[p[0]]
		if !ok || x.RF[read] < 0 || idx.of[x.RF[read]] != p[1] || !slices.Contains(reads, read) {
			return nil
		}
		set = append(set, read)
	}
	return set
}

// Worth reports whether learning another set may pay: learning takes an
// evaluation per pair, and pays when the sets cut branches. The policy of
// payoff.Nogoods says: at first always; then while the sets learned cut
// at least one branch each, and otherwise at the asks numbered by a power
// of two, to notice when they start paying (ever more rarely while they
// do not).
func (n *Nogoods) Worth() bool {
	asked := n.asked.Add(1)
	return payoff.Nogoods.Policy().Worth(n.learned.Load(), n.hits.Load(), asked)
}

// covers reports whether x, whose read r was just given its write, holds
// every pair of some set of s containing (r, x.RF[r]).
func (n *Nogoods) covers(s *nogoodSets, x *Execution, r int) bool {
	if s == nil {
		return false
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, id := range s.byPair[[2]int{r, x.RF[r]}] {
		if holdsSet(x, s.sets[id]) {
			n.hits.Add(1)
			return true
		}
	}
	return false
}

// shallowestHeld looks at the sets from index from on: among those x
// holds every pair of, it returns the smallest depth of a set, the depth
// of its deepest read (depth maps read events to their position in the
// search), or -1 when x holds none; and the number of sets.
func (s *nogoodSets) shallowestHeld(x *Execution, from int, depth []int) (int, int) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	best := -1
	for _, set := range s.sets[min(from, len(s.sets)):] {
		if !holdsSet(x, set) {
			continue
		}
		deepest := -1
		for _, p := range set {
			deepest = max(deepest, depth[p[0]])
		}
		if best < 0 || deepest < best {
			best = deepest
		}
	}
	return best, len(s.sets)
}

// holdsSet reports whether x reads every write of set as its read.
func holdsSet(x *Execution, set [][2]int) bool {
	for _, p := range set {
		if x.RF[p[0]] != p[1] {
			return false
		}
	}
	return true
}
