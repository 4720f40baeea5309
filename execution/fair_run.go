package execution

import (
	"encoding/binary"
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
)

// This file runs a program of the fragment FairTermination decides
// (fair.go) as the interleavings of its threads.

// fairState is a state vector: the locations' values, then for each
// thread its program counter and registers.
type fairState []int64

// key appends the state's encoding to buf.
func (s fairState) key(buf []byte) []byte {
	for _, v := range s {
		buf = binary.AppendVarint(buf, v)
	}
	return buf
}

// stateIndex numbers state vectors in the order they are first met.
type stateIndex struct {
	index map[string]int
	buf   []byte
}

// number returns s's number, and whether s is new (then numbered next).
func (x *stateIndex) number(s fairState) (int, bool) {
	if x.index == nil {
		x.index = map[string]int{}
	}
	x.buf = s.key(x.buf[:0])
	if i, ok := x.index[string(x.buf)]; ok {
		return i, false
	}
	i := len(x.index)
	x.index[string(x.buf)] = i
	return i, true
}

// finished reports whether thread i has executed its last instruction.
func (p *fairProgram) finished(s fairState, i int) bool {
	return s[p.base[i]] >= int64(len(p.t.Threads[i].Instrs))
}

func (p *fairProgram) start() fairState {
	s := make(fairState, max(1, len(p.init)))
	copy(s, p.init)
	for i := range p.t.Threads {
		s = append(s, 0)
		s = append(s, p.regInit[i]...)
	}
	return s
}

// step executes thread i's next instruction in s, returning the new state.
func (p *fairProgram) step(s fairState, i int) (fairState, error) {
	th := p.t.Threads[i]
	b := p.base[i]
	n := append(fairState(nil), s...)
	pc := int(n[b])
	in := th.Instrs[pc]
	reg := func(name string) *int64 { return &n[b+1+p.regs[i][name]] }
	val := func(o litmus.Operand) Value {
		switch o.Kind {
		case litmus.OperandReg:
			return Int(*reg(o.Reg))
		case litmus.OperandImm:
			return Int(o.Imm)
		}
		return Int(0)
	}
	next := int64(pc + 1)
	if in.Guard.Kind != litmus.OperandNone && (val(in.Guard).N != 0) == in.GuardNeg {
		n[b] = next
		return n, nil
	}
	size, signed := litmus.DefaultSize, true
	switch in.Op {
	case litmus.OpMov:
		v := val(in.A)
		if in.Type.Name != "" {
			v = Int(truncate(v.N, in.Type.Size, in.Type.Signed))
		}
		*reg(in.Dst) = v.N
	case litmus.OpArith:
		v, err := arithValue(in.ArithOp, val(in.A), val(in.B))
		if err != nil {
			return nil, err
		}
		if in.Type.Size > 0 {
			v.N = truncate(v.N, in.Type.Size, in.Type.Signed)
		}
		*reg(in.Dst) = v.N
	case litmus.OpSetp:
		holds, err := compareValues(in.Cmp, val(in.A), val(in.B))
		if err != nil {
			return nil, err
		}
		*reg(in.Dst) = 0
		if holds {
			*reg(in.Dst) = 1
		}
	case litmus.OpBranch:
		holds, err := compareValues(in.Cmp, val(in.A), val(in.B))
		if err != nil {
			return nil, err
		}
		if holds {
			next = int64(p.labels[i][in.Label])
		}
	case litmus.OpGoto:
		next = int64(p.labels[i][in.Label])
	case litmus.OpLoad:
		*reg(in.Dst) = n[p.loc[in.Addr.Addr]]
	case litmus.OpStore:
		n[p.loc[in.Addr.Addr]] = truncate(val(in.Src).N, size, signed)
	case litmus.OpAtom, litmus.OpRed:
		at := p.loc[in.Addr.Addr]
		old := Int(n[at])
		if in.Op == litmus.OpAtom && in.Dst != "" {
			*reg(in.Dst) = old.N
		}
		op1 := Int(truncate(val(in.Src).N, size, signed))
		op2 := Int(truncate(val(in.Src2).N, size, signed))
		if in.AtomOp == "cas" && old != op1 {
			break
		}
		v, err := atomValue(in.AtomOp, old, op1, op2, in.Src.Kind != litmus.OperandNone, size, signed)
		if err != nil {
			return nil, err
		}
		n[at] = v.N
	}
	n[b] = next
	return n, nil
}

// fairGraph is the transition system: states, and for each its
// transitions (to, thread).
type fairGraph struct {
	states []fairState
	edges  [][][2]int
}

// explore builds the reachable states, at most max of them.
func (p *fairProgram) explore(max int) (*fairGraph, error) {
	g := &fairGraph{}
	var index stateIndex
	add := func(s fairState) int {
		i, fresh := index.number(s)
		if fresh {
			g.states = append(g.states, s)
			g.edges = append(g.edges, nil)
		}
		return i
	}
	add(p.start())
	for at := 0; at < len(g.states); at++ {
		for i := range p.t.Threads {
			if p.finished(g.states[at], i) {
				continue
			}
			n, err := p.step(g.states[at], i)
			if err != nil {
				return nil, err
			}
			to := add(n)
			g.edges[at] = append(g.edges[at], [2]int{to, i})
			if len(g.states) > max {
				return nil, fmt.Errorf("its interleavings have more than %d states", max)
			}
		}
	}
	return g, nil
}
