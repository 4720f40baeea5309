package gen

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func build(t *testing.T, cycle, placement string) string {
	t.Helper()
	c, err := ParseCycle(cycle)
	require.NoError(t, err)
	p, err := ParsePlacement(placement)
	require.NoError(t, err)
	tst, err := Build(c, p)
	require.NoError(t, err)
	return tst.Litmus()
}

func TestMP(t *testing.T) {
	assert.Equal(t, `PTX MP
"Cycle=PodWW Rfe PodRR Fre"
{
x=0; y=0;
}
P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;
st.weak x, 1   | ld.weak r0, y  ;
st.weak y, 1   | ld.weak r1, x  ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`, build(t, "PodWW Rfe PodRR Fre", "gpu"))
}

func TestAnnotatedRMWAliasCtrl(t *testing.T) {
	assert.Equal(t, `PTX LB+rmwacq.gpurel.gpu-porel.gpualias+ctrl+cluster
"Cycle=Acq.gpu Rmw Rel.gpu PodWW Alias Rfe DpCtrldW Rfe"
{
x=0; y=0;
y_alias @ generic aliases y;
}
P0@cta 0,cluster 0,gpu 0       | P1@cta 1,cluster 0,gpu 0 ;
atom.acq_rel.gpu.exch r0, x, 2 | ld.weak r0, y            ;
st.weak y_alias, 1             | bne r0, 0, LC11          ;
                               | LC11:                    ;
                               | st.weak x, 1             ;
exists (P0:r0 == 1 /\ P1:r0 == 1 /\ x == 2)
`, build(t, "DpCtrldW Rfe Acq.gpu Rmw Rel.gpu PodWW Alias Rfe", "cluster"))
}

func TestNames(t *testing.T) {
	for _, tc := range []struct{ cycle, placement, name string }{
		{"PodWW Rfe PodRR Fre", "gpu", "MP"},
		{"Fre PodWW Rfe PodRR", "gpu", "MP"},
		{"PodWR Fre PodWR Fre", "cta", "SB+cta"},
		{"Fence.sc.gpudWR Fre Fence.sc.gpudWR Fre", "gpu", "SB+fence.sc.gpus"},
		{"Fence.sc.gpudWR Fre PodWR Fre", "gpu", "SB+fence.sc.gpu+po"},
		{"PodRW Rfe PodRW Rfe", "sys", "LB+sys"},
		{"DpDatadW Rfe DpCtrldW Rfe", "gpu", "LB+ctrl+data"},
		{"Rfe PodRR Fre Rfe PodRR Fre", "gpu", "IRIW"},
		{"Rfe PodRW Rfe PodRR Fre", "01.2", "WRC+ctas01-2"},
		{"PodWW Rfe PodRW Rfe PodRR Fre", "gpu", "ISA2"},
		{"Rfe PodRR Fre PodWR Fre", "gpu", "RWC"},
		{"Rfe PodRW Rfe PodRW Coe", "gpu", "WWC"},
		{"PodWW Coe PodWW Coe", "gpu", "2+2W"},
		{"PodWW Coe PodWW Rfe PodRR Fre", "gpu", "Z6.3"},
		{"PodWW Rel.gpu Rfe Acq.gpu PodRR Fre", "gpu", "MP+poprel.gpu+poacq.gpup"},
		{"Rfe PosRR Fre", "gpu", "CoRR"},
		{"PosWR Fre", "gpu", "CoWR0"},
		{"PodWW Rfe PodRW Coe", "gpu", "S"},
		{"PodRR Fre PodWR Fre Rfe", "gpu", "RWC"},
	} {
		c, err := ParseCycle(tc.cycle)
		require.NoError(t, err, tc.cycle)
		p, err := ParsePlacement(tc.placement)
		require.NoError(t, err)
		assert.Equal(t, tc.name, Name(c, p), tc.cycle)
	}
}

func TestCycleErrors(t *testing.T) {
	for _, tc := range []struct{ cycle, want string }{
		{"PodWW Rfe PodWR Fre", "Rfe ends on a read (R) but PodWR starts from a write (W)"},
		{"PodWW Rfe", "Rfe ends on a read (R) but PodWW starts from a write (W)"},
		{"PodWR Fre PosWR Fre", "one edge changes location"},
		{"PodWR PodRW PodWW", "no external edge"},
		{"PodRR Hat", `"Hat" is not an edge`},
		{"DpAddrdR Fre PodWR Rfe", "no addresses from values"},
		{"DpDatadR Fre", "a data dependency goes to a write"},
		{"PodWW Acq.gpu Rfe PodRR Fre", "Acq.gpu on a write"},
		{"PodWW Rel Rfe PodRR Fre", "needs a scope"},
		{"PodWW Rel.warp Rfe PodRR Fre", `unknown scope "warp"`},
		{"Fence.sc.gpudWR Fre Fence.seq.gpudWR Fre", `unknown fence order "seq"`},
		{"", "empty cycle"},
		{"Rfe Rmw Rmw Fre", "Rmw ends on a write (W) but Rmw starts from a read (R)"},
	} {
		c, err := ParseCycle(tc.cycle)
		if err == nil {
			_, err = Build(c, Placement{})
		}
		require.Error(t, err, tc.cycle)
		assert.Contains(t, err.Error(), tc.want, tc.cycle)
	}
}

