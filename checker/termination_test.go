package checker

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/internal/oraclecases"
)

var builtinOnce = sync.OnceValues(func() (*Model, error) {
	m, err := loadFile(filepath.Join("..", "spec.dl"))
	if err == nil {
		m.Builtin = true
	}
	return m, err
})

// builtin returns spec.dl marked as the embedded model, as the loader
// marks it (a model of its own: spec(t)'s is not marked).
func builtin(t *testing.T) *Model {
	t.Helper()
	m, err := builtinOnce()
	require.NoError(t, err)
	return m
}

// exchPingPong is AlloyForwardProgress's 2-thread 2-instruction test 0:
// P0 swaps in 0 and loops while it took 1, P1 swaps in 1 and loops while
// it took 0. Under the fair schedule P1, P0, P1, ... each takes what the
// other wrote, for ever; P0 running first ends both.
const exchPingPong = `PTX exch-ping-pong
{ x=0; }
 P0@cta 0,gpu 0                 | P1@cta 0,gpu 0                 ;
 L0:                            | L1:                            ;
 atom.relaxed.gpu.exch r0, x, 0 | atom.relaxed.gpu.exch r1, x, 1 ;
 beq r0, 1, L0                  | beq r1, 0, L1                  ;
exists (P0:r0 == 0 /\ P1:r1 == 1)
`

// TestTermination: a loop that writes gets a termination verdict from
// the embedded model, a "not decided" from any other; a test whose loops
// are awaits gets none (its hangs say it).
func TestTermination(t *testing.T) {
	// P0's swap taking 0 ends its loop: after P1 stepped, x holds 1 only
	// until P0 swaps, and that swap takes the 1.
	terminating := strings.Replace(exchPingPong, "beq r0, 1, L0", "beq r0, 0, L0", 1)
	cases := []struct {
		name  string
		model *Model
		src   string
		want  string // "livelock", "terminates", "not decided", or "" for none
	}{
		{"livelock", builtin(t), exchPingPong, "livelock"},
		{"terminates", builtin(t), terminating, "terminates"},
		{"other model", spec(t), exchPingPong, "not decided"},
		{"await", builtin(t), spinMP, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := check(t, c.model, herd(t, c.src))
			tm := r.Termination
			switch c.want {
			case "":
				assert.Nil(t, tm)
				return
			case "not decided":
				require.NotNil(t, tm)
				assert.False(t, tm.Decided)
				assert.Equal(t, notBuiltin, tm.Why)
				return
			}
			require.NotNil(t, tm)
			require.True(t, tm.Decided, tm.Why)
			assert.Equal(t, c.want == "livelock", tm.Spins)
			// The livelock has no final state: the states are those of
			// the finished executions, as before (P0 ran first).
			assert.True(t, r.Loop)
			assert.Zero(t, r.Hangs)
		})
	}
}

// fragProg is a random program of the fragment FairTermination decides:
// threads of atom.exch, ld and st of x, each followed by a branch.
type fragOp struct {
	kind         string
	val, cmpVal  int64
	cmp          string
	target       int
	reg, regRead int    // the register written (exch, ld) and the one compared
	loc          int    // 0: x, 1: y
	fence        string // a thread fence after the access, or ""
}

type fragProg struct {
	init    int64
	locs    int // 1 (x) or 2 (x and y, which starts at 0); 0 is 1
	threads [][]fragOp
}

// randomTwoLocationProg is a fragment program over x and y.
func randomTwoLocationProg(r *rand.Rand) fragProg {
	p := randomFragProg(r)
	p.locs = 2
	for _, th := range p.threads {
		for k := range th {
			th[k].loc = r.Intn(2)
		}
	}
	return p
}

// locName is the name of location k.
func locName(k int) string { return []string{"x", "y"}[k] }

