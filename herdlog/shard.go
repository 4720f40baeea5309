package herdlog

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/internal/lazyregexp"
)

// Shard is the header ptxmm check -shard prints before the tests of one
// shard: which shard of which run, and how many tests its log must hold,
// so that a merge can tell a missing shard or a log cut short.
//
//	# ptxmm shard=2/4 plan=9f86d081884c7d65 tests=25/100 logged=24
//
// herd's log tools skip the line, as every line outside a test block.
type Shard struct {
	// Index and Count: shard Index (from 0) of Count.
	Index, Count int
	// Plan is a digest of the run's list of tests, in order: the shards of
	// one run have the same plan.
	Plan string
	// Taken is the number of tests the shard took, of Total in the run.
	Taken, Total int
	// Logged is the number of entries the shard's log holds: Taken less the
	// files that could not be read (those errors go to standard error).
	Logged int
}

const shardPrefix = "# ptxmm shard="

var shardHeader = lazyregexp.New(`^# ptxmm shard=([0-9]+)/([0-9]+) plan=([0-9a-f]+) tests=([0-9]+)/([0-9]+) logged=([0-9]+)[ \t]*$`)

// Header prints the shard's header line (without a newline).
func (s Shard) Header() string {
	return fmt.Sprintf("%s%d/%d plan=%s tests=%d/%d logged=%d", shardPrefix, s.Index, s.Count, s.Plan, s.Taken, s.Total, s.Logged)
}

// Name prints "shard I/N of plan P", for messages.
func (s Shard) Name() string { return fmt.Sprintf("shard %d/%d of plan %s", s.Index, s.Count, s.Plan) }

func isShardLine(line string) bool { return strings.HasPrefix(line, shardPrefix) }

// parseShardLine reads a shard header; ok tells whether the line is
// meant as one, err what is wrong with it.
func parseShardLine(line string) (s Shard, ok bool, err error) {
	if !isShardLine(line) {
		return s, false, nil
	}
	m := shardHeader().FindStringSubmatch(line)
	if m == nil {
		return s, true, fmt.Errorf("a shard header reads \"# ptxmm shard=I/N plan=HEX tests=T/R logged=L\"")
	}
	var n [5]int
	for k, field := range []string{m[1], m[2], m[4], m[5], m[6]} {
		if n[k], err = strconv.Atoi(field); err != nil {
			return s, true, fmt.Errorf("a shard header's number %s is out of range", field)
		}
	}
	s = Shard{Index: n[0], Count: n[1], Plan: m[3], Taken: n[2], Total: n[3], Logged: n[4]}
	switch {
	case s.Count < 1 || s.Index >= s.Count:
		return s, true, fmt.Errorf("shard %d/%d: the index counts from 0 and is below the count", s.Index, s.Count)
	case s.Taken > s.Total:
		return s, true, fmt.Errorf("shard %d/%d took %d tests of %d", s.Index, s.Count, s.Taken, s.Total)
	case s.Logged > s.Taken:
		return s, true, fmt.Errorf("shard %d/%d logged %d tests but took %d", s.Index, s.Count, s.Logged, s.Taken)
	}
	return s, true, nil
}
