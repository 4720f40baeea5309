package litmus

import "github.com/ptxmm/ptxmm/source"

// This file reads tensor-map declarations: herd "tm @ tensormap g, BYTES"
// and .test ".tensormap tm g, BYTES;". In PTX a tensor map is an opaque
// object made on the host that describes a tensor in global memory and the
// box a cp.async.bulk.tensor copies; ptxmm copies whole locations, so a
// tensor map names the global location that is its box and the box's size
// in bytes, which a load's complete-tx counts (docs/litmus.md, section 4.9.2).

// TensorMap is a declared tensor map.
type TensorMap struct {
	Name string
	// Target is the global location the box covers, as written.
	Target string
	// Bytes is the size of the box: the completeCount of a load's
	// complete-tx ("equal to amount of data copied in bytes").
	Bytes int64
	Pos   source.Pos
	// targetAt is the position of Target, for the diagnostics of the
	// checks made once every address is known.
	targetAt LineCol
}

// TensorCopy is the tensor operand of cp.async.bulk.tensor and
// cp.reduce.async.bulk.tensor: "[tm, {c0, ...}]".
type TensorCopy struct {
	// Map is the tensor map's name, At its position.
	Map string
	At  LineCol
	// Dim is the .Nd qualifier (1 to 5), and Coords the tensor coordinates
	// (integers or registers, one per dimension). ptxmm copies the whole
	// box, so they have no effect on the model.
	Dim    int
	Coords []Operand
}

// parseTensorMapDecl parses "TARGET, BYTES" after "NAME @ tensormap"
// (herd) or ".tensormap NAME" (.test), up to the ';' (or the '}' of a herd
// init block), which it leaves in place.
func (p *parser) parseTensorMapDecl(c *cursor, t *Test, name token) bool {
	if !isAddrName(name.text) {
		p.errorf(name.off, "malformed tensor map name %q: names are plain names without dots (%%names are registers)", name.text)
		return false
	}
	target := c.peek()
	if c.done() || target.kind != tokIdent || !isAddrName(target.text) {
		p.errorf(target.off, "expected the global location of the tensor map %s (its box), found %s", name.text, target.describe())
		return false
	}
	c.next()
	if !c.accept(",") {
		e := c.peek()
		p.errorf(e.off, "expected ',' and the size of the box in bytes after %s @ tensormap %s, found %s", name.text, target.text, e.describe())
		return false
	}
	n, off, ok := p.intLit(c)
	if !ok {
		return false
	}
	if n <= 0 || n > maxTensorBox {
		p.errorf(off, "the box of tensor map %s must hold 1 to %d bytes, found %d", name.text, maxTensorBox, n)
		return false
	}
	if first := p.tensorMaps[name.text]; first != nil {
		p.errorf(name.off, "tensor map %q is already declared at line %d", name.text, first.Pos.Line)
		return false
	}
	if p.tensorMaps == nil {
		p.tensorMaps = map[string]*TensorMap{}
	}
	tm := &TensorMap{Name: name.text, Target: target.text, Bytes: n, Pos: p.pos(name.off), targetAt: p.at(target.off)}
	p.tensorMaps[name.text] = tm
	t.TensorMaps = append(t.TensorMaps, tm)
	return true
}

// maxTensorBox bounds a box's bytes by the largest tx-count an mbarrier
// holds (PTX ISA, mbarrier: 2^20-1), which a load's complete-tx counts.
const maxTensorBox = 1<<20 - 1

// parseNVTensorMap parses the rest of ".tensormap tm g, BYTES;".
func (p *parser) parseNVTensorMap(c *cursor, t *Test, d token) {
	name := c.peek()
	if c.done() || name.kind != tokIdent {
		p.errorf(name.off, "expected a tensor map name after %s, found %s", d.text, name.describe())
		p.skipStatement(c)
		return
	}
	c.next()
	if !p.parseTensorMapDecl(c, t, name) {
		p.skipStatement(c)
		return
	}
	if semi := c.peek(); c.done() || !semi.is(";") {
		p.errorf(semi.off, "expected ';' after the box size of %s, found %s", name.text, semi.describe())
		if !startsTopLevel(c) {
			p.skipStatement(c)
		}
		return
	}
	c.next()
}

// tensorOperand reads "[tm, {c0, ..., cN-1}]", the tensor operand of a
// tensor copy of dim dimensions, and points the copy's global operand at
// the tensor map's location: its box is the whole location. The tensor
// map must be declared before the instruction (herd init blocks come
// first; in .test files declare it before the threads).
func (p *parser) tensorOperand(c *cursor, in *Instr, global *Operand, thread, dim int, mn string) bool {
	open := c.peek()
	if c.done() || !open.is("[") {
		p.errorf(open.off, "expected the tensor operand [TENSORMAP, {COORDINATES}] of %s, found %s", mn, open.describe())
		return false
	}
	c.next()
	name := c.peek()
	if c.done() || name.kind != tokIdent {
		p.errorf(name.off, "expected a tensor map after '[' in %s, found %s", mn, name.describe())
		return false
	}
	tm := p.tensorMaps[name.text]
	if tm == nil {
		p.errorf(name.off, "%s is not a tensor map: declare it before the threads (%s @ tensormap LOCATION, BYTES in a herd init block; .tensormap %s LOCATION, BYTES; in a .test file)", name.text, name.text, name.text)
		return false
	}
	c.next()
	tc := &TensorCopy{Map: tm.Name, At: p.at(name.off), Dim: dim}
	if !p.expectComma(c, mn, "tensor map") {
		return false
	}
	brace := c.peek()
	if c.done() || !brace.is("{") {
		p.errorf(brace.off, "expected '{' to open the %d tensor coordinates of %s, found %s", dim, mn, brace.describe())
		return false
	}
	c.next()
	for {
		co, ok := p.immOrReg(c, mn, "tensor coordinate")
		if !ok {
			return false
		}
		tc.Coords = append(tc.Coords, co)
		if !c.accept(",") {
			break
		}
	}
	if e := c.peek(); c.done() || !e.is("}") {
		p.errorf(e.off, "expected ',' or '}' after a tensor coordinate of %s, found %s", mn, e.describe())
		return false
	}
	c.next()
	if len(tc.Coords) != dim {
		p.errorf(brace.off, "%s has %d tensor coordinates, but .%dd needs %d (one per dimension)", mn, len(tc.Coords), dim, dim)
		return false
	}
	if e := c.peek(); c.done() || !e.is("]") {
		p.errorf(e.off, "expected ']' after the tensor coordinates of %s, found %s", mn, e.describe())
		return false
	}
	c.next()
	in.Tensor = tc
	*global = Operand{Kind: OperandAddr, Addr: tm.Target, At: tm.targetAt}
	p.refs = append(p.refs, nameRef{in: in, op: global, role: roleMem, thread: thread, qualOff: -1})
	in.Size = Operand{Kind: OperandImm, Imm: tm.Bytes, At: tc.At}
	return true
}

// checkTensorMaps rejects a tensor map whose name is also an address (a
// declared one, or one a herd test declared implicitly by using the name
// as a memory operand): the two would be confused in messages and
// conditions.
func (p *parser) checkTensorMaps(t *Test) {
	for _, tm := range t.TensorMaps {
		if a := t.AddressByName(tm.Name); a != nil {
			p.errs.Add(tm.Pos, "%s is declared as a tensor map and used as an address: tensor maps are only the tensor operand of cp.async.bulk.tensor", tm.Name)
		}
	}
}
