package rules

import (
	"testing"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// orderSrc has one order co over the input pairs, and checks tying it to
// the input relations fixed (co must not close a cycle with it), m (co must
// contain it, a check that is not monotone in co) and fr.
const orderSrc = `
.decl pairs(x, y)
.input pairs
.decl fixed(x, y)
.input fixed
.decl m(x, y)
.input m
.order co over pairs
let fr = co^-1 ; fixed
.check c1: acyclic(co | fixed)
.check nm: empty(m \ co)
`

func TestSolveFindsForcedOrientation(t *testing.T) {
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, orderSrc, opts...)
		in := newInst(t, p, "a", "b", "c")
		setFacts(t, in, "pairs", "a,b", "b,a", "b,c", "c,b")
		setFacts(t, in, "fixed", "b,a", "c,b")
		res := in.Solve()
		require.True(t, res.Consistent)
		assert.Empty(t, res.Failures)
		// co must orient both pairs against fixed, and is transitively closed.
		assert.Equal(t, []string{"b,a", "c,a", "c,b"}, rows(t, in, "co"))
		// The instance is left in the consistent choice, derived relations
		// included.
		assert.Equal(t, []string{"a,a", "a,b", "b,b"}, rows(t, in, "fr"))
		assert.True(t, in.AllHold())
		// The states tested: the root; the first choices a->b and b->c
		// together (a cycle with fixed); a->b alone (a cycle), then b->a;
		// b->c (a cycle), then c->b, which completes the choice.
		assert.Equal(t, 6, res.Nodes)
	})
}

func TestSolveAsymmetricPairsAndPresetOrder(t *testing.T) {
	p := compileSrc(t, orderSrc)
	in := newInst(t, p, "a", "b", "c")
	// Pairs need not be symmetric; self pairs are ignored.
	setFacts(t, in, "pairs", "c,a", "b,b")
	// Solve starts from an empty order whatever the host set before.
	setFacts(t, in, "co", "a,b", "b,c", "a,c")
	res := in.Solve()
	require.True(t, res.Consistent)
	assert.Equal(t, []string{"a,c"}, rows(t, in, "co"), "the first orientation tried is from the smaller atom")
}

func TestSolveReportsFailures(t *testing.T) {
	t.Run("monotone and non-monotone", func(t *testing.T) {
		forModes(t, func(t *testing.T, opts []CompileOption) {
			p := compileSrc(t, orderSrc, opts...)
			in := newInst(t, p, "a", "b")
			setFacts(t, in, "pairs", "a,b")
			setFacts(t, in, "fixed", "b,a")
			setFacts(t, in, "m", "a,b")
			res := in.Solve()
			assert.False(t, res.Consistent)
			// a->b closes a cycle with fixed (c1 prunes); b->a leaves m \ co
			// non-empty at the leaf (nm is only tested on complete choices).
			// Three states are tested: the root, a->b and b->a.
			require.Len(t, res.Failures, 2)
			assert.Equal(t, "c1", res.Failures[0].Name)
			assert.Equal(t, datalog.CheckAcyclic, res.Failures[0].Kind)
			assert.Equal(t, []string{"a", "b"}, names(in.Domain(), res.Failures[0].Witness))
			assert.Equal(t, "nm", res.Failures[1].Name)
			assert.Equal(t, []string{"a,b"}, []string{fmtTuple(in.Domain(), res.Failures[1].Witness)})
			for _, f := range res.Failures {
				assert.False(t, f.Holds)
			}
			assert.Equal(t, 3, res.Nodes)
		})
	})
	t.Run("every orientation fails the same check", func(t *testing.T) {
		p := compileSrc(t, `.decl pairs(x, y) .input pairs
.decl fixed(x, y) .input fixed
.order co over pairs
.check irr: irreflexive(co ; fixed)
`)
		in := newInst(t, p, "a", "b")
		setFacts(t, in, "pairs", "a,b")
		setFacts(t, in, "fixed", "a,b", "b,a")
		res := in.Solve()
		assert.False(t, res.Consistent)
		require.Len(t, res.Failures, 1, "a check is reported once")
		assert.Equal(t, "irr", res.Failures[0].Name)
		assert.Equal(t, []string{"a"}, names(in.Domain(), res.Failures[0].Witness), "the first witness found")
	})
	t.Run("no orders", func(t *testing.T) {
		p := compileSrc(t, `.decl e(x, y) .input e
.check ok: irreflexive(e)
.check bad1: acyclic(e ; e)
.check bad2: empty(e)
`)
		in := newInst(t, p, "a", "b")
		setFacts(t, in, "e", "a,b", "b,a")
		res := in.Solve()
		assert.False(t, res.Consistent)
		require.Len(t, res.Failures, 2)
		assert.Equal(t, "bad1", res.Failures[0].Name)
		assert.Equal(t, "bad2", res.Failures[1].Name)
		assert.Equal(t, 1, res.Nodes)
		setFacts(t, in, "e")
		res = in.Solve()
		assert.True(t, res.Consistent)
		assert.Empty(t, res.Failures)
	})
}

