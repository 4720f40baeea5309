package harness

import (
	"encoding/binary"
	"fmt"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
)

// initialMemory is the global memory of a launch's locations, each
// instance's copy set to the initial values.
func initialMemory(plan *ptxgen.Plan, g ptxgen.Geometry) []byte {
	b := make([]byte, g.LocationBytes(plan))
	for _, l := range plan.Globals {
		if l.Init == 0 {
			continue
		}
		for i := 0; i < g.Instances(); i++ {
			putValue(b[g.LocationOffset(plan, i, l.Index):], l.Init, l.Size)
		}
	}
	return b
}

// putValue writes v little-endian in size bytes, sign-extended past 8.
func putValue(b []byte, v int64, size int) {
	for k := 0; k < size; k++ {
		if k < 8 {
			b[k] = byte(v >> (8 * k))
		} else {
			b[k] = byte(v >> 63)
		}
	}
}

// readValue reads size (at most 8) bytes little-endian, extended as signed
// says.
func readValue(b []byte, size int, signed bool) int64 {
	var u uint64
	for k := size - 1; k >= 0; k-- {
		u = u<<8 | uint64(b[k])
	}
	if signed && size < 8 {
		shift := 64 - 8*size
		return int64(u<<shift) >> shift
	}
	return int64(u)
}

// histogram counts the distinct states.
type histogram struct {
	index  map[string]*Observed
	states []*Observed
	key    []byte
}

func newHistogram(plan *ptxgen.Plan) *histogram {
	return &histogram{index: map[string]*Observed{}}
}

// add counts one instance's values.
func (h *histogram) add(vals []int64) {
	h.key = h.key[:0]
	for _, v := range vals {
		h.key = binary.AppendVarint(h.key, v)
	}
	if s, ok := h.index[string(h.key)]; ok {
		s.Count++
		return
	}
	st := make(checker.State, len(vals))
	for i, v := range vals {
		st[i] = checker.Val{Defined: true, V: execution.Int(v)}
	}
	s := &Observed{State: st, Count: 1}
	h.index[string(h.key)] = s
	h.states = append(h.states, s)
}

// Status bits of a role's status word (see the module's header).
const (
	statusRan      = 1
	statusBounded  = 2
	statusFiltered = 4
)

// collect reads every instance's final state from a launch's results and
// location memory.
func (o *Outcome) collect(plan *ptxgen.Plan, g ptxgen.Geometry, results, locs []byte, hist *histogram) error {
	vals := make([]int64, len(plan.Observables))
	word := func(i, k int) uint64 {
		return binary.LittleEndian.Uint64(results[g.ResultOffset(plan, i, k):])
	}
	for i := 0; i < g.Instances(); i++ {
		o.Instances++
		var status uint64
		for _, r := range plan.Roles {
			st := word(i, r.Status)
			if st&statusRan == 0 {
				return fmt.Errorf("instance %d: thread %s did not run (a fault of the harness: please report it)", i, r.Thread.Name)
			}
			status |= st
		}
		switch {
		case status&statusBounded != 0:
			o.Bounded++
			continue
		case status&statusFiltered != 0:
			o.Filtered++
			continue
		}
		for k, ob := range plan.Observables {
			if ob.Result >= 0 {
				vals[k] = int64(word(i, ob.Result))
				continue
			}
			off := g.LocationOffset(plan, i, ob.Loc.Index)
			vals[k] = readValue(locs[off:], ob.Size, ob.Signed)
		}
		hist.add(vals)
	}
	return nil
}
