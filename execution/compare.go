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
	if err != nil || bits <= 0 || bits > 64 || bits%8 != 0 {
		return false, fmt.Errorf("unknown comparison type .%s", typ)
	}
	signed := typ[0] == 's'
	x, y := truncate(a.N, bits/8, signed), truncate(b.N, bits/8, signed)
	less := uint64(x) < uint64(y)
	if signed {
		less = x < y
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