func TestSolveHooks(t *testing.T) {
	src := `.decl pairs(x, y) .input pairs
.order co over pairs
`
	setup := func(t *testing.T) *Instance {
		p := compileSrc(t, src)
		in := newInst(t, p, "a", "b", "c")
		setFacts(t, in, "pairs", "a,b", "b,c")
		return in
	}
	has := func(in *Instance, x, y string) bool {
		co, err := in.Rel("co")
		require.NoError(t, err)
		return co.Has(atomIndex(t, in.Domain(), x), atomIndex(t, in.Domain(), y))
	}
	t.Run("prune steers the search", func(t *testing.T) {
		in := setup(t)
		calls := 0
		res := in.Solve(WithPrune(func(in *Instance) bool {
			calls++
			return has(in, "a", "b") || has(in, "b", "c")
		}))
		require.True(t, res.Consistent)
		assert.Empty(t, res.Failures, "host constraints are not listed as failures")
		assert.Equal(t, []string{"b,a", "c,a", "c,b"}, rows(t, in, "co"), "closed transitively")
		assert.Equal(t, 6, res.Nodes)
		assert.Equal(t, res.Nodes, calls, "prune is tested at every step")
	})
	t.Run("prune sees the relations up to date", func(t *testing.T) {
		p := compileSrc(t, src+"let inv = co^-1\n")
		in := newInst(t, p, "a", "b")
		setFacts(t, in, "pairs", "a,b")
		res := in.Solve(WithPrune(func(in *Instance) bool {
			r, _ := in.Rel("inv")
			return r.Has(1, 0) // co has a->b
		}))
		require.True(t, res.Consistent)
		assert.Equal(t, []string{"b,a"}, rows(t, in, "co"))
	})
	t.Run("prune always", func(t *testing.T) {
		in := setup(t)
		res := in.Solve(WithPrune(func(*Instance) bool { return true }))
		assert.False(t, res.Consistent)
		assert.Empty(t, res.Failures)
		assert.Equal(t, 1, res.Nodes)
	})
	t.Run("accept only complete choices", func(t *testing.T) {
		in := setup(t)
		var seen [][]string
		res := in.Solve(WithAccept(func(in *Instance) bool {
			seen = append(seen, rows(t, in, "co"))
			return has(in, "c", "b") && has(in, "a", "b")
		}))
		require.True(t, res.Consistent)
		assert.Equal(t, []string{"a,b", "c,b"}, rows(t, in, "co"))
		assert.Equal(t, [][]string{
			{"a,b", "a,c", "b,c"},
			{"a,b", "c,b"},
		}, seen, "accept sees complete, transitively closed orders")
	})
	t.Run("accept never", func(t *testing.T) {
		in := setup(t)
		calls := 0
		res := in.Solve(WithAccept(func(*Instance) bool { calls++; return false }))
		assert.False(t, res.Consistent)
		assert.Empty(t, res.Failures)
		// a<b then b<c closes to a<c; the choice b<a, b<c leaves a, c
		// unrelated, which is still a complete choice of the pairs.
		assert.Equal(t, 4, calls, "every complete choice is offered")
	})
}

