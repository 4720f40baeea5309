//go:build !linux

package heappages

// Reserve does nothing where the kernel has no transparent huge pages to
// ask for (Linux only).
func Reserve(size int) Pin { return Pin{} }
