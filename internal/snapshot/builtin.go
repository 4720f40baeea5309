package snapshot

import (
	"errors"
	"reflect"
	"slices"
	"sync"
	"unsafe"

	"github.com/ptxmm/ptxmm/internal/heappages"
)

// BuiltIn is an image built into the program (embedded when it was
// compiled, and checked intact by its package's tests), read at most once
// per process: every Read returns the same graph. Its arrays with pointers
// are laid out outside the Go heap (heappages.OffHeap), in huge pages where
// the kernel grants them, and made read-only once their pointers are
// written, where DecodeBuiltInImage copies them into fresh heap pages (for
// the compiled spec.dl, 1 MB: about 240 page faults, 5 ms of a one-test
// check's 30 ms on the machine of docs/benchmarks.md, twenty-third round).
//
// The graph is therefore never changed, nor can it be: a write into one of
// those arrays faults. That is also what makes the layout safe: the
// collector does not look into memory outside the heap, so the heap
// objects the graph points to (its maps, and the empty slices' address)
// are kept alive by the BuiltIn, and nothing else could be stored there.
// Where the memory is not offered (other platforms, a failed mapping) the
// arrays are copied into the heap as DecodeBuiltInImage does.
type BuiltIn struct {
	data []byte
	once sync.Once
	// root is the graph read, of type rootType, for codec impls; err is
	// the first Read's error.
	root     unsafe.Pointer
	rootType reflect.Type
	impls    []reflect.Type
	err      error
	// keep holds the heap objects the graph points to from outside the
	// heap.
	keep []any
}

// NewBuiltIn returns the image data, built into the program, to be read
// once. data must never change.
func NewBuiltIn(data []byte) *BuiltIn { return &BuiltIn{data: data} }

// ReadBuiltIn reads b's graph, of root type T with codec c, the first time
// it is called, and returns the same graph afterwards; a later call with
// another root type or another list of concrete types gets ErrMismatch.
// The graph must not be changed (see BuiltIn).
func ReadBuiltIn[T any](b *BuiltIn, c *Codec) (*T, error) {
	t := reflect.TypeFor[T]()
	b.once.Do(func() {
		b.rootType, b.impls = t, c.impls
		var root *T
		root, b.keep, b.err = decodeBuiltIn[T](c, b.data)
		b.root = unsafe.Pointer(root)
	})
	if b.err != nil {
		return nil, b.err
	}
	if t != b.rootType || !slices.Equal(c.impls, b.impls) {
		return nil, ErrMismatch
	}
	return (*T)(b.root), nil
}

// decodeBuiltIn reads a built-in image with its arrays with pointers
// outside the heap, and returns the heap objects the graph points to from
// there.
func decodeBuiltIn[T any](c *Codec, data []byte) (*T, []any, error) {
	// Every byte of the image is read once: map its pages in one call.
	heappages.Populate(data)
	r := &imageReader{inPlace: true, offHeap: true}
	got, err := decodeWith[T](c, data, r)
	if err != nil {
		return nil, nil, err
	}
	if err := heappages.Seal(r.region); err != nil {
		return nil, nil, errors.Join(errors.New("snapshot: cannot make a built-in image read-only"), err)
	}
	return got, r.keep, nil
}
