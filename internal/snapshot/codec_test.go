package snapshot

import (
	"errors"
	"math"
	"testing"

	"github.com/stretchr/testify/require"
)

// shape is an interface with a pointer and a value implementation.
type shape interface{ area() float64 }

type square struct{ side float64 }

func (s *square) area() float64 { return s.side * s.side }

type named string

func (n named) area() float64 { return float64(len(n)) }

type point struct {
	X, Y int
}

// graph exercises every kind the codec reads, in unexported fields.
type graph struct {
	name    string
	small   int8
	big     int64
	neg     int
	u       uint16
	f       float64
	ok      bool
	ids     []int
	words   []uint64
	flags   []bool
	empty   []string
	none    []string
	pair    [2]point
	byName  map[string]*node
	byPoint map[point]string
	nilMap  map[string]int
	shapes  []shape
	first   *node
	self    *graph
}

type node struct {
	label string
	next  *node
	kids  []*node
	at    *point
}

func newGraph() *graph {
	a := &node{label: "a", at: &point{1, 2}}
	b := &node{label: "b", next: a}
	a.next = b // a cycle
	a.kids = []*node{b, b, a}
	sq := &square{side: 1.5}
	g := &graph{
		name: "g", small: -3, big: math.MinInt64, neg: -1 << 40, u: 65535, f: -0.25, ok: true,
		ids: []int{0, 63, 64, -64, -65, 1 << 50}, words: []uint64{0, math.MaxUint64}, flags: []bool{true, false},
		empty: []string{}, pair: [2]point{{3, 4}, {-5, 6}},
		byName:  map[string]*node{"a": a, "b": b, "nil": nil},
		byPoint: map[point]string{{1, 1}: "one", {0, 0}: ""},
		shapes:  []shape{sq, named("four"), nil, sq},
		first:   a,
	}
	g.self = g
	return g
}

func testCodec() *Codec { return New((*square)(nil), named("")) }

func TestRoundTrip(t *testing.T) {
	c := testCodec()
	want := newGraph()
	data, err := Encode(c, want)
	require.NoError(t, err)
	got, err := Decode[graph](c, data)
	require.NoError(t, err)
	require.Equal(t, want, got)

	// Objects reached twice are one object, cycles included.
	require.Same(t, got, got.self)
	require.Same(t, got.first, got.byName["a"])
	require.Same(t, got.first.next.next, got.first)
	require.Same(t, got.first.kids[0], got.first.kids[1])
	require.Same(t, got.shapes[0], got.shapes[3])
	require.Nil(t, got.none)
	require.NotNil(t, got.empty)
	require.Nil(t, got.nilMap)
	// A slice read back has no room to grow into: appending copies.
	require.Equal(t, len(got.ids), cap(got.ids))

	again, err := Encode(c, want)
	require.NoError(t, err)
	require.Equal(t, data, again, "the same graph is written the same way")
}

func TestMismatch(t *testing.T) {
	c := testCodec()
	data, err := Encode(c, newGraph())
	require.NoError(t, err)
	_, err = Decode[node](c, data)
	require.ErrorIs(t, err, ErrMismatch, "another root type")
	_, err = Decode[graph](New((*square)(nil)), data)
	require.ErrorIs(t, err, ErrMismatch, "other concrete types")
	_, err = Decode[graph](c, nil)
	require.ErrorIs(t, err, ErrMismatch)
}

// TestTruncated reads every prefix and a corrupted copy of a graph: each
// is an error, never a panic or a graph.
func TestTruncated(t *testing.T) {
	c := testCodec()
	data, err := Encode(c, newGraph())
	require.NoError(t, err)
	for n := range len(data) {
		g, err := Decode[graph](c, data[:n])
		require.Error(t, err, "prefix of %d bytes", n)
		require.Nil(t, g)
	}
	for i := len(magic) + 32; i < len(data); i++ {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0xff
		require.NotPanics(t, func() { _, _ = Decode[graph](c, bad) }, "byte %d flipped", i)
	}
}

func TestRefused(t *testing.T) {
	type withFunc struct{ f func() }
	_, err := Encode(New(), &withFunc{f: func() {}})
	require.ErrorContains(t, err, "cannot write a func")

	type withShape struct{ s shape }
	_, err = Encode(New(), &withShape{s: named("x")})
	require.ErrorContains(t, err, "does not list")

	type ptrKey struct{ p *int }
	_, err = Encode(New(), &struct{ m map[ptrKey]int }{m: map[ptrKey]int{{new(int)}: 1}})
	require.ErrorContains(t, err, "map key holds a pointer")

	var g *graph
	_, err = Encode(New(), g)
	require.Error(t, err)
	require.False(t, errors.Is(err, ErrMismatch))
}
