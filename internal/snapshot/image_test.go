package snapshot

import (
	"reflect"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// imageCodec lists only pointer types: an image holds no value an
// interface boxes.
func imageCodec() *Codec { return New((*square)(nil)) }

// nested holds a map in a map's values and a struct with a map in a
// slice.
type nested struct {
	byName  map[string]map[int]*node
	holders []holder
	g       *graph
}

type holder struct {
	m  map[string]string
	sh shape
}

func newImageGraph() *nested {
	g := newGraph()
	g.shapes = []shape{g.shapes[0], nil, g.shapes[0]}
	a := g.first
	return &nested{
		byName:  map[string]map[int]*node{"x": {1: a, 2: a.next}, "y": {}, "z": nil},
		holders: []holder{{m: map[string]string{"k": "v", "": "empty"}, sh: g.shapes[0]}, {}},
		g:       g,
	}
}

func TestImageRoundTrip(t *testing.T) {
	c := imageCodec()
	want := newImageGraph()
	data, err := EncodeImage(c, want)
	require.NoError(t, err)
	got, err := DecodeImage[nested](c, data)
	require.NoError(t, err)
	require.Equal(t, want, got)

	g := got.g
	require.Same(t, g, g.self)
	require.Same(t, g.first, g.byName["a"])
	require.Same(t, g.first, got.byName["x"][1])
	require.Same(t, g.first.next.next, g.first)
	require.Same(t, g.first.kids[0], g.first.kids[1])
	require.Same(t, g.shapes[0], g.shapes[2])
	require.Same(t, g.shapes[0], got.holders[0].sh)
	require.Nil(t, g.none)
	require.NotNil(t, g.empty)
	require.Nil(t, g.nilMap)
	require.NotNil(t, got.byName["y"])
	require.Nil(t, got.byName["z"])
	require.Equal(t, len(g.ids), cap(g.ids))
	// What is read back is the program's own: it can be changed.
	g.ids[0] = 7
	got.byName["x"][3] = g.first
	g.empty = append(g.empty, "grows")

	again, err := EncodeImage(c, newImageGraph())
	require.NoError(t, err)
	require.Equal(t, data, again, "the same graph is written the same way")
}

func TestImageMismatch(t *testing.T) {
	c := imageCodec()
	data, err := EncodeImage(c, newImageGraph())
	require.NoError(t, err)
	_, err = DecodeImage[graph](c, data)
	require.ErrorIs(t, err, ErrMismatch, "another root type")
	_, err = DecodeImage[nested](New(), data)
	require.ErrorIs(t, err, ErrMismatch, "other concrete types")
	_, err = DecodeImage[nested](c, nil)
	require.ErrorIs(t, err, ErrMismatch)
	stream, err := Encode(c, newImageGraph())
	require.NoError(t, err)
	_, err = DecodeImage[nested](c, stream)
	require.ErrorIs(t, err, ErrMismatch, "a stream is not an image")
}

// TestImageDamaged reads every prefix and every copy with a byte
// flipped: each is an error, never a panic or a graph.
func TestImageDamaged(t *testing.T) {
	c := imageCodec()
	data, err := EncodeImage(c, newImageGraph())
	require.NoError(t, err)
	for n := range len(data) {
		g, err := DecodeImage[nested](c, data[:n])
		require.Error(t, err, "prefix of %d bytes", n)
		require.Nil(t, g)
	}
	for i := range data {
		bad := append([]byte(nil), data...)
		bad[i] ^= 0xff
		g, err := DecodeImage[nested](c, bad)
		require.Error(t, err, "byte %d flipped", i)
		require.Nil(t, g)
	}
}

func TestImageRefused(t *testing.T) {
	// A value an interface holds boxed lies in no arena.
	_, err := EncodeImage(testCodec(), newGraph())
	require.ErrorContains(t, err, "not a pointer")
}

// TestImageBuiltIn reads an image without its checksum, as the program
// reads the one it embeds: the same graph, and types are still checked.
func TestImageBuiltIn(t *testing.T) {
	c := imageCodec()
	want := newImageGraph()
	data, err := EncodeImage(c, want)
	require.NoError(t, err)
	require.NoError(t, CheckImage(data))
	got, err := DecodeBuiltInImage[nested](c, data)
	require.NoError(t, err)
	require.Equal(t, want, got)
	_, err = DecodeBuiltInImage[graph](c, data)
	require.ErrorIs(t, err, ErrMismatch, "another root type")
	_, err = DecodeBuiltInImage[nested](New(), data)
	require.ErrorIs(t, err, ErrMismatch, "other concrete types")
	_, err = DecodeBuiltInImage[nested](c, data[:imageHead-1])
	require.ErrorIs(t, err, ErrMismatch, "a header cut short")
	require.ErrorIs(t, CheckImage(nil), ErrMismatch)
	bad := append([]byte(nil), data...)
	bad[len(bad)-1] ^= 1
	require.ErrorContains(t, CheckImage(bad), "damaged")
}

// TestImageBuiltInInPlace checks which parts DecodeBuiltInImage cuts from
// the image's bytes: the strings and the arrays without pointers lie in
// data (those of 8-byte words where data puts them at an address their
// alignment admits: once in eight shifts of the bytes), and nothing is
// written into data; the arrays with pointers are copied, since their
// pointers are written at load. DecodeImage copies everything: what it
// reads back may be changed.
func TestImageBuiltInInPlace(t *testing.T) {
	c := imageCodec()
	image, err := EncodeImage(c, newImageGraph())
	require.NoError(t, err)
	var idsInPlace, wordsInPlace int
	for shift := range 8 {
		data := make([]byte, len(image)+8)[shift:][:len(image)]
		copy(data, image)
		within := func(p unsafe.Pointer) bool {
			lo := uintptr(unsafe.Pointer(&data[0]))
			return uintptr(p) >= lo && uintptr(p) < lo+uintptr(len(data))
		}
		got, err := DecodeBuiltInImage[nested](c, data)
		require.NoError(t, err)
		g := got.g
		require.True(t, within(unsafe.Pointer(unsafe.StringData(g.name))), "a string is cut from the image")
		require.True(t, within(unsafe.Pointer(&g.flags[0])), "bools need no alignment")
		ids, words := within(unsafe.Pointer(&g.ids[0])), within(unsafe.Pointer(&g.words[0]))
		for _, p := range []unsafe.Pointer{unsafe.Pointer(&g.ids[0]), unsafe.Pointer(&g.words[0])} {
			require.Zero(t, uintptr(p)%8, "an array of words lies aligned")
		}
		if ids {
			idsInPlace++
		}
		if words {
			wordsInPlace++
		}
		require.False(t, within(unsafe.Pointer(&g.shapes[0])), "an array of interfaces is copied")
		require.False(t, within(unsafe.Pointer(&g.first.kids[0])), "an array of pointers is copied")
		require.Equal(t, newImageGraph(), got)
		require.Equal(t, image, data, "reading the image wrote nothing into it")

		copied, err := DecodeImage[nested](c, data)
		require.NoError(t, err)
		require.False(t, within(unsafe.Pointer(unsafe.StringData(copied.g.name))))
		require.False(t, within(unsafe.Pointer(&copied.g.ids[0])))
		require.False(t, within(unsafe.Pointer(&copied.g.flags[0])))
	}
	require.Equal(t, 1, idsInPlace, "the ints were cut in place at one shift in eight")
	require.Equal(t, 1, wordsInPlace, "the words were cut in place at one shift in eight")
}

func TestHasPointers(t *testing.T) {
	type flat struct {
		a int
		b [3]uint16
		c struct{ d bool }
	}
	type withString struct {
		a int
		s string
	}
	cases := []struct {
		v    any
		want bool
	}{
		{0, false}, {uint64(0), false}, {flat{}, false}, {[0]*int{}, false}, {[2]float64{}, false},
		{"", true}, {withString{}, true}, {[]int{}, true}, {new(int), true}, {map[int]int{}, true},
		{[1]*int{}, true}, {struct{ f func() }{}, true}, {node{}, true},
	}
	for _, c := range cases {
		require.Equal(t, c.want, hasPointers(reflect.TypeOf(c.v)), "%T", c.v)
	}
}
