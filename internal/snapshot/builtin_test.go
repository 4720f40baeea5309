package snapshot

import (
	"runtime"
	"runtime/debug"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReadBuiltIn reads an image as the program reads the one it embeds:
// the same graph as DecodeImage's, read once (a second Read returns the
// very same root), and still whole after collections, although the heap
// objects it points to (its maps) are reachable only through the BuiltIn
// and memory the collector does not scan.
func TestReadBuiltIn(t *testing.T) {
	c := imageCodec()
	data, err := EncodeImage(c, newImageGraph())
	require.NoError(t, err)
	b := NewBuiltIn(data)
	got, err := ReadBuiltIn[nested](b, c)
	require.NoError(t, err)
	require.Equal(t, newImageGraph(), got)
	again, err := ReadBuiltIn[nested](b, imageCodec())
	require.NoError(t, err)
	require.Same(t, got, again, "read once")
	for range 3 {
		// Garbage of the maps' sizes, over which a freed map would be
		// reused.
		for i := range 1000 {
			m := map[string]string{"k": "w"}
			m["n"] = string(rune('a' + i%26))
			runtime.KeepAlive(m)
		}
		runtime.GC()
	}
	require.Equal(t, newImageGraph(), got, "after collections")
	require.Same(t, got.g.first, got.byName["x"][1])

	_, err = ReadBuiltIn[graph](b, c)
	require.ErrorIs(t, err, ErrMismatch, "another root type")
	_, err = ReadBuiltIn[nested](b, New())
	require.ErrorIs(t, err, ErrMismatch, "other concrete types")
	_, err = ReadBuiltIn[nested](NewBuiltIn(data[:imageHead-1]), c)
	require.ErrorIs(t, err, ErrMismatch, "a header cut short")
	_, err = ReadBuiltIn[graph](NewBuiltIn(data), c)
	require.ErrorIs(t, err, ErrMismatch, "another root type, first")
	require.Equal(t, newImageGraph(), got)
}

// TestBuiltInReadOnly writes into a graph read from a built-in image: on
// Linux, where its arrays with pointers lie outside the heap, the write
// faults instead of changing it (a heap pointer stored there would be
// hidden from the collector).
func TestBuiltInReadOnly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the arrays lie outside the heap on Linux only")
	}
	c := imageCodec()
	data, err := EncodeImage(c, newImageGraph())
	require.NoError(t, err)
	got, err := ReadBuiltIn[nested](NewBuiltIn(data), c)
	require.NoError(t, err)
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	write := func(f func()) (faulted bool) {
		defer func() { faulted = recover() != nil }()
		f()
		return false
	}
	require.True(t, write(func() { got.g.first.label = "b" }), "a string field")
	require.True(t, write(func() { got.g.first.next = nil }), "a pointer field")
	require.True(t, write(func() { got.g.big = 1 }), "a number")
	require.True(t, write(func() { got.g.shapes[0] = nil }), "an array of interfaces")
	require.False(t, write(func() { got.holders[0].m["k"] = "v" }), "its maps lie in the heap")
	require.Equal(t, newImageGraph(), got)
}

// TestReadBuiltInConcurrent reads one image from several goroutines at
// once (go test -race): one read, one graph.
func TestReadBuiltInConcurrent(t *testing.T) {
	c := imageCodec()
	data, err := EncodeImage(c, newImageGraph())
	require.NoError(t, err)
	b := NewBuiltIn(data)
	roots := make([]*nested, 8)
	var wg sync.WaitGroup
	for i := range roots {
		wg.Go(func() {
			roots[i], _ = ReadBuiltIn[nested](b, imageCodec())
		})
	}
	wg.Wait()
	for _, r := range roots {
		require.Same(t, roots[0], r)
	}
	require.Equal(t, newImageGraph(), roots[0])
}
