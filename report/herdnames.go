package report

import (
	"cmp"
	"path/filepath"
	"slices"
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
			name = litmus.InstanceName(name, t.Instance)
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
	clean := s != ""
	for i := 0; clean && i < len(s); i++ {
		clean = ok(s[i])
	}
	if clean {
		// Most names are: no copy (two allocations per name printed).
		return s
	}
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
// herd name (herdThread), or the location's name.
func herdLoc(thread func(int) string, o checker.Observable) string {
	if o.IsLoc {
		return o.Name
	}
	return thread(o.Thread) + ":" + regName(o.Reg)
}

// herdNumbers returns the numbers herd logs give the threads of t:
// threads are numbered 0, 1, ... in order of appearance (for .test files
// too, whose log gives the numbering in a "# threads" line). In a herd file
// with host threads, device threads keep their own numbers (P1 is 1
// wherever its column is, as the test's condition reads 1:r0) and host
// thread Hk comes after them, as number D+k with D device threads; the
// "# threads" line says so (herd's log tools read a register only as
// NUMBER:NAME).
func herdNumbers(t *litmus.Test) []int {
	devices := 0
	for _, th := range t.Threads {
		if !th.Host {
			devices++
		}
	}
	nums := make([]int, len(t.Threads))
	hosts := 0
	for i, th := range t.Threads {
		switch {
		case t.Format == litmus.FormatNV || devices == len(t.Threads):
			nums[i] = i
		case th.Host:
			nums[i] = devices + hosts
			hosts++
		default:
			nums[i] = i - hosts
		}
	}
	return nums
}

// herdThread names thread i of t as herd logs do (herdNumbers).
func herdThread(t *litmus.Test) func(int) string {
	var nums []int
	if t != nil {
		nums = herdNumbers(t)
	}
	return func(i int) string {
		if i >= 0 && i < len(nums) {
			i = nums[i]
		}
		return strconv.Itoa(i)
	}
}

// threadsComment is the "# threads 0=NAME ..." line of a test whose
// threads herd's numbers do not name plainly: .test files and tests with
// host threads ("" for the others). Lines between Test and States are
// skipped by the log tools.
func threadsComment(t *litmus.Test) string {
	nums := herdNumbers(t)
	plain := t.Format != litmus.FormatNV
	for i, n := range nums {
		plain = plain && n == i && !t.Threads[i].Host
	}
	if plain {
		return ""
	}
	ths := make([]string, len(nums))
	for i, n := range nums {
		ths[n] = strconv.Itoa(n) + "=" + t.Threads[i].Name
	}
	return "# threads " + strings.Join(ths, " ")
}

// herdOrder returns the indices of the observables of t in herd's order:
// registers by thread (by herd's number: herdNumbers), then by name (r2
// before r10), then locations by name.
func herdOrder(t *litmus.Test, obs []checker.Observable) []int {
	nums := herdNumbers(t)
	number := func(th int) int {
		if th >= 0 && th < len(nums) {
			return nums[th]
		}
		return th
	}
	idx := make([]int, len(obs))
	for i := range idx {
		idx[i] = i
	}
	less := func(x, y checker.Observable) bool {
		if x.IsLoc != y.IsLoc {
			return !x.IsLoc
		}
		if x.IsLoc {
			return x.Name < y.Name
		}
		if x.Thread != y.Thread {
			return number(x.Thread) < number(y.Thread)
		}
		return naturalLess(regName(x.Reg), regName(y.Reg))
	}
	// The same stable order as sort.SliceStable with less, without its
	// reflection.
	slices.SortStableFunc(idx, func(a, b int) int {
		switch {
		case less(obs[a], obs[b]):
			return -1
		case less(obs[b], obs[a]):
			return 1
		}
		return 0
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

// appendHerdValue appends an observed value as herd logs print it: a
// number, a location's name for an address, Undefined for no value.
func appendHerdValue(b []byte, l *execution.Layout, v checker.Val) []byte {
	switch {
	case !v.Defined:
		return append(b, Undefined...)
	case v.V.IsAddr:
		return append(b, l.AddrNames()[v.V.N]...)
	}
	return strconv.AppendInt(b, v.V.N, 10)
}

// compareValues orders values as herd7 does: numbers by value, before
// symbolic values (addresses, by name), before no value.
func compareValues(l *execution.Layout, a, b checker.Val) int {
	rank := func(v checker.Val) int {
		switch {
		case !v.Defined:
			return 2
		case v.V.IsAddr:
			return 1
		}
		return 0
	}
	if c := cmp.Compare(rank(a), rank(b)); c != 0 || !a.Defined {
		return c
	}
	if a.V.IsAddr {
		return cmp.Compare(l.AddrNames()[a.V.N], l.AddrNames()[b.V.N])
	}
	return cmp.Compare(a.V.N, b.V.N)
}

// herdStatePrinter prints states as herd logs do: "0:r0=1; 1:r1=0; x=2;".
// It names the observables once per result, since a log may list
// millions of states of one test.
type herdStatePrinter struct {
	layout *execution.Layout
	order  []int
	// prefixes[k] is "NAME=" for the k-th observable in herd's order.
	prefixes []string
	buf      []byte
}

func newHerdStatePrinter(r *checker.Result, order []int) *herdStatePrinter {
	thread := herdThread(r.Test)
	p := &herdStatePrinter{layout: r.Layout, order: order, prefixes: make([]string, len(order))}
	for k, i := range order {
		p.prefixes[k] = herdLoc(thread, r.Observables[i]) + "="
	}
	return p
}

// line returns state s as one line, without its newline; the bytes are
// valid until the next call.
func (p *herdStatePrinter) line(s checker.State) []byte {
	b := p.buf[:0]
	for k, i := range p.order {
		if k > 0 {
			b = append(b, ' ')
		}
		b = append(b, p.prefixes[k]...)
		b = appendHerdValue(b, p.layout, s[i])
		b = append(b, ';')
	}
	p.buf = b
	return b
}

// herdStateLine prints one state as herd logs do.
func herdStateLine(r *checker.Result, order []int, s checker.State) string {
	return string(newHerdStatePrinter(r, order).line(s))
}

// herdStates returns the states sorted as herd7 sorts them: by the values
// of the observables in herd's order.
func herdStates(r *checker.Result, order []int) []checker.State {
	out := slices.Clone(r.States)
	slices.SortStableFunc(out, func(a, b checker.State) int {
		for _, i := range order {
			if c := compareValues(r.Layout, a[i], b[i]); c != 0 {
				return c
			}
		}
		return 0
	})
	return out
}
