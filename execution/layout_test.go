package execution

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/source"
)

// TestLayoutAddresses checks how every kind of address declaration resolves:
// its root declaration (its memory), its generic address (what a
// surface/texture/constant reference aliases, through alias chains) and its
// physical location.
func TestLayoutAddresses(t *testing.T) {
	tc := herd(t, `PTX L
{
x=1; y=2;
xa @ generic aliases x;
xb @ generic aliases xa;
s @ surface aliases xb;
s2 @ surface aliases s;
tx @ texture aliases x;
c @ constant aliases y;
}
 P0@cta 0,gpu 0 ;
 ld.weak r0, x  ;
exists (P0:r0 == 0)
`)
	l, err := NewLayout(tc)
	require.NoError(t, err)

	type want struct {
		name          string
		kind          litmus.Proxy
		root, generic string
		init          int64
		loc           string
	}
	cases := []want{
		{"x", litmus.ProxyGeneric, "x", "x", 1, "x"},
		{"y", litmus.ProxyGeneric, "y", "y", 2, "y"},
		// A generic alias is a generic virtual address of its own, of the
		// same memory.
		{"xa", litmus.ProxyGeneric, "x", "xa", 1, "x"},
		{"xb", litmus.ProxyGeneric, "x", "xb", 1, "x"},
		// A surface reference's generic address is the address it aliases,
		// not the root declaration.
		{"s", litmus.ProxySurface, "x", "xb", 1, "x"},
		// A reference to a reference reaches the generic address at the end
		// of the chain.
		{"s2", litmus.ProxySurface, "x", "xb", 1, "x"},
		{"tx", litmus.ProxyTexture, "x", "x", 1, "x"},
		{"c", litmus.ProxyConstant, "y", "y", 2, "y"},
	}
	require.Len(t, l.Addrs, len(cases))
	assert.Equal(t, []string{"x", "y", "xa", "xb", "s", "s2", "tx", "c"}, l.AddrNames())
	// Two plain declarations: two physical locations, whatever the aliases.
	require.Len(t, l.Locs, 2)
	for _, loc := range l.Locs {
		assert.Equal(t, -1, loc.CTA, "global memory belongs to no CTA")
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			i, ok := l.Addr(c.name)
			require.True(t, ok)
			a := l.Addrs[i]
			assert.Equal(t, c.name, a.Name)
			assert.Equal(t, c.kind, a.Kind)
			assert.Equal(t, c.root, l.Addrs[a.Root].Name, "root")
			assert.Equal(t, c.generic, l.Addrs[a.Generic].Name, "generic address")
			assert.Equal(t, c.init, a.Init, "aliases take the initial value of their memory")
			assert.Equal(t, litmus.SpaceGlobal, a.Space)
			// Global memory is the same location from every CTA.
			for _, cta := range []int{0, 1, 1 << 20} {
				assert.Equal(t, c.loc, l.Locs[l.Loc(i, cta)].Name, "location seen from CTA key %d", cta)
			}
		})
	}
	_, ok := l.Addr("nope")
	assert.False(t, ok)
}

