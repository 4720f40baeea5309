package sass

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
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
		rep.Threads = append(rep.Threads, Compare(r.Thread, fn, plan.ResultStores(k)))
	}
	return rep, nil
}

// Compare checks one thread's machine code against its PTX. The code
// ends with a fence and at most results stores of the results, which are
// left out.
func Compare(th *litmus.Thread, code []string, results int) Thread {
	want, branches := ptxKinds(th)
	got := machineKinds(code)
	t := Thread{Name: th.Name, Want: want, Got: got}
	end := len(got)
	for end > 0 && got[end-1] == kindStore && len(got)-end < results {
		end--
	}
	if end == len(got) || end == 0 && len(want) > 0 || end > 0 && got[end-1] != kindOrdered {
		t.Changed = "the stores of the results are not at the end of the machine code, as the check expects: " + strings.Join(got, " ")
		return t
	}
	t.Got = got[:end-1]
	if len(want) > 0 && want[len(want)-1] == kindOrdered {
		want = want[:len(want)-1] // a last fence merges with the one before the results
	}
	accW, accG := accesses(want), accesses(t.Got)
	if !slices.Equal(accW, accG) {
		if sameCounts(accW, accG) {
			if branches {
				return t // the code order of a branching thread need not be the program order
			}
			t.Changed = fmt.Sprintf("reordered its memory operations: %s in the PTX, %s in the machine code", strings.Join(accW, " "), strings.Join(accG, " "))
			return t
		}
		t.Changed = "changed its memory operations: " + countChange(accW, accG)
		return t
	}
	if branches {
		return t
	}
	ow, og := orderedAfter(want), orderedAfter(t.Got)
	for j := range ow {
		if ow[j] && !og[j] {
			t.Changed = fmt.Sprintf("lost the fence or barrier after its memory operation %d (%s)", j+1, accW[j])
			return t
		}
	}
	return t
}

// accesses lists the memory operations of a list of kinds.
func accesses(kinds []string) []string {
	var out []string
	for _, k := range kinds {
		if k != kindOrdered {
			out = append(out, k)
		}
	}
	return out
}

// orderedAfter[j] says whether an ordering point follows access j.
func orderedAfter(kinds []string) []bool {
	var out []bool
	for _, k := range kinds {
		if k == kindOrdered {
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