func randomFragProg(r *rand.Rand) fragProg {
	p := fragProg{init: int64(r.Intn(2))}
	for range 2 {
		n := 1 + r.Intn(3)
		var th []fragOp
		for b := range n {
			op := fragOp{kind: []string{"exch", "ld", "st"}[r.Intn(3)], val: int64(r.Intn(2)), cmpVal: int64(r.Intn(2)),
				cmp: []string{"beq", "bne"}[r.Intn(2)], target: r.Intn(n + 1), reg: b, regRead: b}
			th = append(th, op)
		}
		p.threads = append(p.threads, th)
	}
	return p
}

func (p fragProg) litmus() string {
	var b strings.Builder
	init := fmt.Sprintf("x=%d;", p.init)
	if p.locs > 1 {
		init += " y=0;"
	}
	fmt.Fprintf(&b, "PTX frag\n{ %s }\n P0@cta 0,gpu 0 | P1@cta 0,gpu 0 ;\n", init)
	var cols [2][]string
	for i, th := range p.threads {
		for k, op := range th {
			cols[i] = append(cols[i], fmt.Sprintf("B%d:", k))
			switch op.kind {
			case "exch":
				cols[i] = append(cols[i], fmt.Sprintf("atom.relaxed.gpu.exch r%d, %s, %d", op.reg, locName(op.loc), op.val))
			case "ld":
				cols[i] = append(cols[i], fmt.Sprintf("ld.relaxed.gpu r%d, %s", op.reg, locName(op.loc)))
			case "st":
				cols[i] = append(cols[i], fmt.Sprintf("st.release.gpu %s, %d", locName(op.loc), op.val))
			case "streg":
				cols[i] = append(cols[i], fmt.Sprintf("st.release.gpu %s, r%d", locName(op.loc), op.regRead))
			case "add", "xor":
				cols[i] = append(cols[i], fmt.Sprintf("atom.relaxed.gpu.%s r%d, %s, %d", op.kind, op.reg, locName(op.loc), op.val))
			case "redadd", "redxor":
				cols[i] = append(cols[i], fmt.Sprintf("red.relaxed.gpu.%s %s, %d", op.kind[3:], locName(op.loc), op.val))
			}
			if op.fence != "" {
				cols[i] = append(cols[i], op.fence)
			}
			cols[i] = append(cols[i], fmt.Sprintf("%s r%d, %d, B%d", op.cmp, op.regRead, op.cmpVal, op.target))
		}
		cols[i] = append(cols[i], fmt.Sprintf("B%d:", len(th)))
	}
	for row := 0; row < max(len(cols[0]), len(cols[1])); row++ {
		cell := func(i int) string {
			if row < len(cols[i]) {
				return cols[i][row]
			}
			return ""
		}
		fmt.Fprintf(&b, " %s | %s ;\n", cell(0), cell(1))
	}
	var locs []string
	for i, th := range p.threads {
		for k := range th {
			locs = append(locs, fmt.Sprintf("%d:r%d", i, k))
		}
	}
	mem := "x"
	if p.locs > 1 {
		mem = "x; y"
	}
	fmt.Fprintf(&b, "locations [%s; %s;]\nexists (0==0)\n", mem, strings.Join(locs, "; "))
	return b.String()
}