func TestSolveTwoOrders(t *testing.T) {
	// The pairs of o2 are o1 ; link: with o1 = a->b they are {a->c}, which
	// forbid rules out both ways; with o1 = b->a they are {b->c}, and fix2
	// forces c->b.
	src := `
.decl pairs1(x, y) .input pairs1
.decl link(x, y) .input link
.decl forbid(x, y) .input forbid
.decl fix2(x, y) .input fix2
.order o1 over pairs1
let pairs2 = o1 ; link
.order o2 over pairs2
.check k: empty(o2 & forbid)
.check a2: acyclic(o2 | fix2)
`
	forModes(t, func(t *testing.T, opts []CompileOption) {
		p := compileSrc(t, src, opts...)
		in := newInst(t, p, "a", "b", "c")
		setFacts(t, in, "pairs1", "a,b")
		setFacts(t, in, "link", "b,c", "a,c")
		setFacts(t, in, "forbid", "a,c", "c,a")
		setFacts(t, in, "fix2", "c,b")
		res := in.Solve()
		require.True(t, res.Consistent)
		assert.Equal(t, []string{"b,a"}, rows(t, in, "o1"))
		assert.Equal(t, []string{"b,c"}, rows(t, in, "pairs2"))
		assert.Equal(t, []string{"c,b"}, rows(t, in, "o2"))
		assert.True(t, in.AllHold())

		// Forbidding c->b too leaves no way out: both checks are reported.
		setFacts(t, in, "forbid", "a,c", "c,a", "c,b")
		res = in.Solve()
		assert.False(t, res.Consistent)
		var failed []string
		for _, f := range res.Failures {
			failed = append(failed, f.Name)
		}
		assert.Equal(t, []string{"k", "a2"}, failed)
	})
}

func TestOrderCompileErrors(t *testing.T) {
	tests := []struct{ name, src, want string }{
		{
			name: "pairs depend on the order",
			src:  ".decl e(x, y) .input e\nlet p = e | o\n.order o over p\n",
			want: ".order o over p: the pairs depend on the order itself",
		},
		{
			name: "orders depend on each other",
			src:  ".decl e(x, y) .input e\nlet p1 = e | o2\nlet p2 = e | o1\n.order o1 over p1\n.order o2 over p2\n",
			want: "the pairs of the orders o1, o2 depend on each other in a cycle",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, msg := loadModel(tc.src)
			require.Empty(t, msg)
			p, errs := Compile(m)
			assert.Nil(t, p)
			assert.Contains(t, errs.Quoted(), tc.want)
		})
	}
}

func TestOrderMonotonicity(t *testing.T) {
	p := compileSrc(t, `.decl pairs(x, y) .input pairs
.decl e(x, y) .input e
.order co over pairs
let pos = co ; e
let neg = e \ co
let negNeg = e \ neg
.check p1: irreflexive(pos)
.check n1: irreflexive(neg)
.check n2: empty(negNeg)
.check i1: acyclic(e)
`)
	want := map[string]bool{"p1": true, "n1": false, "n2": false, "i1": true}
	for _, c := range p.checks {
		assert.Equal(t, want[c.check.Name], c.monotone, c.check.Name)
	}
	// Orders come after the orders their pairs depend on, whatever the
	// source order.
	p = compileSrc(t, `.decl e(x, y) .input e
let p2 = o1 ; e
.order o2 over p2
.order o1 over e
`)
	require.Len(t, p.orders, 2)
	assert.Equal(t, "o1", p.orders[0].order.Name)
	assert.Equal(t, "o2", p.orders[1].order.Name)
}
