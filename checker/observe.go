package checker

import (
	"cmp"
	"encoding/binary"
	"fmt"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// Observable is a register or memory location a test's condition or
// assertions mention; final states are shown and compared over these.
type Observable struct {
	IsLoc  bool
	Thread int    // registers: the thread index
	Reg    string // registers: the register name
	Name   string // locations: the address name used in the condition
	Loc    int    // locations: the physical location
	// Size and Signed are how a location's bytes read as a number: a
	// condition compares them with a constant or register modulo
	// 2^(8*Size) (docs/litmus.md, "Values and sizes").
	Size   int
	Signed bool
}

// Val is an observed final value; a register of a thread that stopped at a
// barrier before writing it has no value.
type Val struct {
	Defined bool
	V       execution.Value
}

// State is a final state: one value per observable.
type State []Val

// key identifies a state among others of the same test, for maps.
func (s State) key() string { return string(s.appendKey(nil)) }

// appendKey appends the key of s to buf: each value's fields in binary,
// which every candidate's state costs much less to build than to print.
func (s State) appendKey(buf []byte) []byte {
	for _, v := range s {
		if !v.Defined {
			buf = append(buf, 0)
			continue
		}
		x := v.V
		switch {
		case x.IsMBar:
			buf = append(buf, 3)
			for _, f := range [...]int32{x.MBar.Phase, x.MBar.Expected, x.MBar.Pending, x.MBar.Tx} {
				buf = binary.AppendVarint(buf, int64(f))
			}
		case x.IsAddr:
			buf = append(buf, 2)
			buf = binary.AppendVarint(buf, x.N)
			buf = binary.AppendVarint(buf, int64(x.Remote))
		default:
			buf = append(buf, 1)
			buf = binary.AppendVarint(buf, x.N)
		}
	}
	return buf
}

// observables collects what a test looks at, registers first (by thread,
// then name), then locations (by name).
func observables(t *litmus.Test, l *execution.Layout) ([]Observable, error) {
	var obs []Observable
	// seen holds the registers (by thread and name) and the locations (by
	// name, thread -1) met so far.
	type term struct {
		loc    bool
		thread int
		name   string
	}
	seen := map[term]bool{}
	var firstErr error
	addTerm := func(tm litmus.Term) {
		switch tm.Kind {
		case litmus.TermReg:
			k := term{thread: tm.Thread, name: tm.Reg}
			if !seen[k] {
				seen[k] = true
				obs = append(obs, Observable{Thread: tm.Thread, Reg: tm.Reg})
			}
		case litmus.TermLoc:
			k := term{loc: true, thread: -1, name: tm.Loc}
			if seen[k] {
				return
			}
			seen[k] = true
			a, ok := l.Addr(tm.Loc)
			if !ok {
				if firstErr == nil {
					firstErr = fmt.Errorf("%s: unknown location %s in the condition", tm.Pos, tm.Loc)
				}
				return
			}
			loc, err := finalLocation(t, l, a)
			if err != nil && firstErr == nil {
				firstErr = fmt.Errorf("%s: %v", tm.Pos, err)
			}
			li := l.Locs[loc]
			if li.Size > 8 && firstErr == nil {
				firstErr = fmt.Errorf("%s: %s has %d bytes, but a condition can only compare values of up to 8 bytes: compare registers loaded from its parts instead", tm.Pos, tm.Loc, li.Size)
			}
			obs = append(obs, Observable{IsLoc: true, Name: tm.Loc, Loc: loc, Size: li.Size, Signed: li.Signed})
		}
	}
	t.EachTerm(addTerm)
	slices.SortStableFunc(obs, func(a, b Observable) int {
		switch {
		case a.IsLoc != b.IsLoc:
			if !a.IsLoc {
				return -1
			}
			return 1
		case a.IsLoc:
			return strings.Compare(a.Name, b.Name)
		case a.Thread != b.Thread:
			return cmp.Compare(a.Thread, b.Thread)
		}
		return strings.Compare(a.Reg, b.Reg)
	})
	return obs, firstErr
}

// finalLocation finds the physical location a condition's location name
// denotes; a shared-memory name used by several CTAs is ambiguous.
func finalLocation(t *litmus.Test, l *execution.Layout, addr int) (int, error) {
	locs := map[int]bool{}
	for _, th := range t.Threads {
		locs[l.Loc(addr, execution.CTAKey(th))] = true
	}
	if len(locs) > 1 {
		return 0, fmt.Errorf("%s is shared memory of several CTAs, so its final value is ambiguous", l.Addrs[addr].Name)
	}
	for loc := range locs {
		return loc, nil
	}
	return l.Loc(addr, -1), nil
}

// evalExpr evaluates a condition on a final state; a comparison involving a
// register without a value is false.
func evalExpr(e litmus.Expr, obs []Observable, s State) bool {
	switch e := e.(type) {
	case *litmus.And:
		return evalExpr(e.L, obs, s) && evalExpr(e.R, obs, s)
	case *litmus.Or:
		return evalExpr(e.L, obs, s) || evalExpr(e.R, obs, s)
	case *litmus.Not:
		return !evalExpr(e.X, obs, s)
	case *litmus.BoolLit:
		return e.Value
	case *litmus.Cmp:
		l, r := termVal(e.L, obs, s), termVal(e.R, obs, s)
		if !l.Defined || !r.Defined {
			return false
		}
		eq := sameBytes(e, obs, l.V, r.V)
		if e.Op == "!=" {
			return !eq
		}
		return eq
	}
	return false
}

// sameBytes compares the two sides of a comparison. A location of fewer
// than 8 bytes holds bytes: the other side names them when it is their
// value read signed or unsigned (x == -1 and x == 4294967295 both hold
// for 32 bits of ones), and never when it does not fit in them (x ==
// 4294967296 holds for no 32-bit x).
func sameBytes(e *litmus.Cmp, obs []Observable, l, r execution.Value) bool {
	var sized []*Observable
	for _, t := range []litmus.Term{e.L, e.R} {
		if o := locObservable(t, obs); o != nil && o.Size > 0 && o.Size < 8 {
			sized = append(sized, o)
		}
	}
	for _, o := range sized {
		if !fits(l, o) || !fits(r, o) {
			return false
		}
	}
	for _, o := range sized {
		l, r = bytesAs(l, o), bytesAs(r, o)
	}
	return l == r
}

// fits reports whether v can be the value of location o's bytes.
func fits(v execution.Value, o *Observable) bool {
	return v.IsAddr || v.IsMBar || litmus.FitsBytes(v.N, o.Size)
}

// locObservable returns the observable of a location term, nil for others.
func locObservable(t litmus.Term, obs []Observable) *Observable {
	if t.Kind != litmus.TermLoc {
		return nil
	}
	for i := range obs {
		if obs[i].IsLoc && obs[i].Name == t.Loc {
			return &obs[i]
		}
	}
	return nil
}

// bytesAs reads the low bytes of an integer as the location o reads them.
func bytesAs(v execution.Value, o *Observable) execution.Value {
	if v.IsAddr || v.IsMBar {
		return v
	}
	return execution.Int(execution.Truncate(v.N, o.Size, o.Signed))
}

func termVal(t litmus.Term, obs []Observable, s State) Val {
	switch t.Kind {
	case litmus.TermConst:
		return Val{Defined: true, V: execution.Int(t.Value)}
	case litmus.TermReg:
		for i, o := range obs {
			if !o.IsLoc && o.Thread == t.Thread && o.Reg == t.Reg {
				return s[i]
			}
		}
	case litmus.TermLoc:
		for i, o := range obs {
			if o.IsLoc && o.Name == t.Loc {
				return s[i]
			}
		}
	}
	return Val{}
}

// FormatState prints a state herd-style: "P1:r0=1; x=2;". A register that
// a thread waiting forever never wrote (only in the states of hangs, which
// the herd output leaves out) is shown "P1:r0=unset".
func FormatState(t *litmus.Test, l *execution.Layout, obs []Observable, s State) string {
	var b strings.Builder
	for i, o := range obs {
		if o.IsLoc {
			b.WriteString(o.Name)
		} else {
			b.WriteString(t.Threads[o.Thread].Name + ":" + o.Reg)
		}
		b.WriteByte('=')
		if !s[i].Defined {
			b.WriteString("unset")
		} else {
			b.WriteString(s[i].V.Format(l.AddrNames()))
		}
		b.WriteString("; ")
	}
	return strings.TrimSpace(b.String())
}

// Satisfies reports whether a final state satisfies a condition.
func Satisfies(e litmus.Expr, obs []Observable, s State) bool { return evalExpr(e, obs, s) }