// finals lists the final states of the interleavings in which each thread
// takes at most unroll backward branches, formatted as the checker
// formats them.
func (p fragProg) finals(unroll int) []string {
	type st struct {
		mem       [2]int64
		pc, backs [2]int
		regs      [2][3]int64
	}
	seen := map[st]bool{}
	out := map[string]bool{}
	var walk func(s st)
	walk = func(s st) {
		if seen[s] {
			return
		}
		seen[s] = true
		done := true
		for i, th := range p.threads {
			if s.pc[i] >= len(th) {
				continue
			}
			done = false
			n := s
			op := th[s.pc[i]]
			switch op.kind {
			case "exch":
				n.regs[i][op.reg], n.mem[op.loc] = n.mem[op.loc], op.val
			case "ld":
				n.regs[i][op.reg] = n.mem[op.loc]
			case "st":
				n.mem[op.loc] = op.val
			case "add":
				n.regs[i][op.reg], n.mem[op.loc] = n.mem[op.loc], n.mem[op.loc]+op.val
			case "xor":
				n.regs[i][op.reg], n.mem[op.loc] = n.mem[op.loc], n.mem[op.loc]^op.val
			case "redadd":
				n.mem[op.loc] += op.val
			case "redxor":
				n.mem[op.loc] ^= op.val
			}
			v := n.regs[i][op.regRead]
			if op.cmp == "beq" && v == op.cmpVal || op.cmp == "bne" && v != op.cmpVal {
				if op.target <= s.pc[i] {
					if n.backs[i]++; n.backs[i] > unroll {
						continue
					}
				}
				n.pc[i] = op.target
			} else {
				n.pc[i]++
			}
			walk(n)
		}
		if done {
			var parts []string
			for i, th := range p.threads {
				for k := range th {
					parts = append(parts, fmt.Sprintf("P%d:r%d=%d;", i, k, s.regs[i][k]))
				}
			}
			parts = append(parts, fmt.Sprintf("x=%d;", s.mem[0]))
			if p.locs > 1 {
				parts = append(parts, fmt.Sprintf("y=%d;", s.mem[1]))
			}
			out[strings.Join(parts, " ")] = true
		}
	}
	walk(st{mem: [2]int64{p.init}})
	var list []string
	for s := range out {
		list = append(list, s)
	}
	sort.Strings(list)
	return list
}

// TestSpecInterleavesOneLocation is the evidence, on finite executions,
// for what the termination of loops that write rests on: on programs of
// morally strong accesses to one location, spec.dl allows exactly the
// interleavings. The unrolled search's final states (at -unroll 2) are
// those of the interleavings with at most two backward branches per
// thread, computed here by an interpreter of the test's own
// (PTXMM_ORACLE_CASES programs, 150 by default).
func TestSpecInterleavesOneLocation(t *testing.T) {
	n := casesOr(t, 150)
	r := rand.New(rand.NewSource(34))
	opts := DefaultOptions()
	looping := 0
	for k := range n {
		p := randomFragProg(r)
		src := p.litmus()
		res := spec(t).Check(herd(t, src), opts)
		require.NoError(t, res.Err, src)
		require.Equal(t, p.finals(opts.Exec.Unroll), states(res), "case %d:\n%s", k, src)
		if res.Loop {
			looping++
		}
	}
	require.Greater(t, looping, n/10, "too few programs loop")
}

// randomAwaitProg is a fragment program whose only backward branches are
// from a load to a load with nothing but loads between: its loops poll.
func randomAwaitProg(r *rand.Rand) fragProg {
	for {
		if p := randomFragProg(r); p.pollsOnly() {
			return p
		}
	}
}

// pollsOnly reports whether p's only backward branches are from a load to
// a load with nothing but loads between.
func (p fragProg) pollsOnly() bool {
	for _, th := range p.threads {
		for k, op := range th {
			if op.target > k {
				continue
			}
			for j := op.target; j <= k; j++ {
				if th[j].kind != "ld" {
					return false
				}
			}
		}
	}
	return true
}

