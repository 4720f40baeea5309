// Package rules owns evaluation: it compiles a checked datalog.Model into
// per-rule plans, orders the relations into strata by their strongly
// connected components, and runs each stratum to a fixpoint with semi-naive
// evaluation over bitset relations (package relations). Rules whose bodies
// are chains of binary atoms become relation-algebra plans (composition,
// intersection, masks, AND-NOT); linear transitive closures run as a closure
// operator; everything else falls back to a general join, so every valid
// program runs.
//
// An Instance holds one evaluation: the atoms of the domain, the input
// relations supplied by the host, and every derived relation. After an
// input changes, only the strata that depend on it are recomputed, which is
// what makes checking thousands of candidate executions cheap; the strata
// that empty inputs starve are passed over as a group (quiet.go), and on
// small domains each rule runs as a flat list of resolved operations
// compiled once per instance (flat.go). The package also evaluates the
// named checks with witnesses, and searches the .order relations (the
// run-time orders of a memory model) for a choice that makes every check
// hold, pruning with checks that are monotone in the order and orienting
// first the pairs those checks decide (forced.go, ways.go).
//
// An Instance's jobs each have a type of their own, which Reset forgets or
// keeps as a whole: which strata to recompute and the shortcuts that spare
// them (stratumSchedule, schedule.go), the trail of incremental steps
// (incremental, incr.go), the order search (orderSearch, search.go), the
// flags' bounds (flagBounds, flagbound.go), the quiet strata and the flat
// rules, stopping (interrupter, interrupt.go), the memory account (memory,
// limits.go) and provenance (provenance.go). Whether a shortcut pays is
// decided by the policies of package internal/payoff, shared with the
// checker and the candidate search.
package rules
