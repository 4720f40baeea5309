package checker

import (
	"fmt"
	"unsafe"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/rules"
)

// keptCandidates counts the candidates a caller keeps (Candidates,
// CheckKeep) against Options.MaxKept and against what -max-memory leaves
// once the relations are reserved: keeping every candidate of a test of
// eight threads of a store and a load each took the REPL to 10.7 GB. With
// a shared Budget (a server), what they take is also reserved from it as
// they grow, without waiting, and given back by release once the caller
// has them (it then holds them under its own bound, a cache's size).
type keptCandidates struct {
	n        int
	bytes    int64
	reserved int64
}

// keepChunk is the least memory reserved from a shared budget at a time.
const keepChunk = 1 << 20

// add counts c; when it is one too many it sets the session's error,
// which ends the check, and reports false.
func (k *keptCandidates) add(s *session, c Candidate) bool {
	if s.err != nil {
		return false
	}
	k.n++
	if max := s.opts.MaxKept; max > 0 && k.n > max {
		s.err = &execution.LimitError{Limit: "candidate executions kept (one per choice of final writes)", Value: max,
			Flag: "-max-candidates", What: "test " + s.t.Name}
		return false
	}
	k.bytes += c.Bytes()
	limit := s.opts.MaxMemory
	if limit > 0 && k.bytes+s.reserved > limit {
		s.err = &rules.MemoryError{What: fmt.Sprintf("the candidate executions kept to list them (%d so far)", k.n),
			Need: k.bytes + s.reserved, AtLeast: true, Limit: limit}
		return false
	}
	if b := s.opts.Budget; b != nil && k.bytes > k.reserved {
		chunk := max(k.bytes-k.reserved, keepChunk)
		if !b.TryReserve(chunk) {
			s.err = &limits.BusyError{What: fmt.Sprintf("keeping the candidate executions of test %s (%d so far)", s.t.Name, k.n), Need: k.bytes}
			return false
		}
		k.reserved += chunk
	}
	return true
}

// release gives back what add reserved from the shared budget.
func (k *keptCandidates) release(b *limits.Budget) {
	for k.reserved > 0 {
		// Budget.Release caps what it gives back at the limit, as
		// Reserve caps what it takes: give back chunk by chunk.
		chunk := min(k.reserved, max(b.Limit(), 1))
		b.Release(chunk)
		k.reserved -= chunk
	}
}

// Bytes estimates what keeping c takes: the clone of its execution, its
// final writes and state, and its failures with the orders each holds. The
// runs its execution shares with the test's other candidates are not
// counted (execution.Run.Bytes counts them).
func (c Candidate) Bytes() int64 {
	b := int64(unsafe.Sizeof(c)) + c.Execution.Bytes() + 8*int64(len(c.Finals)) + int64(unsafe.Sizeof(Val{}))*int64(len(c.State))
	for _, f := range c.Failures {
		b += int64(unsafe.Sizeof(f)) + 8*int64(len(f.Witness))
		for _, r := range f.Orders {
			b += rules.RelBytes(r.N())
		}
	}
	return b
}
