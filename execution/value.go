package execution

import "strconv"

// Value is a register or memory value: an integer, or the address of a
// location (registers may hold addresses for indirect accesses).
type Value struct {
	IsAddr bool
	N      int64 // the integer, or the address index when IsAddr
}

// Int returns an integer value.
func Int(n int64) Value { return Value{N: n} }

// AddrValue returns the value of an address.
func AddrValue(a int) Value { return Value{IsAddr: true, N: int64(a)} }

// format prints a value, naming addresses through names.
func (v Value) format(names []string) string {
	if v.IsAddr {
		if int(v.N) < len(names) {
			return names[v.N]
		}
		return "&" + strconv.FormatInt(v.N, 10)
	}
	return strconv.FormatInt(v.N, 10)
}
