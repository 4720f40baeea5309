package report

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/litmus"
)

// Undefined is how a herd log shows a register that has no value: one a
// thread blocked at a barrier never wrote (docs/model.md, "Barriers"). herd's
// log tools read it as a symbolic value, which equals no number.
const Undefined = "$undef"

// LogName is the name a test has in herd logs: its name, with the
// characters herd's log lexer does not accept in a test name replaced by _;
// instance K of a .test template is NAME[K].
func LogName(t *litmus.Test) string {
	name := t.Name
	if t.Format == litmus.FormatNV {
		name = strings.TrimSuffix(filepath.Base(t.File), filepath.Ext(t.File))
		if t.Instance > 0 {
			name = fmt.Sprintf("%s[%d]", name, t.Instance)
		}
	}
	return sanitize(name, isTestNameChar)
}

// isTestNameChar: herd's lexer reads a test name as
// (alpha | digit | _ / . - + [ ] :)+.
func isTestNameChar(c byte) bool {
	return isAlnum(c) || strings.IndexByte("_/.-+[]:", c) >= 0
}

// isRegChar: a register is a name, (alpha | _ . $)(alpha | digit | _ .)*.
func isRegChar(c byte) bool { return isAlnum(c) || c == '_' || c == '.' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func sanitize(s string, ok func(byte) bool) string {
	b := []byte(s)
	for i, c := range b {
		if !ok(c) {
			b[i] = '_'
		}
	}
	if len(b) == 0 {
		return "_"
	}
	return string(b)
}

// regName is a register as herd logs write it: without PTX's %.
func regName(r string) string {
	r = strings.TrimPrefix(r, "%")
	if r == "" {
		return "_"
	}
	if c := r[0]; c >= '0' && c <= '9' {
		r = "r" + r
	}
	return sanitize(r, isRegChar)
}

// herdLoc names an observable as herd logs do: "T:reg" with the thread's
// number (threads are numbered 0, 1, ... in order of appearance, for .test
// files too), or the location's name.
func herdLoc(o checker.Observable) string {
	if o.IsLoc {
		return o.Name
	}
	return fmt.Sprintf("%d:%s", o.Thread, regName(o.Reg))
}

// herdOrder returns the indices of the observables in herd's order:
// registers by thread, then by name (r2 before r10), then locations by
// name.
func herdOrder(obs []checker.Observable) []int {
	idx := make([]int, len(obs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool {
		x, y := obs[idx[a]], obs[idx[b]]
		if x.IsLoc != y.IsLoc {
			return !x.IsLoc
		}
		if x.IsLoc {
			return x.Name < y.Name
		}
		if x.Thread != y.Thread {
			return x.Thread < y.Thread
		}
		return naturalLess(regName(x.Reg), regName(y.Reg))
	})
	return idx
}

// naturalLess orders names by their letters, then by their numeric suffix.
func naturalLess(a, b string) bool {
	pa, na, oka := splitNumber(a)
	pb, nb, okb := splitNumber(b)
	if pa != pb || !oka || !okb {
		return a < b
	}
	return na < nb
}

func splitNumber(s string) (string, int, bool) {
	i := len(s)
	for i > 0 && s[i-1] >= '0' && s[i-1] <= '9' {
		i--
	}
	if i == len(s) {
		return s, 0, false
	}
	n, err := strconv.Atoi(s[i:])
	return s[:i], n, err == nil
}

// herdValue prints an observed value: a number, a location's name for an
// address, Undefined for no value.
func herdValue(l *execution.Layout, v checker.Val) string {
	switch {
	case !v.Defined:
		return Undefined
	case v.V.IsAddr:
		return l.AddrNames()[v.V.N]
	}
	return strconv.FormatInt(v.V.N, 10)
}

// valueLess orders values as herd7 does: numbers by value, before symbolic
// values (addresses, by name), before no value.
func valueLess(l *execution.Layout, a, b checker.Val) bool {
	rank := func(v checker.Val) int {
		switch {
		case !v.Defined:
			return 2
		case v.V.IsAddr:
			return 1
		}
		return 0
	}
	if ra, rb := rank(a), rank(b); ra != rb {
		return ra < rb
	}
	if a.V.IsAddr {
		return l.AddrNames()[a.V.N] < l.AddrNames()[b.V.N]
	}
	return a.V.N < b.V.N
}

// herdStateLine prints a state as herd logs do: "0:r0=1; 1:r1=0; x=2;".
func herdStateLine(r *checker.Result, order []int, s checker.State) string {
	parts := make([]string, len(order))
	for k, i := range order {
		parts[k] = herdLoc(r.Observables[i]) + "=" + herdValue(r.Layout, s[i]) + ";"
	}
	return strings.Join(parts, " ")
}

// herdStates returns the states sorted as herd7 sorts them: by the values
// of the observables in herd's order.
func herdStates(r *checker.Result, order []int) []checker.State {
	out := append([]checker.State(nil), r.States...)
	sort.SliceStable(out, func(a, b int) bool {
		for _, i := range order {
			x, y := out[a][i], out[b][i]
			if valueLess(r.Layout, x, y) {
				return true
			}
			if valueLess(r.Layout, y, x) {
				return false
			}
		}
		return false
	})
	return out
}