// TestLayoutSharedPerCTA checks that a .shared location exists once per CTA
// of the test (CTA numbers restart on every GPU), that threads of one CTA
// share it, and that aliases of shared memory are shared too.
func TestLayoutSharedPerCTA(t *testing.T) {
	cases := []struct {
		name    string
		threads string
		// locs are the location names sh resolves to for each thread.
		locs []string
	}{
		{
			name:    "one CTA keeps the plain name",
			threads: "d0.b0.t0 { st [sh], 1; }\nd0.b0.t1 { ld r0, [sh]; }\n",
			locs:    []string{"sh", "sh"},
		},
		{
			name:    "two CTAs of one GPU",
			threads: "d0.b0.t0 { st [sh], 1; }\nd0.b1.t0 { ld r0, [sh]; }\nd0.b0.t1 { ld r0, [sh]; }\n",
			locs:    []string{"sh@gpu0.cta0", "sh@gpu0.cta1", "sh@gpu0.cta0"},
		},
		{
			name:    "same CTA number on two GPUs",
			threads: "d0.b0.t0 { st [sh], 1; }\nd1.b0.t0 { ld r0, [sh]; }\n",
			locs:    []string{"sh@gpu0.cta0", "sh@gpu1.cta0"},
		},
		{
			// A CTA belongs to one kernel launch (Table 21, 8.3).
			name: "same CTA number in two kernels",
			threads: ".kernel K0 d0.b0.t0, d0.b1.t0;\n.kernel K1 d0.b0.t1;\n" +
				"h0 { cudaLaunchKernel K0, s1; cudaLaunchKernel K1, s1; }\n" +
				"d0.b0.t0 { st [sh], 1; }\nd0.b0.t1 { ld r0, [sh]; }\nd0.b1.t0 { ld r0, [sh]; }\n",
			locs: []string{"sh@gpu0.cta0.K0", "sh@gpu0.cta0.K1", "sh@gpu0.cta1"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc := nv(t, ".shared sh = 7;\n.global g;\n"+c.threads+"assert (g == 0) as a;\n")
			l, err := NewLayout(tc)
			require.NoError(t, err)
			sh, _ := l.Addr("sh")
			g, _ := l.Addr("g")
			assert.Equal(t, litmus.SpaceShared, l.Addrs[sh].Space)
			var got []string
			ctas := map[int]bool{}
			for i, th := range tc.Threads {
				if th.Host {
					continue // in no CTA
				}
				loc := l.Locs[l.Loc(sh, CTAKey(th))]
				got = append(got, loc.Name)
				assert.Equal(t, CTAKey(th), loc.CTA, "thread %d", i)
				assert.Equal(t, int64(7), loc.Init)
				ctas[CTAKey(th)] = true
				// The global location is the same from every thread.
				assert.Equal(t, "g", l.Locs[l.Loc(g, CTAKey(th))].Name)
			}
			assert.Equal(t, c.locs, got)
			// One shared location per CTA, plus the global one.
			assert.Len(t, l.Locs, len(ctas)+1)
			// A CTA with no thread of the test has no shared memory
			// modelled; the global address is seen from it all the same.
			absent := ctaKeyOf(5, 0, 9)
			_, ok := l.LocOf(sh, absent)
			assert.False(t, ok, "the shared address from a CTA without threads")
			loc, ok := l.LocOf(g, absent)
			assert.True(t, ok)
			assert.Equal(t, "g", l.Locs[loc].Name)
		})
	}
}

// TestLayoutSharedAlias checks that an alias of a shared location is the
// same per-CTA memory.
func TestLayoutSharedAlias(t *testing.T) {
	tc := nv(t, ".shared sh;\n.shared sa physically aliases sh;\n"+
		"d0.b0.t0 { st [sh], 1; }\nd0.b1.t0 { ld r0, [sa]; }\nassert (r0 == 0) as a;\n")
	l, err := NewLayout(tc)
	require.NoError(t, err)
	sh, _ := l.Addr("sh")
	sa, _ := l.Addr("sa")
	for _, th := range tc.Threads {
		assert.Equal(t, l.Loc(sh, CTAKey(th)), l.Loc(sa, CTAKey(th)))
	}
	assert.NotEqual(t, l.Loc(sa, CTAKey(tc.Threads[0])), l.Loc(sa, CTAKey(tc.Threads[1])))
	assert.Len(t, l.Locs, 2)
}

