// Package payoff decides whether a shortcut is worth trying. ptxmm takes
// several shortcuts that cost something each time they are tried and pay
// only in some searches: the evaluator's stratum cutoff and its test for
// strata that derive nothing, the order search's ways of forcing pairs,
// the checker's warm start, the search's questions about partial
// candidates and its learned sets of reads-from pairs. Each keeps a record of its tries and what they gained, and asks
// its Policy, all of whose constants are in one table (policies), whether
// to try again. What a policy decides changes how fast ptxmm goes, never
// what it finds.
package payoff

// Shortcut names a shortcut whose payoff is measured.
type Shortcut uint8

const (
	// StratumCutoff compares a stratum's relations before and after the
	// evaluator recomputes it, sparing its readers when they are the same
	// (rules). A try gains when they are.
	StratumCutoff Shortcut = iota
	// DerivesNothing tests, before running a stratum, whether empty
	// relations starve it (rules). A try gains when they do.
	DerivesNothing
	// WarmStart tries the orders that made the last candidate consistent
	// on the next one (checker). A try gains when they make it consistent.
	WarmStart
	// Prune asks a model about a partial candidate (execution). A try
	// gains the candidates it leaves out.
	Prune
	// Nogoods learns a set of reads-from pairs that no consistent
	// candidate holds (execution). A try (a set learned) gains the
	// branches the sets cut.
	Nogoods
	// ForcingWays follows a way from an order's pair to a check's
	// relation, to find the pairs the check forces (rules' order
	// search). A try (a direction of a pair followed) gains when it
	// finds the check failing; the visits are the calls that consider
	// the way's forcing, and following one costs little next to the
	// search node a failure spares, so a way pays while one direction in
	// 1024 fails.
	ForcingWays
)

// Policy says when a shortcut is worth trying, from its record at one
// place (a stratum, a depth of a search): the tries, what they gained, and
// the number of the visit (a time it could be tried), counted from 1 or,
// for a stratum, its runs counted from 0.
type Policy struct {
	// Warmup: a shortcut tried fewer times is tried.
	Warmup int64
	// Gain: a shortcut is tried while Gain times what it gained is at
	// least its tries (4: while one try in four pays; 1: while the tries
	// gain at least one each on average).
	Gain int64
	// Every: a shortcut that does not pay is tried anyway at the visits
	// numbered by a multiple of Every, to notice when it starts paying; 0
	// for the visits numbered by a power of two (ever more rarely).
	Every int64
}

// policies is the table of every shortcut's constants.
var policies = [...]Policy{
	StratumCutoff:  {Warmup: 16, Gain: 4, Every: 32},
	DerivesNothing: {Warmup: 16, Gain: 4, Every: 32},
	WarmStart:      {Warmup: 16, Gain: 4, Every: 32},
	// Prune retries at the visits numbered by a power of two: in an
	// asynchronous search a depth where no question pays is visited
	// thousands of times, and retrying at every 32nd visit made most of
	// the questions of the 4-stage TMA ring (4,387 asked, 37 leaving
	// anything out; docs/benchmarks.md).
	Prune:       {Warmup: 16, Gain: 1, Every: 0},
	Nogoods:     {Warmup: 8, Gain: 1, Every: 0},
	ForcingWays: {Warmup: 64, Gain: 1024, Every: 256},
}

// Pays reports whether the shortcut is tried at every visit: it is still
// warming up, or what it gained is enough for its tries. A shortcut that
// does not pay is tried only at the visits Every picks (Worth).
func (p Policy) Pays(tries, gained int64) bool {
	return tries < p.Warmup || p.Gain*gained >= tries
}

// Policy returns the shortcut's policy.
func (s Shortcut) Policy() Policy { return policies[s] }

// Worth reports whether to try the shortcut at this visit, given its
// tries so far and what they gained.
func (p Policy) Worth(tries, gained, visit int64) bool {
	if p.Pays(tries, gained) {
		return true
	}
	if p.Every > 0 {
		return visit%p.Every == 0
	}
	return visit&(visit-1) == 0
}
