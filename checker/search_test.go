package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus/families"
)

// TestSearchLeavesOutRejected checks that the search evaluates fewer
// candidates than the full enumeration and finds the same: on tests with
// inconsistent choices of reads-from and of final writes.
func TestSearchLeavesOutRejected(t *testing.T) {
	m := spec(t)
	cases := []struct {
		name, src string
	}{
		{"CoWR-4", families.CoWRThreads(4)},
		{"final writes", `PTX CoWW2
{ x=0; y=0; }
 P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
 st.weak x, 1   | st.weak y, 1   ;
 st.weak x, 2   | st.weak y, 2   ;
 ld.weak r0, y  | ld.weak r1, x  ;
exists (x == 1 /\ y == 1)
`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc := herd(t, c.src)
			opts := DefaultOptions()
			opts.pruneMin = 1 // small tests too
			got := m.Check(tc, opts)
			require.NoError(t, got.Err)
			opts.FullSearch = true
			want := m.Check(tc, opts)
			require.NoError(t, want.Err)
			assert.Equal(t, summary(want), summary(got))
			assert.Equal(t, want.Candidates, want.Evaluated, "the full enumeration evaluates every candidate")
			assert.Less(t, got.Evaluated, want.Evaluated, "the search leaves candidates out")
		})
	}
}

// TestSearchNeedsMonotoneModel: a model whose axiom can hold again as
// reads-from grows is warned about, and its tests are enumerated in full.
func TestSearchNeedsMonotoneModel(t *testing.T) {
	m := loadModel(t, "testdata", "thin-air-only.dl")
	require.NotEmpty(t, m.notMonotone)
	assert.Contains(t, m.Warnings.Error(), "axiom thread_writes_only depends on rf through a negation")
	r := m.Check(herd(t, families.CoWRThreads(3)), DefaultOptions())
	require.NoError(t, r.Err)
	assert.Equal(t, r.Candidates, r.Evaluated)
	assert.Empty(t, spec(t).notMonotone, "the PTX model lets the search leave candidates out")
}

// TestWarmStart: in a test whose candidates are all consistent, the
// orders of one candidate do for the next, and the order search is
// skipped for most of them.
func TestWarmStart(t *testing.T) {
	m := spec(t)
	var sess *session
	tc := herd(t, families.SBRing(5))
	opts := DefaultOptions()
	rs := checkAllWith([]*Model{m}, tc, opts, nil, func(s *session) { sess = s })
	require.NoError(t, rs[0].Err)
	w := sess.runs[0].warm
	assert.Greater(t, w.hits, w.tries/2, "the saved orders do for most candidates (%d of %d)", w.hits, w.tries)
	opts.FullSearch = true
	rs = checkAllWith([]*Model{m}, tc, opts, nil, func(s *session) { sess = s })
	require.NoError(t, rs[0].Err)
	assert.Zero(t, sess.runs[0].warm.tries, "the full search solves every candidate from scratch")
}

// TestWarmRelsKept: the relations a warm start saves orders in are kept by
// the worker for the sizes of litmus tests and reused by its next check,
// which starts with no saved orders all the same; a big test's are not
// kept.
func TestWarmRelsKept(t *testing.T) {
	m := spec(t)
	cases := []struct {
		events int
		kept   bool
	}{
		{5, true},
		{maxKeptWarmEvents, true},
		{maxKeptWarmEvents + 1, false},
	}
	for _, c := range cases {
		w := newWorker(m)
		first := newModelRun(m, &Result{}, 0)
		first.w, first.warm.kept = w, w.warm
		inst := m.Program.NewInstance(eventDomain(c.events))
		first.warm.save(m, inst)
		require.NotNil(t, first.warm.orders, "%d events", c.events)
		next := &modelRun{m: m, w: w, warm: warmStart{kept: w.warm}}
		assert.Nil(t, next.warm.orders, "a check starts with no saved orders")
		assert.False(t, next.warm.try(m, inst, nil), "nothing to try before a save")
		next.warm.save(m, inst)
		if c.kept {
			assert.Same(t, first.warm.orders[0], next.warm.orders[0], "%d events: the relations are reused", c.events)
		} else {
			assert.NotSame(t, first.warm.orders[0], next.warm.orders[0], "%d events: a big test's relations are not kept", c.events)
			assert.Empty(t, w.warm)
		}
	}
}