// TestFairTerminationMatchesSpinningRuns: on programs whose loops are
// awaits, the spinning runs of the enumerator (a hang: an await whose
// last iteration, reading the last writes, still fails) and
// execution.FairTermination's cycles (which the checker does not ask for
// such tests) are two independent answers to one question; they must
// agree (PTXMM_ORACLE_CASES programs, 150 by default).
func TestFairTerminationMatchesSpinningRuns(t *testing.T) {
	n := casesOr(t, 150)
	r := rand.New(rand.NewSource(35))
	compared, hanging := 0, 0
	for k := range n {
		src := randomAwaitProg(r).litmus()
		tc := herd(t, src)
		res := check(t, builtin(t), tc)
		if res.Loop {
			continue // a polling loop that keeps a register: not an await
		}
		require.Nil(t, res.Termination)
		ft := execution.FairTermination(tc, 0)
		require.True(t, ft.Decided, ft.Why)
		require.Equal(t, res.Hangs > 0, ft.Spins, "case %d:\n%s", k, src)
		compared++
		if ft.Spins {
			hanging++
		}
	}
	t.Logf("%d programs with awaits only compared, %d with a hang", compared, hanging)
	require.Greater(t, compared, n/2)
	require.Greater(t, hanging, compared/10)
	require.Less(t, hanging, compared-compared/10)
}

// TestSpecAllowsInterleavingsTwoLocations is the evidence, on finite
// executions, for the livelocks reported for tests over several
// locations: every interleaving is an execution spec.dl allows. The
// unrolled search's final states (at -unroll 2) include those of the
// interleavings with at most two backward branches per thread; some
// programs have more (store buffering and the like), which the test
// counts (PTXMM_ORACLE_CASES programs, 150 by default).
func TestSpecAllowsInterleavingsTwoLocations(t *testing.T) {
	n := casesOr(t, 150)
	r := rand.New(rand.NewSource(37))
	opts := DefaultOptions()
	weak := 0
	for k := range n {
		p := randomTwoLocationProg(r)
		src := p.litmus()
		res := spec(t).Check(herd(t, src), opts)
		require.NoError(t, res.Err, src)
		got := states(res)
		want := p.finals(opts.Exec.Unroll)
		require.Subset(t, got, want, "case %d:\n%s", k, src)
		if len(got) > len(want) {
			weak++
		}
	}
	t.Logf("%d programs over two locations, %d with outcomes no interleaving has", n, weak)
	require.Positive(t, weak, "no program has a weak outcome: the test says little")
}

// TestSpecFencesOnlyRestrict is the evidence, on finite executions, for
// leaving thread fences out of the programs whose termination is decided
// (execution.withoutThreadFences): on programs over two locations with
// fences after some accesses (fencedShape), spec.dl allows every interleaving (a
// livelock of the interleavings stays one with the fences) and no final
// state the program without its fences does not have (a program whose
// fair executions all end without fences ends with them). Some programs
// lose outcomes to their fences, which the test counts
// (PTXMM_ORACLE_CASES programs, 150 by default).
func TestSpecFencesOnlyRestrict(t *testing.T) {
	n := casesOr(t, 150)
	r := rand.New(rand.NewSource(44))
	opts := DefaultOptions()
	fences := []string{"fence.sc.gpu", "fence.acq_rel.gpu", "fence.sc.cta", "membar.gl", "fence.acquire.gpu", "fence.release.gpu"}
	restricted, weak := 0, 0
	for k := range n {
		p := fencedShape(r)
		plain := states(spec(t).Check(herd(t, p.litmus()), opts))
		if len(plain) > len(p.finals(opts.Exec.Unroll)) {
			weak++
		}
		for _, th := range p.threads {
			for j := range th {
				if r.Intn(2) == 0 {
					th[j].fence = fences[r.Intn(len(fences))]
				}
			}
		}
		src := p.litmus()
		res := spec(t).Check(herd(t, src), opts)
		require.NoError(t, res.Err, src)
		got := states(res)
		require.Subset(t, got, p.finals(opts.Exec.Unroll), "case %d: an interleaving is forbidden:\n%s", k, src)
		require.Subset(t, plain, got, "case %d: a fence allowed more:\n%s", k, src)
		if len(got) < len(plain) {
			restricted++
		}
	}
	t.Logf("%d programs over two locations with fences, %d with weak outcomes without them, %d with fewer outcomes than without", n, weak, restricted)
	require.Positive(t, restricted, "no fence forbade an outcome: the test says little")
}

