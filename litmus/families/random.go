package families

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// RandomShape bounds the tests Random makes.
type RandomShape struct {
	Threads   int // at most this many threads (at least 1)
	Locations int // at most this many locations (at least 1)
	Instrs    int // at most this many instructions per thread (at least 1)
	// CTAs is the number of CTAs the threads are spread over (at least 1):
	// fewer CTAs make .cta scopes and bar.cta.sync matter.
	CTAs int
	// Barriers allows bar.cta.sync among the threads of a CTA.
	Barriers bool
	// BarriersEveryCTA puts the barriers into every CTA of several
	// threads rather than into the first only, so that a combination of
	// runs can fail in one CTA and pass in another.
	BarriersEveryCTA bool
	// Sizes gives some loads and stores a type of 8, 16 or 32 bits, at a
	// byte offset, so that accesses overlap in part.
	Sizes bool
	// Spins gives some threads an await: a loop that loads a location
	// until it holds (or stops holding) a value, sometimes with a second
	// load or a fence in its body, which failed iterations also perform.
	Spins bool
}

// Random returns a random herd-format PTX test: loads, stores, atomics,
// reductions and fences of every memory order and scope, over a few
// locations, with data dependencies (stores of loaded values), branches
// over loaded values, barriers among the threads of a CTA when allowed,
// and an exists condition over registers and final values of locations.
// The same seed and shape give the same test.
func Random(seed uint64, shape RandomShape) string {
	g := &randomTest{rng: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15)), shape: shape}
	return g.build(fmt.Sprintf("Random-%d", seed))
}

type randomTest struct {
	rng   *rand.Rand
	shape RandomShape
	locs  []string
	// regs[t] lists the registers thread t has loaded so far.
	regs [][]string
}

func (g *randomTest) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

func (g *randomTest) scope() string { return g.pick("cta", "gpu", "sys") }

func (g *randomTest) loc() string { return g.locs[g.rng.IntN(len(g.locs))] }

func (g *randomTest) value() string { return fmt.Sprint(1 + g.rng.IntN(3)) }

// sized returns the type suffix and address of a load or store: with
// Sizes, one time in three a type of 8, 16 or 32 bits, the narrower ones
// at a byte offset into the location.
func (g *randomTest) sized() (typ, addr string) {
	x := g.loc()
	if !g.shape.Sizes || g.rng.IntN(3) != 0 {
		return "", x
	}
	switch g.rng.IntN(3) {
	case 0:
		return ".u8", fmt.Sprintf("[%s+%d]", x, g.rng.IntN(4))
	case 1:
		return ".u16", fmt.Sprintf("[%s+%d]", x, 2*g.rng.IntN(2))
	}
	return ".u32", "[" + x + "]"
}

// newReg names thread t's next register.
func (g *randomTest) newReg(t int) string {
	r := fmt.Sprintf("r%d", len(g.regs[t]))
	g.regs[t] = append(g.regs[t], r)
	return r
}

// operand is a constant, or a register thread t loaded (a dependency).
func (g *randomTest) operand(t int) string {
	if len(g.regs[t]) > 0 && g.rng.IntN(4) == 0 {
		return g.regs[t][g.rng.IntN(len(g.regs[t]))]
	}
	return g.value()
}

// instr returns a random memory instruction or fence of thread t.
func (g *randomTest) instr(t int) string {
	switch g.rng.IntN(10) {
	case 0, 1, 2:
		sem := g.pick("weak", "relaxed."+g.scope(), "release."+g.scope(), "volatile")
		typ, addr := g.sized()
		return fmt.Sprintf("st.%s%s %s, %s", sem, typ, addr, g.operand(t))
	case 3, 4, 5:
		sem := g.pick("weak", "relaxed."+g.scope(), "acquire."+g.scope(), "volatile")
		typ, addr := g.sized()
		return fmt.Sprintf("ld.%s%s %s, %s", sem, typ, g.newReg(t), addr)
	case 6:
		sem := g.pick("relaxed", "acquire", "release", "acq_rel")
		x, op := g.loc(), g.pick("add", "exch", "cas")
		args := g.operand(t)
		if op == "cas" {
			args = g.pick("0", "1") + ", " + g.value()
		}
		return fmt.Sprintf("atom.%s.%s.%s %s, %s, %s", sem, g.scope(), op, g.newReg(t), x, args)
	case 7:
		return fmt.Sprintf("red.%s.%s.add %s, 1", g.pick("relaxed", "release"), g.scope(), g.loc())
	default:
		return fmt.Sprintf("fence.%s.%s", g.pick("sc", "acq_rel", "acquire", "release"), g.scope())
	}
}

