package litmus

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAppendElements: AppendElements appends exactly Elements to what the
// buffer holds.
func TestAppendElements(t *testing.T) {
	f16x2, _ := dataTypeOf("f16x2")
	cases := []struct {
		name string
		in   Instr
		want int
	}{
		{"untyped scalar", Instr{Op: OpLoad, Dst: "r0"}, 1},
		{"vector", Instr{Op: OpStore, Vec: 2, VecSrc: []Operand{{Kind: OperandImm, Imm: 1}, {Kind: OperandImm, Imm: 2}}, Type: DataType{Name: "u32", Size: 4}}, 2},
		{"packed", Instr{Op: OpLoad, Dst: "r0", Type: f16x2, Offset: 4}, 2},
		{"vector of packed", Instr{Op: OpLoad, Vec: 4, VecDst: []string{"a", "b", "c", "d"}, Type: f16x2}, 8},
	}
	for _, c := range cases {
		want := c.in.Elements()
		assert.Len(t, want, c.want, c.name)
		prefix := []Element{{Reg: "before"}}
		got := c.in.AppendElements(prefix)
		assert.Equal(t, append([]Element{{Reg: "before"}}, want...), got, c.name)
		var buf [4]Element
		assert.Equal(t, want, c.in.AppendElements(buf[:0]), c.name)
	}
}