func TestPlacementErrors(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"warp", `"w" is not a thread number`},
		{"01.1", "thread 1 is in two groups"},
		{"02", "thread 2 is named but not every thread below it is"},
		{"0..1", "an empty group"},
	} {
		_, err := ParsePlacement(tc.in)
		require.Error(t, err, tc.in)
		assert.Contains(t, err.Error(), tc.want)
	}
	c, err := ParseCycle("PodWW Rfe PodRR Fre")
	require.NoError(t, err)
	p, err := ParsePlacement("0.1.2")
	require.NoError(t, err)
	_, err = Build(c, p)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "placement ctas0-1-2 names 3 threads, but the test has 2")
}

func TestPrototypes(t *testing.T) {
	for name, want := range map[string]string{
		"MP": "PodWW Rfe PodRR Fre", "SB": "PodWR Fre PodWR Fre", "LB": "PodRW Rfe PodRW Rfe",
		"IRIW": "Rfe PodRR Fre Rfe PodRR Fre", "WRC": "Rfe PodRW Rfe PodRR Fre", "ISA2": "PodWW Rfe PodRW Rfe PodRR Fre",
		"RWC": "Rfe PodRR Fre PodWR Fre", "WWC": "Rfe PodRW Rfe PodRW Coe", "2+2W": "PodWW Coe PodWW Coe",
		"Z6.3": "PodWW Coe PodWW Rfe PodRR Fre", "CoRR": "Rfe PosRR Fre", "WW+RR": "PodWW Rfe PodRR Fre",
	} {
		got, err := Prototype(name)
		require.NoError(t, err, name)
		assert.Equal(t, want, got, name)
		c, err := ParseCycle(got)
		require.NoError(t, err)
		if name != "WW+RR" {
			assert.Equal(t, name, FamilyName(c), "the prototype of %s is named %s", name, name)
		}
	}
	_, err := Prototype("XYZ")
	assert.ErrorContains(t, err, `unknown family "XYZ"`)
	_, err = Prototype("RR+WW+RR")
	assert.ErrorContains(t, err, "cannot pass to one that starts with a read")
}

func TestEnumerate(t *testing.T) {
	relax, err := ParseEdges("PodWR")
	require.NoError(t, err)
	safe, err := ParseEdges("Fre")
	require.NoError(t, err)
	cs, err := Enumerate(FamilyOptions{Relax: relax, Safe: safe, Size: 6, Procs: 4})
	require.NoError(t, err)
	var names []string
	for _, c := range cs {
		names = append(names, Name(c, Placement{}))
	}
	assert.Equal(t, []string{"SB", "3.SB"}, names, "diy7 -safe Fre -relax PodWR makes SB and 3.SB")

	star, err := ParseEdges("PodR*,Rfe")
	require.NoError(t, err)
	var texts []string
	for _, e := range star {
		texts = append(texts, e.Text)
	}
	assert.Equal(t, []string{"PodRR", "PodRW", "Rfe"}, texts)
	_, err = Enumerate(FamilyOptions{Safe: safe, Size: 1, Procs: 2})
	assert.ErrorContains(t, err, "at least two edges")
}

func TestCross(t *testing.T) {
	cs, rejected, first, err := Cross("PodWW,Fence.sc.gpudWW Rfe PodRR,PodRW Fre")
	require.NoError(t, err)
	assert.Len(t, cs, 2)
	assert.Equal(t, 2, rejected)
	assert.ErrorContains(t, first, "PodRW ends on a write (W) but Fre starts from a read (R)")
	_, _, _, err = Cross("PodWW,PodXX Rfe PodRR Fre")
	assert.ErrorContains(t, err, `"PodXX" is not an edge`)
	cs, _, _, err = Cross("PodWW Rel.gpu,- Rfe PodRR Fre")
	require.NoError(t, err)
	require.Len(t, cs, 2)
	assert.Equal(t, "PodWW Rel.gpu Rfe PodRR Fre", cs[0].String())
	assert.Equal(t, "PodWW Rfe PodRR Fre", cs[1].String())
}

func TestVary(t *testing.T) {
	v, err := Vary("PodWW Rfe PodRR Fre", []string{"po", "Fence.sc.gpu", "DpCtrl"}, []string{"Weak", "RelAcq.cta"})
	require.NoError(t, err)
	assert.Equal(t, "Weak,Rel.cta PodWW,Fence.sc.gpudWW Weak,Rel.cta Rfe Weak,Acq.cta PodRR,Fence.sc.gpudRR,DpCtrldR Weak,Acq.cta Fre", v)
	_, err = Vary("PodWW Rfe PodRR Fre", []string{"Fence.bogus"}, nil)
	assert.ErrorContains(t, err, "-po Fence.bogus")
	_, err = Vary("PodWW Rfe PodRR Fre", nil, []string{"Strong"})
	assert.ErrorContains(t, err, "-sem Strong")
}

func TestGenerateNumbersNameClashes(t *testing.T) {
	// Two different cycles with one name: diy7 numbers the second.
	g, err := Generate(Request{Cycles: []string{"PodWW Rfe PodRR Fre", "Fre PodWW Rfe PodRR"}})
	require.NoError(t, err)
	require.Len(t, g.Tests, 1, "a rotation of a cycle is the same test")
	g, err = Generate(Request{Cycles: []string{"DpCtrldW Rfe DpCtrlsW PodWW Rfe", "DpCtrlsW PodWW Rfe DpCtrldW Rfe"}})
	require.NoError(t, err)
	require.Len(t, g.Tests, 1)
}