// fencedShape draws two threads of two accesses each (exch, ld or st of
// 1 over initial 0s) going from one location to the other, as in message
// passing, store buffering and load buffering, where fences tell; every
// second program has a loop back to a thread's first access.
func fencedShape(r *rand.Rand) fragProg {
	p := fragProg{locs: 2}
	for range 2 {
		first := r.Intn(2)
		var th []fragOp
		for j := range 2 {
			th = append(th, fragOp{kind: []string{"exch", "ld", "st"}[r.Intn(3)], val: 1, cmpVal: int64(r.Intn(2)),
				cmp: []string{"beq", "bne"}[r.Intn(2)], target: j + 1, reg: j, regRead: j, loc: (first + j) % 2})
		}
		if r.Intn(2) == 0 {
			th[1].target = 0
		}
		p.threads = append(p.threads, th)
	}
	return p
}

// TestFairTerminationTwoLocationAwaits checks execution.FairTermination
// on programs over two locations whose loops are awaits against the
// enumerator's spinning runs, which search the model's executions, weak
// ones included: when FairTermination says every run finishes, no
// execution hangs; when it reports a livelock, one does. It may leave a
// program not decided, for instance one that hangs only in a weak
// execution, which the test counts (PTXMM_ORACLE_CASES programs, 150 by
// default).
func TestFairTerminationTwoLocationAwaits(t *testing.T) {
	n := casesOr(t, 150)
	for _, c := range []struct {
		name string
		seed int64
		draw func(*rand.Rand) fragProg
	}{
		{"random", 38, randomTwoLocationProg},
		{"accesses-then-await", 39, randomAccessesThenAwait},
		{"read-modify-writes-then-await", 41, randomUpdatesThenAwait},
		{"copies-then-await", 43, randomCopiesThenAwait},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := rand.New(rand.NewSource(c.seed))
			count := map[string]int{}
			for k := 0; k < n; {
				p := c.draw(r)
				if !p.pollsOnly() {
					continue
				}
				k++
				src := p.litmus()
				tc := herd(t, src)
				res := check(t, builtin(t), tc)
				if res.Loop {
					continue // a polling loop that keeps a register: not an await
				}
				ft := execution.FairTermination(tc, 0)
				verdict := ft.Verdict()
				if !ft.Decided {
					verdict = "not decided"
					if res.Hangs > 0 {
						verdict = "not decided, hangs"
					}
				} else {
					require.Equal(t, res.Hangs > 0, ft.Spins, "case %d:\n%s", k, src)
				}
				count[verdict]++
			}
			t.Logf("%d programs over two locations with awaits only: %v", n, count)
			require.Greater(t, count["livelock"], n/20)
			require.Greater(t, count["terminates"], n/20)
		})
	}
}

// randomAccessesThenAwait is a program over x and y whose threads each
// make an access or two (branching forward on what they read) and one
// await, a load looping on itself (P1 only half of the time): the shape of store buffering or
// message passing followed by a wait, where weak executions hang.
func randomAccessesThenAwait(r *rand.Rand) fragProg {
	return accessesThenAwait(r, []string{"exch", "ld", "st"})
}

// randomUpdatesThenAwait is randomAccessesThenAwait with atom.add,
// atom.xor, red.add and red.xor of 1 or 2 among the accesses: values that
// the limits find by closing the constants under those updates.
func randomUpdatesThenAwait(r *rand.Rand) fragProg {
	return accessesThenAwait(r, []string{"exch", "ld", "st", "add", "xor", "redadd", "redxor"})
}

// randomCopiesThenAwait is randomAccessesThenAwait with stores of a
// register among the accesses (st x, r0, of what the thread read): values
// the limits find by a fixed point over what the program's writes make.
func randomCopiesThenAwait(r *rand.Rand) fragProg {
	return accessesThenAwait(r, []string{"exch", "ld", "st", "streg", "streg"})
}