func (g *randomTest) build(name string) string {
	s := g.shape
	nth := 1 + g.rng.IntN(max(s.Threads, 1))
	nloc := 1 + g.rng.IntN(max(s.Locations, 1))
	for i := 0; i < nloc; i++ {
		g.locs = append(g.locs, fmt.Sprintf("x%d", i))
	}
	g.regs = make([][]string, nth)
	headers := make([]string, nth)
	cta := make([]int, nth)
	cols := make([][]string, nth)
	for t := range cols {
		cta[t] = g.rng.IntN(max(s.CTAs, 1))
		headers[t] = fmt.Sprintf("P%d@cta %d,gpu 0", t, cta[t])
		n := 1 + g.rng.IntN(max(s.Instrs, 1))
		branched := false
		for i := 0; i < n; i++ {
			if rs := g.regs[t]; !branched && len(rs) > 0 && g.rng.IntN(6) == 0 {
				// A branch over a loaded value skips the rest of the thread.
				branched = true
				cols[t] = append(cols[t], fmt.Sprintf("%s %s, %s, L%d", g.pick("bne", "beq"), rs[g.rng.IntN(len(rs))], g.pick("0", "1"), t))
			}
			cols[t] = append(cols[t], g.instr(t))
		}
		if branched {
			cols[t] = append(cols[t], fmt.Sprintf("L%d:", t))
		}
		if s.Spins && g.rng.IntN(2) == 0 {
			at := g.rng.IntN(len(cols[t]) + 1)
			for at > 0 && strings.HasPrefix(cols[t][at-1], "L") {
				at-- // before a branch's label
			}
			cols[t] = append(cols[t][:at], append(g.await(t), cols[t][at:]...)...)
		}
	}
	if s.Barriers && g.rng.IntN(3) == 0 {
		g.addBarrier(cta, cols)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "PTX %s\n{\n%s\n}\n", name, locs(g.locs))
	b.WriteString(program.Table(headers, cols))
	fmt.Fprintf(&b, "exists (%s)\n", g.condition())
	return b.String()
}

// await returns the instructions of an await of thread t: its loads
// write registers that are dead at the loop head, so a failed iteration
// changes nothing the rest of the thread sees.
func (g *randomTest) await(t int) []string {
	label := fmt.Sprintf("S%d", t)
	poll := g.newReg(t)
	sem := g.pick("weak", "relaxed."+g.scope(), "acquire."+g.scope(), "volatile")
	body := []string{label + ":", fmt.Sprintf("ld.%s %s, %s", sem, poll, g.loc())}
	switch g.rng.IntN(4) {
	case 0:
		other := g.pick("weak", "relaxed."+g.scope(), "acquire."+g.scope())
		body = append(body, fmt.Sprintf("ld.%s %s, %s", other, g.newReg(t), g.loc()))
	case 1:
		body = append(body, fmt.Sprintf("fence.%s.%s", g.pick("sc", "acq_rel", "acquire"), g.scope()))
	}
	return append(body, fmt.Sprintf("%s %s, %d, %s", g.pick("bne", "beq"), poll, g.rng.IntN(3), label))
}

// addBarrier puts a bar.cta.sync into every thread of a CTA with several
// threads (of each such CTA with BarriersEveryCTA), at a random place in
// each.
func (g *randomTest) addBarrier(cta []int, cols [][]string) {
	members := map[int][]int{}
	for t, c := range cta {
		members[c] = append(members[c], t)
	}
	for c := 0; c < max(g.shape.CTAs, 1); c++ {
		if len(members[c]) < 2 {
			continue
		}
		for _, t := range members[c] {
			at := g.rng.IntN(len(cols[t]) + 1)
			for at > 0 && strings.HasPrefix(cols[t][at-1], "L") {
				at-- // before a branch's label
			}
			cols[t] = append(cols[t][:at], append([]string{"bar.cta.sync 0"}, cols[t][at:]...)...)
		}
		if !g.shape.BarriersEveryCTA {
			return
		}
	}
}

// condition is a conjunction over loaded registers and final values.
func (g *randomTest) condition() string {
	var terms []string
	for t, rs := range g.regs {
		for _, r := range rs {
			if g.rng.IntN(3) == 0 {
				terms = append(terms, fmt.Sprintf("P%d:%s == %d", t, r, g.rng.IntN(4)))
			}
		}
	}
	for g.rng.IntN(2) == 0 && len(terms) < 4 {
		terms = append(terms, fmt.Sprintf("%s == %d", g.loc(), g.rng.IntN(4)))
	}
	if len(terms) == 0 {
		terms = append(terms, fmt.Sprintf("%s == %d", g.loc(), g.rng.IntN(4)))
	}
	return strings.Join(terms, " /\\ ")
}
