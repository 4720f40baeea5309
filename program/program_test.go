package program

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// mp is message passing with a release store, an acquire load and a data
// dependency, placed in two CTAs of a cluster.
func mp() *Test {
	return &Test{
		Name:  "MP+rel+acq-data",
		Doc:   "message passing\nCycle=PodWW Rfe PodRR Fre",
		Addrs: []Addr{{Name: "x", AliasOf: -1}, {Name: "y", AliasOf: -1}, {Name: "x_alias", AliasOf: 0}},
		Threads: []Thread{
			{Place: Place{GPU: 0, Cluster: 0, CTA: 0}, Ops: []Op{
				{Kind: Store, Addr: 0, Value: 1},
				{Kind: Fence, Sem: SC, Scope: GPU},
				{Kind: Store, Sem: Release, Scope: GPU, Addr: 1, Value: 1},
			}},
			{Place: Place{GPU: 0, Cluster: 0, CTA: 1}, Ops: []Op{
				{Kind: Load, Sem: Acquire, Scope: GPU, Addr: 1},
				{Kind: Store, Addr: 2, Value: 2, Dep: Data, From: 0},
				{Kind: RMW, Sem: AcqRel, Scope: CTA, Addr: 0, Value: 3, Dep: Ctrl, From: 0},
				{Kind: AliasFence},
			}},
		},
		Quantifier: "exists",
		Pins:       []Pin{{Thread: 1, Op: 0, Value: 1}, {Thread: 1, Op: 2, Value: 0}, {Thread: -1, Addr: 0, Value: 3}},
		Observe:    []Pin{{Thread: -1, Addr: 1}},
	}
}

func TestLitmus(t *testing.T) {
	want := `PTX MP+rel+acq-data
"message passing
Cycle=PodWW Rfe PodRR Fre"
{
x=0; y=0;
x_alias @ generic aliases x;
}
P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0       ;
st.weak x, 1             | ld.acquire.gpu r0, y           ;
fence.sc.gpu             | xor t1, r0, r0                 ;
st.release.gpu y, 1      | add t1, t1, 2                  ;
                         | st.weak x_alias, t1            ;
                         | bne r0, 0, LC12                ;
                         | LC12:                          ;
                         | atom.acq_rel.cta.exch r1, x, 3 ;
                         | fence.proxy.alias              ;
locations [y;]
exists (P1:r0 == 1 /\ P1:r1 == 0 /\ x == 3)
`
	assert.Equal(t, want, mp().Litmus())
}

func TestParse(t *testing.T) {
	lt, err := mp().Parse()
	require.NoError(t, err)
	assert.Equal(t, "MP+rel+acq-data", lt.Name)
	require.Len(t, lt.Threads, 2)
	assert.Len(t, lt.Threads[1].Instrs, 8, "seven instructions and a label")
}

func TestTrueCondition(t *testing.T) {
	m := mp()
	m.Pins = nil
	assert.Equal(t, "exists (true)", m.Condition().String())
	_, err := m.Parse()
	require.NoError(t, err)
}

func TestEventCount(t *testing.T) {
	assert.Equal(t, 7, mp().EventCount())
}