// accessesThenAwait draws such a program whose accesses are of the kinds
// given.
func accessesThenAwait(r *rand.Rand, kinds []string) fragProg {
	p := fragProg{init: int64(r.Intn(2)), locs: 2}
	for i := range 2 {
		const n = 3
		await := 1 + r.Intn(n-1)
		if i == 1 && r.Intn(2) == 0 {
			await = -1 // P1 only makes accesses
		}
		var th []fragOp
		for b := range n {
			op := fragOp{kind: kinds[r.Intn(len(kinds))], val: int64(r.Intn(2)), cmpVal: int64(r.Intn(2)),
				cmp: []string{"beq", "bne"}[r.Intn(2)], target: b + 1 + r.Intn(n-b), reg: b, regRead: r.Intn(b + 1), loc: r.Intn(2)}
			switch op.kind {
			case "add", "xor", "redadd", "redxor":
				op.val++
			}
			if b == await {
				op.kind, op.target, op.regRead = "ld", b, b
			}
			th = append(th, op)
		}
		p.threads = append(p.threads, th)
	}
	return p
}

// TestFairTerminationLeavesWeakHangOpen: P0 polls w only when it read y's
// 0 after storing x, and P1 sets w only when it read P0's x. Every
// interleaving ends, but store buffering lets both read 0, and then P0
// polls w for ever: the enumerator finds that hang, and FairTermination,
// asked about the same program, does not claim that every run ends: it
// leaves the test not decided, naming the limit. The same over two
// locations: P0 waits for x to be 0 again, which P1 makes it only when it
// read P0's 1. (The random programs of TestFairTerminationTwoLocationAwaits
// rarely have this shape.)
func TestFairTerminationLeavesWeakHangOpen(t *testing.T) {
	weakHang(t, `PTX SB+poll
{ x=0; y=0; w=0; }
 P0@cta 0,gpu 0           | P1@cta 0,gpu 0           ;
 st.relaxed.gpu x, 1      | st.relaxed.gpu y, 1      ;
 ld.relaxed.gpu r0, y     | ld.relaxed.gpu r1, x     ;
 bne r0, 0, E             | beq r1, 0, F             ;
 L:                       | st.relaxed.gpu w, 1      ;
 ld.relaxed.gpu r2, w     | F:                       ;
 beq r2, 0, L             |                          ;
 E:                       |                          ;
exists (0==0)
`, "w's last value is 0")
	weakHang(t, `PTX SB2+poll
{ x=0; y=0; }
 P0@cta 0,gpu 0        | P1@cta 0,gpu 0        ;
 st.relaxed.gpu x, 1   | st.relaxed.gpu y, 1   ;
 ld.relaxed.gpu r0, y  | ld.relaxed.gpu r1, x  ;
 bne r0, 0, E          | beq r1, 0, F          ;
 L:                    | st.relaxed.gpu x, 0   ;
 ld.relaxed.gpu r2, x  | F:                    ;
 bne r2, 0, L          |                       ;
 E:                    |                       ;
exists (0==0)
`, "x's last value is 1")
}

// weakHang checks that the enumerator finds a hang in the test src and
// that FairTermination leaves it not decided, naming P0 and limit.
func weakHang(t *testing.T, src, limit string) {
	t.Helper()
	tc := herd(t, src)
	res := check(t, builtin(t), tc)
	require.Positive(t, res.Hangs, "the weak execution hangs")
	ft := execution.FairTermination(tc, 0)
	require.False(t, ft.Decided)
	require.Contains(t, ft.Why, "P0 runs for ever while")
	require.Contains(t, ft.Why, limit)
}

// casesOr is the number of random programs a property test draws:
// PTXMM_ORACLE_CASES when it is set, def otherwise.
func casesOr(t *testing.T, def int) int {
	return oraclecases.Count(t, def)
}
