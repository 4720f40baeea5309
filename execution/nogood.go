package execution

import "slices"

// Nogoods are choices of reads-from that a model rejects whatever the
// other reads read: sets of (read, write) pairs such that every candidate
// of the combination of runs containing them all is of no interest. The
// host learns them (from candidates it rejected, by dropping the pairs it
// still rejects without) and adds them; the search then abandons every
// branch that contains one, without asking (Search.Nogoods). They are
// valid within one combination of runs (event indices change with the
// runs); the search forgets them when it moves to another.
type Nogoods struct {
	// combo is the combination of runs the sets are about.
	combo []int
	sets  [][][2]int
	// byPair lists, per (read, write) pair, the sets containing it.
	byPair map[[2]int][]int
	// learned and hits count the sets added and the branches they cut,
	// for Worth.
	learned, hits, asked int
}

// Add records that the reads-from pairs of x for reads are rejected
// whatever the other reads read.
func (n *Nogoods) Add(x *Execution, reads []int) {
	if n.byPair == nil {
		n.byPair = map[[2]int][]int{}
	}
	set := make([][2]int, 0, len(reads))
	for _, r := range reads {
		set = append(set, [2]int{r, x.RF[r]})
	}
	id := len(n.sets)
	n.sets = append(n.sets, set)
	for _, p := range set {
		n.byPair[p] = append(n.byPair[p], id)
	}
	n.learned++
}

// Worth reports whether learning another set may pay: learning takes an
// evaluation per pair, and pays when the sets cut branches. At first it
// always does; then while the sets learned cut at least one branch each
// (and one time in 32 anyway).
func (n *Nogoods) Worth() bool {
	n.asked++
	return n.learned < 8 || n.hits >= n.learned || n.asked%32 == 0
}

// covers reports whether x, whose read r was just given its write, holds
// every pair of some set containing (r, x.RF[r]).
func (n *Nogoods) covers(x *Execution, r int) bool {
	if n == nil || len(n.sets) == 0 {
		return false
	}
	for _, id := range n.byPair[[2]int{r, x.RF[r]}] {
		all := true
		for _, p := range n.sets[id] {
			if x.RF[p[0]] != p[1] {
				all = false
				break
			}
		}
		if all {
			n.hits++
			return true
		}
	}
	return false
}

// use makes the sets about the combination of runs combo, dropping them
// all when they were about another.
func (n *Nogoods) use(combo []int) {
	if n == nil || slices.Equal(n.combo, combo) {
		return
	}
	n.combo = append(n.combo[:0], combo...)
	if len(n.sets) > 0 {
		n.sets, n.byPair = n.sets[:0], map[[2]int][]int{}
	}
}
