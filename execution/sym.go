package execution

import "fmt"

// symKind is the kind of a symbolic value.
type symKind int

const (
	symConst symKind = iota // a known value
	symRead                 // the value a read returns (or a bar.red its reduction)
	symArith                // a register operation on two values
	symAtom                 // the value an atom or red writes from the value it read
	symCmp                  // 1 when two values compare as op says ("eq", "ne", or setp's "CMP.TYPE"), else 0
	symMBar                 // the state an mbarrier update writes (see mbarrier.go)
	symWait                 // 1 when an mbarrier wait sees its phase complete, else 0
	symConv                 // bits [shift, shift+8*size) of a, sign- or zero-extended: a value cut to a data type
	symJoin                 // parts laid side by side, part k at bit shifts[k], then extended from size bytes
)

// Sym is a value as a thread computes it: known constants, or expressions
// over the values its reads return, which only a choice of reads-from
// determines. Syms are immutable and shared.
type Sym struct {
	kind  symKind
	val   Value // symConst
	read  int   // symRead: the index of the read (or bar.red) event within its run
	op    string
	a, b  *Sym
	c     *Sym // symAtom: the second operand of cas
	instr string
	// The data type of symConv, symJoin, and of the typed symAtom and
	// symArith (size 0: untyped, 64-bit arithmetic).
	size   int
	signed bool
	shift  int
	// symJoin: the parts, their bit positions and their widths in bytes.
	parts  []*Sym
	shifts []int
	widths []int
}

// convSym cuts v to a data type of size bytes from bit shift (a store's
// value, an element of a packed value), folding constants.
func convSym(v *Sym, shift, size int, signed bool) *Sym {
	if v.IsConst() {
		if c, err := convValue(v.val, shift, size, signed); err == nil {
			return constSym(c)
		}
	}
	return &Sym{kind: symConv, a: v, shift: shift, size: size, signed: signed}
}

// convValue is the value of a symConv.
func convValue(v Value, shift, size int, signed bool) (Value, error) {
	if v.IsAddr || v.IsMBar {
		if shift == 0 {
			return v, nil
		}
		return Value{}, fmt.Errorf("part of an address or mbarrier state is not a value")
	}
	return Int(truncate(v.N>>uint(shift), size, signed)), nil
}

// constSym is the known value v. The small integers and addresses,
// which every thread's registers and operands start from, are shared
// (Syms are immutable): a suite of small tests built about a thousand
// equal constants per test.
func constSym(v Value) *Sym {
	if v.N >= 0 && v.N < smallConsts {
		switch v {
		case Int(v.N):
			return &smallIntSyms[v.N]
		case AddrValue(int(v.N)):
			return &smallAddrSyms[v.N]
		}
	}
	return &Sym{kind: symConst, val: v}
}

// smallConsts bounds the integers and address indices constSym shares.
const smallConsts = 16

// smallIntSyms and smallAddrSyms are the shared constants: Int(n) and
// AddrValue(n) for n below smallConsts. They are never written.
var smallIntSyms, smallAddrSyms = func() (ints, addrs [smallConsts]Sym) {
	for n := range smallConsts {
		ints[n] = Sym{kind: symConst, val: Int(int64(n))}
		addrs[n] = Sym{kind: symConst, val: AddrValue(n)}
	}
	return ints, addrs
}()

// IsConst reports whether the value is known without any read.
func (s *Sym) IsConst() bool { return s.kind == symConst }

// reads collects the read events the value depends on.
func (s *Sym) reads(out []int) []int { return s.collect(out, false) }

// valueReads collects the reads the value depends on as eval computes it:
// exch and cas write an operand whatever they read.
func (s *Sym) valueReads(out []int) []int { return s.collect(out, true) }

// collect is reads, or valueReads when values is set.
func (s *Sym) collect(out []int, values bool) []int {
	switch s.kind {
	case symRead:
		for _, r := range out {
			if r == s.read {
				return out
			}
		}
		return append(out, s.read)
	case symConst:
		return out
	case symJoin:
		for _, p := range s.parts {
			out = p.collect(out, values)
		}
		return out
	case symAtom:
		if values && s.op == "exch" {
			return s.b.collect(out, values)
		}
		if values && s.op == "cas" {
			return s.c.collect(out, values)
		}
	}
	out = s.a.collect(out, values)
	if s.b != nil {
		out = s.b.collect(out, values)
	}
	if s.c != nil {
		out = s.c.collect(out, values)
	}
	return out
}

