package report

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// mpCandidate returns the message-passing candidate in which P1 reads y=1
// from P0 and x=0 from the initial write. Its events: 0 init:x, 1 init:y,
// 2 P0's st x, 3 P0's st y, 4 P1's ld y, 5 P1's ld x.
func mpCandidate(t *testing.T) *execution.Execution {
	t.Helper()
	tc := parse(t, "MP.litmus", herdCases[0].src)[0]
	cs, r := spec(t).Candidates(tc, checker.DefaultOptions(), 0)
	require.NoError(t, r.Err)
	for _, c := range cs {
		x := c.Execution
		if x.RF[4] == 3 && x.RF[5] == 0 {
			return x
		}
	}
	t.Fatal("no candidate with the stale read")
	return nil
}

// TestEdgeChain prints explanation paths in instruction terms, inverse
// edges backwards.
func TestEdgeChain(t *testing.T) {
	x := mpCandidate(t)
	cases := []struct {
		name  string
		edges []rules.Edge
		want  string
	}{
		{"empty", nil, ""},
		{
			name:  "one edge",
			edges: []rules.Edge{{From: 3, To: 4, Rel: "rf"}},
			want:  "P0:st.weak y, 1 -rf-> P1:ld.weak r0, y =1",
		},
		{
			name: "a cycle",
			edges: []rules.Edge{
				{From: 5, To: 2, Rel: "fr"},
				{From: 2, To: 3, Rel: "po"},
				{From: 3, To: 4, Rel: "rf"},
				{From: 4, To: 5, Rel: "po"},
			},
			want: "P1:ld.weak r1, x =0 -fr-> P0:st.weak x, 1 -po-> P0:st.weak y, 1 -rf-> P1:ld.weak r0, y =1 -po-> P1:ld.weak r1, x =0",
		},
		{
			name: "an inverse edge printed backwards",
			edges: []rules.Edge{
				{From: 5, To: 0, Rel: "rf", Inverse: true},
				{From: 0, To: 2, Rel: "co"},
			},
			want: "P1:ld.weak r1, x =0 <-rf- init:x=0 -co-> P0:st.weak x, 1",
		},
		{
			name:  "an atom that is not an event",
			edges: []rules.Edge{{From: 2, To: 99, Rel: "r"}, {From: 99, To: 2, Rel: "s"}},
			want:  "P0:st.weak x, 1 -r-> ? -s-> P0:st.weak x, 1",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, EdgeChain(x, c.edges))
		})
	}
}

// TestWitnessText prints each kind of failed check with its witness.
func TestWitnessText(t *testing.T) {
	x := mpCandidate(t)
	cases := []struct {
		name string
		f    rules.CheckResult
		want string
	}{
		{
			name: "acyclic: the cycle closed on its first event",
			f:    rules.CheckResult{Name: "causality", Kind: datalog.CheckAcyclic, Rel: "hb", Witness: []int{5, 2, 3, 4}},
			want: "causality: cycle in hb: P1:ld.weak r1, x =0 -> P0:st.weak x, 1 -> P0:st.weak y, 1 -> P1:ld.weak r0, y =1 -> P1:ld.weak r1, x =0",
		},
		{
			name: "acyclic: a self loop",
			f:    rules.CheckResult{Name: "c", Kind: datalog.CheckAcyclic, Rel: "r", Witness: []int{2}},
			want: "c: cycle in r: P0:st.weak x, 1 -> P0:st.weak x, 1",
		},
		{
			name: "irreflexive",
			f:    rules.CheckResult{Name: "fence_sc", Kind: datalog.CheckIrreflexive, Rel: "check$fence_sc", Witness: []int{4}},
			want: "fence_sc: P1:ld.weak r0, y =1 precedes itself in check$fence_sc",
		},
		{
			name: "empty: a pair",
			f:    rules.CheckResult{Name: "atomicity", Kind: datalog.CheckEmpty, Rel: "check$atomicity", Witness: []int{3, 4}},
			want: "atomicity: P0:st.weak y, 1 -atomicity-> P1:ld.weak r0, y =1",
		},
		{
			name: "empty: a named relation, with an atom that is not an event",
			f:    rules.CheckResult{Name: "e", Kind: datalog.CheckEmpty, Rel: "s", Witness: []int{0, 42}},
			want: "e: init:x=0 -s-> ?",
		},
		{
			name: "empty: a set",
			f:    rules.CheckResult{Name: "u", Kind: datalog.CheckEmpty, Rel: "MBAR_UNINIT", Witness: []int{3}},
			want: "u: MBAR_UNINIT holds (P0:st.weak y, 1)",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, WitnessText(x, c.f))
		})
	}
}

// TestDescribeCandidate summarises a candidate by its reads-from.
func TestDescribeCandidate(t *testing.T) {
	x := mpCandidate(t)
	assert.Equal(t, "P1:ld.weak r0, y =1 reads P0:st.weak y, 1; P1:ld.weak r1, x =0 reads init:x=0", DescribeCandidate(x))

	tc := parse(t, "W.litmus", "PTX W\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n")[0]
	cs, r := spec(t).Candidates(tc, checker.DefaultOptions(), 1)
	require.NoError(t, r.Err)
	require.Len(t, cs, 1)
	assert.Equal(t, "no reads", DescribeCandidate(cs[0].Execution))

	// Atomic operations show the value read.
	tc = parse(t, "A.litmus", "PTX A\n{ x=0; }\n P0@cta 0,gpu 0 ;\n atom.relaxed.gpu.add r0, x, 2 ;\nexists (x == 2)\n")[0]
	cs, r = spec(t).Candidates(tc, checker.DefaultOptions(), 0)
	require.NoError(t, r.Err)
	var got []string
	for _, c := range cs {
		got = append(got, DescribeCandidate(c.Execution))
	}
	assert.Contains(t, got, "P0:atom.relaxed.gpu.add r0, x, 2 (R=0) reads init:x=0")
}