// TestLayoutErrors checks that declarations the parsers would reject are
// also rejected by NewLayout itself, at the declaration's position: alias
// cycles, aliases of undeclared names and duplicate names. The tests are
// built by hand since the parsers never produce them.
func TestLayoutErrors(t *testing.T) {
	pos := func(line int) source.Pos { return source.Pos{File: "h.litmus", Line: line, Col: 1} }
	cases := []struct {
		name  string
		addrs []*litmus.Address
		want  []string // the messages, one per diagnostic, in order
		lines []int
	}{
		{
			name: "two-step cycle",
			addrs: []*litmus.Address{
				{Name: "x", Pos: pos(1)},
				{Name: "a", AliasOf: "b", Pos: pos(2)},
				{Name: "b", AliasOf: "a", Pos: pos(3)},
			},
			want:  []string{"address a is part of an alias cycle", "address b is part of an alias cycle"},
			lines: []int{2, 3},
		},
		{
			name: "self alias",
			addrs: []*litmus.Address{
				{Name: "a", AliasOf: "a", Kind: litmus.ProxySurface, Pos: pos(4)},
			},
			want:  []string{"address a is part of an alias cycle"},
			lines: []int{4},
		},
		{
			name: "alias into a cycle",
			addrs: []*litmus.Address{
				{Name: "a", AliasOf: "b", Pos: pos(1)},
				{Name: "b", AliasOf: "c", Pos: pos(2)},
				{Name: "c", AliasOf: "b", Pos: pos(3)},
			},
			// a is not in the cycle but cannot be resolved either: the
			// diagnostic at a's declaration names the cycle member reached.
			want:  []string{"address b is part of an alias cycle", "address b is part of an alias cycle", "address c is part of an alias cycle"},
			lines: []int{1, 2, 3},
		},
		{
			name: "unknown target",
			addrs: []*litmus.Address{
				{Name: "x", Pos: pos(1)},
				{Name: "s", AliasOf: "nowhere", Kind: litmus.ProxySurface, Pos: pos(5)},
			},
			want:  []string{"address s aliases nowhere, which is not declared"},
			lines: []int{5},
		},
		{
			name: "unknown target at the end of a chain",
			addrs: []*litmus.Address{
				{Name: "a", AliasOf: "b", Pos: pos(1)},
				{Name: "b", AliasOf: "nowhere", Pos: pos(2)},
			},
			want:  []string{"address b aliases nowhere, which is not declared", "address b aliases nowhere, which is not declared"},
			lines: []int{1, 2},
		},
		{
			// Regression: NewLayout used to loop forever on a reference
			// aliasing nothing (the parsers never produce one).
			name: "reference without a target",
			addrs: []*litmus.Address{
				{Name: "s", Kind: litmus.ProxySurface, Pos: pos(7)},
				{Name: "s2", Kind: litmus.ProxySurface, AliasOf: "s", Pos: pos(8)},
			},
			want:  []string{"surface reference s aliases no address"},
			lines: []int{7},
		},
		{
			name: "duplicate",
			addrs: []*litmus.Address{
				{Name: "x", Pos: pos(1)},
				{Name: "x", Pos: pos(6)},
			},
			want:  []string{"address x is declared twice"},
			lines: []int{6},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			l, err := NewLayout(&litmus.Test{Name: "h", File: "h.litmus", Addresses: c.addrs})
			require.Error(t, err)
			assert.Nil(t, l)
			var list source.List
			require.ErrorAs(t, err, &list)
			var msgs []string
			var lines []int
			for _, e := range list {
				msgs = append(msgs, e.Msg)
				lines = append(lines, e.Pos.Line)
				assert.Equal(t, "h.litmus", e.Pos.File)
			}
			assert.Equal(t, c.want, msgs)
			assert.Equal(t, c.lines, lines)
		})
	}
}

// TestPrepareRejectsBadLayout checks that Prepare passes layout errors on.
func TestPrepareRejectsBadLayout(t *testing.T) {
	tc := &litmus.Test{Name: "h", Addresses: []*litmus.Address{{Name: "a", AliasOf: "a"}}}
	_, err := Prepare(tc, DefaultOptions())
	require.Error(t, err)
	assert.Contains(t, err.Error(), "alias cycle")
}
