package litmus

import "strings"

// This file holds the data types of memory instructions (8.2): how many
// bytes each scalar memory operation accesses, how a value read is
// extended to a register, and the vector and packed forms that stand for
// several scalar operations (8.2.4, 8.2.5).

// DefaultSize is the size in bytes of an access whose instruction names no
// type (docs/litmus.md, "Values and sizes").
const DefaultSize = 4

// DataType is the data type of a memory instruction.
type DataType struct {
	// Name is the type qualifier as written ("u32", "f16x2"), "" when the
	// instruction names none.
	Name string
	// Size is the number of bytes of one scalar memory operation.
	Size int
	// Signed marks the .s types and untyped accesses: a value read is
	// sign-extended to the register. .u, .b and floating-point types
	// zero-extend (ptxmm has no floating-point arithmetic: their values are
	// bit patterns).
	Signed bool
	// Packed is 2 for .f16x2 and .bf16x2: one register holds two scalars
	// of Size bytes, accessed as two operations (8.2.5). 0 otherwise.
	Packed int
	// Float marks the floating-point types, which only loads and stores
	// accept.
	Float bool
}

// DefaultType is the type of an access whose instruction names none: 32
// bits, signed.
func DefaultType() DataType { return DataType{Size: DefaultSize, Signed: true} }

// RegSize is the number of bytes of the register value of one element: the
// scalar size, twice it for packed types.
func (d DataType) RegSize() int { return d.Size * max(d.Packed, 1) }

// String names the type as written, "(none)" when absent.
func (d DataType) String() string {
	if d.Name == "" {
		return "(none)"
	}
	return "." + d.Name
}

// dataTypeOf returns the data type a qualifier names.
func dataTypeOf(s string) (DataType, bool) {
	switch s {
	case "f16x2", "bf16x2":
		return DataType{Name: s, Size: 2, Packed: 2, Float: true}, true
	case "f16", "bf16":
		return DataType{Name: s, Size: 2, Float: true}, true
	case "f32":
		return DataType{Name: s, Size: 4, Float: true}, true
	case "f64":
		return DataType{Name: s, Size: 8, Float: true}, true
	}
	if !isTypeQual(s) {
		return DataType{}, false
	}
	bits := 0
	for _, c := range s[1:] {
		bits = bits*10 + int(c-'0')
	}
	return DataType{Name: s, Size: bits / 8, Signed: s[0] == 's'}, true
}

// DeclSize is the number of bytes of a variable declared with type t and
// elems array elements (0 for a scalar); 0 when t is absent.
func DeclSize(t DataType, elems int) int { return t.RegSize() * max(elems, 1) }

// FitsBytes reports whether n is the value of size bytes, read signed or
// unsigned.
func FitsBytes(n int64, size int) bool {
	if size >= 8 {
		return true
	}
	bits := uint(8 * size)
	return n >= -(1<<(bits-1)) && n < 1<<bits
}

// vectorOf returns the element count a vector qualifier names.
func vectorOf(s string) (int, bool) {
	switch s {
	case "v2":
		return 2, true
	case "v4":
		return 4, true
	}
	return 0, false
}

// Element is one scalar memory operation of a load or store: vector and
// packed instructions have several (8.2.4, 8.2.5), every other one a
// single element.
type Element struct {
	// Off is the element's first byte, from the instruction's address
	// (its offset included).
	Off int64
	// Size is the number of bytes the element accesses.
	Size int
	// Reg is the register of a load element ("" for stores and for loads
	// without a destination); Val the value of a store element.
	Reg string
	Val Operand
	// Shift is the bit position of the element in its register: 0 but for
	// the upper half of a packed type.
	Shift int
}

// Elements lists the scalar memory operations of a load, store, atom or
// red, in element order.
func (in *Instr) Elements() []Element { return in.AppendElements(nil) }

// AppendElements appends Elements to out: a caller with a buffer of its
// own (on its stack) builds them without allocating.
func (in *Instr) AppendElements(out []Element) []Element {
	t := in.Type
	if t.Size == 0 {
		t = DefaultType()
	}
	vec := max(in.Vec, 1)
	for v := 0; v < vec; v++ {
		reg, val := in.Dst, in.Src
		if in.Vec > 0 {
			reg, val = "", Operand{}
			if v < len(in.VecDst) {
				reg = in.VecDst[v]
			}
			if v < len(in.VecSrc) {
				val = in.VecSrc[v]
			}
		}
		for k := 0; k < max(t.Packed, 1); k++ {
			off := in.Offset + int64(v*t.RegSize()+k*t.Size)
			out = append(out, Element{Off: off, Size: t.Size, Reg: reg, Val: val, Shift: 8 * k * t.Size})
		}
	}
	return out
}

// ElementCount is len(in.Elements()), without building them.
func (in *Instr) ElementCount() int {
	t := in.Type
	if t.Size == 0 {
		t = DefaultType()
	}
	return max(in.Vec, 1) * max(t.Packed, 1)
}

// Extent returns the bytes [Offset, Offset+n) the instruction's elements
// access from its address.
func (in *Instr) Extent() (off int64, n int) {
	if in.ElementCount() == 1 {
		// One element: the instruction's offset and its type's size.
		t := in.Type
		if t.Size == 0 {
			t = DefaultType()
		}
		return in.Offset, t.Size
	}
	els := in.Elements()
	last := els[len(els)-1]
	return els[0].Off, int(last.Off-els[0].Off) + last.Size
}

// typeNames lists the data types for diagnostics.
func typeNames(withFloat bool) string {
	names := []string{".u8", ".s8", ".b8", ".u16", ".s16", ".b16", ".u32", ".s32", ".b32", ".u64", ".s64", ".b64"}
	if withFloat {
		names = append(names, ".f16", ".bf16", ".f32", ".f64", ".f16x2", ".bf16x2")
	}
	return strings.Join(names, ", ")
}
