package execution

import (
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/ptxmm/ptxmm/internal/payoff"
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
		s = &nogoodSets{byPair: map[[2]int][]int{}}
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
