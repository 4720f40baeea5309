package litmus

import (
	"testing"

	"github.com/ptxmm/ptxmm/source"
	"github.com/stretchr/testify/require"
)

// Operand constructors for expected instructions.
func reg(r string) Operand  { return Operand{Kind: OperandReg, Reg: r} }
func imm(v int64) Operand   { return Operand{Kind: OperandImm, Imm: v} }
func addr(a string) Operand { return Operand{Kind: OperandAddr, Addr: a} }

// dtype is the data type a qualifier names, for expected instructions.
func dtype(name string) DataType { t, _ := dataTypeOf(name); return t }

// stripInstr returns a copy of in without positions and text, so that
// expected instructions can be written as literals.
func stripInstr(in *Instr) Instr {
	c := *in
	c.Pos, c.Text = source.Pos{}, ""
	for _, o := range []*Operand{&c.Addr, &c.Src, &c.Src2, &c.Instance, &c.BarID, &c.Count, &c.Pred, &c.Guard, &c.A, &c.B, &c.Mem2, &c.Mem3, &c.MBar, &c.Size} {
		o.At = LineCol{}
	}
	if c.VecSrc != nil {
		c.VecSrc = append([]Operand(nil), c.VecSrc...)
		for i := range c.VecSrc {
			c.VecSrc[i].At = LineCol{}
		}
	}
	return c
}

// mustHerd parses a herd test that must be valid.
func mustHerd(t *testing.T, src string) *Test {
	t.Helper()
	test, err := ParseHerd("t.litmus", []byte(src))
	require.NoError(t, err)
	return test
}

// mustNV parses a .test file that must be valid.
func mustNV(t *testing.T, file, src string) []*Test {
	t.Helper()
	tests, err := ParseNV(file, []byte(src))
	require.NoError(t, err)
	return tests
}

func int64p(v int64) *int64 { return &v }
