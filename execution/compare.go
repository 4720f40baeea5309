package execution

import (
	"fmt"
	"strconv"
	"strings"
)

// compareValues decides a comparison: "eq" and "ne" (branches, load
// filters, constraints) compare two values as they are, addresses
// included; setp's "CMP.TYPE" compares the low bits of the type's width,
// as signed (.sN) or unsigned (.uN, .bN) integers. lo, ls, hi and hs are
// the unsigned lt, le, gt and ge (PTX ISA 9.7.6.2).
func compareValues(op string, a, b Value) (bool, error) {
	cmp, typ, typed := strings.Cut(op, ".")
	if !typed || a.IsAddr || b.IsAddr || a.IsMBar || b.IsMBar {
		switch cmp {
		case "eq":
			return a == b, nil
		case "ne":
			return a != b, nil
		}
		return false, fmt.Errorf("setp.%s on an address or an mbarrier state is not supported", op)
	}
	bits, err := strconv.Atoi(typ[1:])
	if err != nil || bits <= 0 || bits > 64 {
		return false, fmt.Errorf("unknown comparison type .%s", typ)
	}
	x, y := uint64(a.N), uint64(b.N)
	if bits < 64 {
		mask := uint64(1)<<bits - 1
		x, y = x&mask, y&mask
	}
	signed := typ[0] == 's'
	if signed && bits < 64 {
		// Sign-extend the low bits.
		shift := 64 - bits
		x, y = uint64(int64(x<<shift)>>shift), uint64(int64(y<<shift)>>shift)
	}
	less := x < y
	if signed {
		less = int64(x) < int64(y)
	}
	switch cmp {
	case "eq":
		return x == y, nil
	case "ne":
		return x != y, nil
	case "lt", "lo":
		return less, nil
	case "le", "ls":
		return less || x == y, nil
	case "gt", "hi":
		return !less && x != y, nil
	case "ge", "hs":
		return !less, nil
	}
	return false, fmt.Errorf("unknown comparison %s", cmp)
}
