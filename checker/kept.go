package checker

import (
	"fmt"
	"unsafe"

	"github.com/ptxmm/ptxmm/rules"
)

// keptCandidates counts the memory of the candidates a caller keeps
// (Candidates, CheckKeep) against what -max-memory leaves once the
// relations are reserved: keeping every candidate of a test of eight
// threads of a store and a load each took the REPL to 10.7 GB.
type keptCandidates struct {
	n     int
	bytes int64
}

// add counts c; when the candidates kept outgrow the limit it sets the
// session's error, which ends the check, and reports false.
func (k *keptCandidates) add(s *session, c Candidate) bool {
	k.n++
	k.bytes += candidateBytes(c)
	limit := s.opts.MaxMemory
	if limit <= 0 || k.bytes+s.reserved <= limit {
		return true
	}
	if s.err == nil {
		s.err = &rules.MemoryError{What: fmt.Sprintf("the candidate executions kept to list them (%d so far)", k.n),
			Need: k.bytes + s.reserved, AtLeast: true, Limit: limit}
	}
	return false
}

// candidateBytes estimates what keeping c takes: the clone of its
// execution, its final writes and state, and its failures with the
// orders each holds.
func candidateBytes(c Candidate) int64 {
	b := int64(unsafe.Sizeof(c)) + c.Execution.Bytes() + 8*int64(len(c.Finals)) + int64(unsafe.Sizeof(Val{}))*int64(len(c.State))
	for _, f := range c.Failures {
		b += int64(unsafe.Sizeof(f)) + 8*int64(len(f.Witness))
		for _, r := range f.Orders {
			b += rules.RelBytes(r.N())
		}
	}
	return b
}
