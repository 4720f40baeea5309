package snapshot

import (
	"testing"

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