// eval computes the value given the values of reads (readVal reports false
// for a read whose value is not known yet).
func (s *Sym) eval(readVal func(int) (Value, bool)) (Value, bool, error) {
	switch s.kind {
	case symConst:
		return s.val, true, nil
	case symRead:
		v, ok := readVal(s.read)
		return v, ok, nil
	case symAtom:
		// exch and (a successful) cas write an operand whatever they read:
		// their value must not wait for the read's, or a reads-from cycle
		// through them would look undetermined (thin air) although its
		// values are known (and a cas assumption they contradict would not
		// prune the candidate).
		switch s.op {
		case "exch":
			return s.b.eval(readVal)
		case "cas":
			return s.c.eval(readVal)
		}
	case symJoin:
		return s.join(readVal)
	}
	a, ok, err := s.a.eval(readVal)
	if !ok || err != nil {
		return Value{}, ok, err
	}
	var b, c Value
	if s.b != nil {
		if b, ok, err = s.b.eval(readVal); !ok || err != nil {
			return Value{}, ok, err
		}
	}
	if s.c != nil {
		if c, ok, err = s.c.eval(readVal); !ok || err != nil {
			return Value{}, ok, err
		}
	}
	switch s.kind {
	case symMBar:
		return mbarUpdate(s.op, a, b, c), true, nil
	case symWait:
		return mbarWaitDone(a, b, s.op == "parity"), true, nil
	case symConv:
		v, err := convValue(a, s.shift, s.size, s.signed)
		return v, err == nil, err
	case symArith:
		v, err := arithValue(s.op, a, b)
		if err == nil && s.size > 0 {
			v.N = truncate(v.N, s.size, s.signed)
		}
		return v, err == nil, err
	case symAtom:
		v, err := atomValue(s.op, a, b, c, s.b != nil, s.size, s.signed)
		return v, err == nil, err
	case symCmp:
		holds, err := compareValues(s.op, a, b)
		if err != nil {
			return Value{}, false, err
		}
		if holds {
			return Int(1), true, nil
		}
		return Int(0), true, nil
	}
	return Value{}, false, fmt.Errorf("unknown symbolic value kind %d", s.kind)
}

// join lays the values of the parts side by side.
func (s *Sym) join(readVal func(int) (Value, bool)) (Value, bool, error) {
	var n int64
	for k, p := range s.parts {
		v, ok, err := p.eval(readVal)
		if !ok || err != nil {
			return Value{}, ok, err
		}
		if v.IsAddr || v.IsMBar {
			return Value{}, false, fmt.Errorf("a read made of several pieces cannot hold an address or mbarrier state")
		}
		n |= truncate(v.N, s.widths[k], false) << uint(s.shifts[k])
	}
	return Int(truncate(n, s.size, s.signed)), true, nil
}

// arithValue computes a register operation.
func arithValue(op string, a, b Value) (Value, error) {
	if a.IsAddr || b.IsAddr {
		return Value{}, fmt.Errorf("%s on an address is not supported", op)
	}
	if a.IsMBar || b.IsMBar {
		return Value{}, fmt.Errorf("%s on the state of an mbarrier object is not supported", op)
	}
	switch op {
	case "add":
		return Int(a.N + b.N), nil
	case "sub":
		return Int(a.N - b.N), nil
	case "mul":
		return Int(a.N * b.N), nil
	case "and":
		return Int(a.N & b.N), nil
	case "or":
		return Int(a.N | b.N), nil
	case "xor":
		return Int(a.N ^ b.N), nil
	}
	return Value{}, fmt.Errorf("unknown register operation %s", op)
}

// atomValue computes what an atomic operation of size bytes writes, from
// the value it read (old) and its operands (already cut to its type). cas
// only reaches here when it succeeds. The result wraps around to the type;
// min and max compare as the type is signed or not, inc and dec compare
// unsigned (PTX defines them on .u32). size 0 is untyped: 64 bits, signed.
func atomValue(op string, old, a, b Value, hasOperand bool, size int, signed bool) (Value, error) {
	switch op {
	case "exch":
		return a, nil
	case "cas":
		return b, nil
	}
	if old.IsAddr || a.IsAddr {
		return Value{}, fmt.Errorf("atom.%s on an address is not supported", op)
	}
	if old.IsMBar || a.IsMBar {
		return Value{}, fmt.Errorf("atom.%s on the state of an mbarrier object is not supported", op)
	}
	if size == 0 {
		size, signed = 8, true
	}
	less := func(x, y int64) bool {
		if signed {
			return x < y
		}
		return uint64(truncate(x, size, false)) < uint64(truncate(y, size, false))
	}
	ult := func(x, y int64) bool { return uint64(truncate(x, size, false)) < uint64(truncate(y, size, false)) }
	var n int64
	switch op {
	case "add":
		n = old.N + a.N
	case "sub":
		n = old.N - a.N
	case "and":
		n = old.N & a.N
	case "or":
		n = old.N | a.N
	case "xor":
		n = old.N ^ a.N
	case "min":
		n = old.N
		if less(a.N, old.N) {
			n = a.N
		}
	case "max":
		n = old.N
		if less(old.N, a.N) {
			n = a.N
		}
	case "inc":
		// PTX: ((old >= b) ? 0 : old+1); without an operand, plain increment.
		n = old.N + 1
		if hasOperand && !ult(old.N, a.N) {
			n = 0
		}
	case "dec":
		// PTX: (((old == 0) | (old > b)) ? b : old-1); without an operand, plain decrement.
		n = old.N - 1
		if hasOperand && (truncate(old.N, size, false) == 0 || ult(a.N, old.N)) {
			n = a.N
		}
	default:
		return Value{}, fmt.Errorf("unknown atomic operation %s", op)
	}
	return Int(truncate(n, size, signed)), nil
}
