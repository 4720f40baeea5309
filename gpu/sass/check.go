package sass

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
	"github.com/ptxmm/ptxmm/internal/lazyregexp"
	"github.com/ptxmm/ptxmm/litmus"
)

// Checker compiles each thread of a test to machine code and checks that
// the compiler kept its memory operations and fences.
type Checker struct {
	Disassembler Disassembler
	// Compile, when set, compiles PTX to a cubin instead of the driver's
	// linker (tests use ptxas).
	Compile func(ptx string) ([]byte, error)
}

// Check compiles the plan's optcheck module for arch and compares each
// thread's machine code with its PTX.
func (c *Checker) Check(drv gpu.Driver, plan *ptxgen.Plan, arch string) (*Report, error) {
	module, err := plan.OptcheckModule(arch)
	if err != nil {
		return nil, err
	}
	compile := c.Compile
	if compile == nil {
		compile = drv.Cubin
	}
	cubin, err := compile(module)
	if err != nil {
		return nil, fmt.Errorf("compiling the threads to machine code: %w", err)
	}
	code, err := c.Disassembler.Disassemble(cubin)
	if err != nil {
		return nil, err
	}
	rep := &Report{Tool: c.Disassembler.Name()}
	for k, r := range plan.Roles {
		fn, ok := code[ptxgen.RoleEntry(k)]
		if !ok {
			return nil, fmt.Errorf("%s printed no code for %s", rep.Tool, ptxgen.RoleEntry(k))
		}
		rep.Threads = append(rep.Threads, Compare(r.Thread, fn))
	}
	return rep, nil
}

// Compare checks one thread's machine code against its PTX: its memory
// operations must keep their kind, count and order, an ordering point
// (fence, barrier, the L1 invalidation of an acquire) must remain between
// two accesses the PTX orders so, and an acquire operation must be
// waited for before the next access issues. The stores of the results
// (kindResult) are left out wherever the compiler put them.
func Compare(th *litmus.Thread, code []Instr) Thread {
	wantS, branches := ptxSteps(th)
	gotS := machineSteps(code)
	t := Thread{Name: th.Name, Want: kinds(wantS), Got: kinds(gotS)}
	accW, accG := accesses(wantS), accesses(gotS)
	kw, kg := kinds(accW), kinds(accG)
	if !slices.Equal(kw, kg) {
		if sameCounts(kw, kg) {
			if branches {
				return t // the code order of a branching thread need not be the program order
			}
			t.Changed = fmt.Sprintf("reordered its memory operations: %s in the PTX, %s in the machine code", strings.Join(kw, " "), strings.Join(kg, " "))
			return t
		}
		t.Changed = "changed its memory operations: " + countChange(kw, kg)
		return t
	}
	if branches {
		return t
	}
	ow, og := orderedAfter(wantS), orderedAfter(gotS)
	for j := range ow {
		if ow[j] && !og[j] {
			t.Changed = fmt.Sprintf("lost the fence or barrier after its memory operation %d (%s)", j+1, kw[j])
			return t
		}
	}
	for j := 0; j+1 < len(accW); j++ {
		if accW[j].acquire && !waitsFor(code, accG[j].at, accG[j+1].at) {
			t.Changed = fmt.Sprintf("does not wait for its acquire, memory operation %d (%s: %s), before memory operation %d (%s: %s): the machine code may perform the later one first",
				j+1, kw[j], code[accG[j].at].Text, j+2, kw[j+1], code[accG[j+1].at].Text)
			return t
		}
	}
	return t
}

// depbar is the explicit wait for a scoreboard: "DEPBAR.LE SB2, 0x0".
var depbar = lazyregexp.New(`^DEPBAR(?:\.LE)?\s+SB([0-5])\s*,\s*0x0\b`)

// waitsFor reports whether the instruction at b, or one between a and b,
// waits for the scoreboard the instruction at a releases when its result
// is written: only then is the access at b issued after the one at a was
// performed. It gives the benefit of the doubt (true) where the listing
// has no control bits, where a does not use a scoreboard, and across a
// call, whose callee may wait.
func waitsFor(code []Instr, a, b int) bool {
	acq := code[a]
	if !acq.HasControl || acq.Control.WriteBarrier < 0 {
		return true
	}
	sb := acq.Control.WriteBarrier
	for i := a + 1; i <= b; i++ {
		ins := code[i]
		if !ins.HasControl || strings.HasPrefix(ins.Text, "CALL") || ins.Control.Waits(sb) {
			return true
		}
		if m := depbar().FindStringSubmatch(ins.Text); m != nil && m[1] == fmt.Sprint(sb) {
			return true
		}
	}
	return false
}

// accesses lists the memory operations of a list of steps.
func accesses(steps []step) []step {
	var out []step
	for _, s := range steps {
		if s.kind != kindOrdered {
			out = append(out, s)
		}
	}
	return out
}

// orderedAfter[j] says whether an ordering point follows access j.
func orderedAfter(steps []step) []bool {
	var out []bool
	for _, s := range steps {
		if s.kind == kindOrdered {
			if len(out) > 0 {
				out[len(out)-1] = true
			}
			continue
		}
		out = append(out, false)
	}
	return out
}
func sameCounts(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	sort.Strings(x)
	sort.Strings(y)
	return slices.Equal(x, y)
}

// countChange says how the counts of each kind changed: "ld 2 -> 1".
func countChange(want, got []string) string {
	count := func(l []string) map[string]int {
		m := map[string]int{}
		for _, k := range l {
			m[k]++
		}
		return m
	}
	w, g := count(want), count(got)
	var kinds []string
	for k := range w {
		kinds = append(kinds, k)
	}
	for k := range g {
		if _, ok := w[k]; !ok {
			kinds = append(kinds, k)
		}
	}
	sort.Strings(kinds)
	var parts []string
	for _, k := range kinds {
		if w[k] != g[k] {
			parts = append(parts, fmt.Sprintf("%s %d in the PTX, %d in the machine code", k, w[k], g[k]))
		}
	}
	return strings.Join(parts, "; ")
}
