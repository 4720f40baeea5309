package rules

import (
	"fmt"
	"strconv"
)

// ValueKind tells the kinds of atoms apart.
type ValueKind int

const (
	// KindHost is an atom supplied by the host (an event of an execution);
	// host atoms never equal a constant, whatever their names.
	KindHost ValueKind = iota
	// KindString is a string constant.
	KindString
	// KindInt is an integer constant.
	KindInt
)

// Value is an atom of the domain.
type Value struct {
	Kind ValueKind
	Str  string // host atom name or string constant
	Int  int64
}

// String prints the value the way the language writes it: strings quoted,
// host atoms by their name.
func (v Value) String() string {
	switch v.Kind {
	case KindString:
		return strconv.Quote(v.Str)
	case KindInt:
		return strconv.FormatInt(v.Int, 10)
	default:
		return v.Str
	}
}

// Domain interns atoms as dense integers 0..Len()-1, the indices of the
// bitset relations.
type Domain struct {
	values []Value
	index  map[Value]int
}

// NewDomain returns an empty domain.
func NewDomain() *Domain { return &Domain{index: map[Value]int{}} }

// Intern returns v's atom, adding it if it is new.
func (d *Domain) Intern(v Value) int {
	if i, ok := d.index[v]; ok {
		return i
	}
	d.values = append(d.values, v)
	d.index[v] = len(d.values) - 1
	return len(d.values) - 1
}

// AddHost adds a host atom with a display name and returns its index.
// Host names must be unique within a domain.
func (d *Domain) AddHost(name string) (int, error) {
	v := Value{Kind: KindHost, Str: name}
	if _, ok := d.index[v]; ok {
		return 0, fmt.Errorf("host atom %q is already in the domain", name)
	}
	return d.Intern(v), nil
}

// Lookup returns v's atom if it is in the domain.
func (d *Domain) Lookup(v Value) (int, bool) {
	i, ok := d.index[v]
	return i, ok
}

// Value returns the value of atom i.
func (d *Domain) Value(i int) Value { return d.values[i] }

// Len is the number of atoms.
func (d *Domain) Len() int { return len(d.values) }

// Clone returns a copy that can grow independently.
func (d *Domain) Clone() *Domain {
	c := &Domain{values: append([]Value(nil), d.values...), index: make(map[Value]int, len(d.index))}
	for k, v := range d.index {
		c.index[k] = v
	}
	return c
}
