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
}

func constSym(v Value) *Sym { return &Sym{kind: symConst, val: v} }

// IsConst reports whether the value is known without any read.
func (s *Sym) IsConst() bool { return s.kind == symConst }

// reads collects the read events the value depends on.
func (s *Sym) reads(out []int) []int {
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
	}
	out = s.a.reads(out)
	if s.b != nil {
		out = s.b.reads(out)
	}
	if s.c != nil {
		out = s.c.reads(out)
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
	case symArith:
		v, err := arithValue(s.op, a, b)
		return v, err == nil, err
	case symAtom:
		v, err := atomValue(s.op, a, b, c, s.b != nil)
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

// atomValue computes what an atomic operation writes, from the value it read
// (old) and its operands. cas only reaches here when it succeeds.
func atomValue(op string, old, a, b Value, hasOperand bool) (Value, error) {
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
	switch op {
	case "add":
		return Int(old.N + a.N), nil
	case "sub":
		return Int(old.N - a.N), nil
	case "and":
		return Int(old.N & a.N), nil
	case "or":
		return Int(old.N | a.N), nil
	case "xor":
		return Int(old.N ^ a.N), nil
	case "min":
		return Int(min(old.N, a.N)), nil
	case "max":
		return Int(max(old.N, a.N)), nil
	case "inc":
		// PTX: ((old >= b) ? 0 : old+1); without an operand, plain increment.
		if hasOperand && old.N >= a.N {
			return Int(0), nil
		}
		return Int(old.N + 1), nil
	case "dec":
		// PTX: (((old == 0) | (old > b)) ? b : old-1); without an operand, plain decrement.
		if hasOperand && (old.N == 0 || old.N > a.N) {
			return a, nil
		}
		return Int(old.N - 1), nil
	}
	return Value{}, fmt.Errorf("unknown atomic operation %s", op)
}
