//go:build !linux

package heappages

import "errors"

// Reserve does nothing where the kernel has no transparent huge pages to
// ask for (Linux only).
func Reserve(size int) Pin { return Pin{} }

// errNoOffHeap is OffHeap's error where it is not offered.
var errNoOffHeap = errors.New("heappages: no memory outside the heap on this platform")

// OffHeap is offered on Linux only: elsewhere callers keep their data in
// the heap.
func OffHeap(size int) ([]byte, error) { return nil, errNoOffHeap }

// Seal does nothing where OffHeap gives no memory.
func Seal(mem []byte) error { return nil }

// Populate does nothing where OffHeap gives no memory.
func Populate(b []byte) {}
