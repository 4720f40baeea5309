package heappages

import (
	"os"
	"path/filepath"
	"runtime/debug"
	"syscall"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/require"
)

// TestOffHeap takes memory outside the heap, small and of huge pages:
// zeroed, writable, then read-only after Seal (a write faults).
func TestOffHeap(t *testing.T) {
	for _, size := range []int{1, 5000, HugePage/8 + 3} {
		mem, err := OffHeap(size)
		require.NoError(t, err)
		require.Len(t, mem, size)
		require.Zero(t, uintptr(unsafeAddr(mem))%uintptr(os.Getpagesize()), "starts on a page")
		for i := range mem {
			require.Zero(t, mem[i])
		}
		mem[0], mem[size-1] = 1, 2
		require.NoError(t, Seal(mem))
		require.Equal(t, byte(2), mem[size-1], "still readable")
		faulted := func() (f bool) {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer func() { f = recover() != nil }()
			mem[size-1] = 3
			return false
		}()
		require.True(t, faulted, "a write into sealed memory faults (%d bytes)", size)
	}
	mem, err := OffHeap(0)
	require.NoError(t, err)
	require.Empty(t, mem)
	require.NoError(t, Seal(mem))
}

// TestPopulate reads a file's mapping after Populate: its pages are
// mapped already, where reading an unpopulated mapping of the same file
// faults in piece after piece.
func TestPopulate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data")
	const size = 4 << 20
	require.NoError(t, os.WriteFile(path, make([]byte, size), 0o600))
	mapFile := func() []byte {
		f, err := os.Open(path)
		require.NoError(t, err)
		defer f.Close()
		mem, err := syscall.Mmap(int(f.Fd()), 0, size, syscall.PROT_READ, syscall.MAP_PRIVATE)
		require.NoError(t, err)
		t.Cleanup(func() { _ = syscall.Munmap(mem) })
		return mem
	}
	faults := func(mem []byte) int64 {
		var before, after syscall.Rusage
		require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &before))
		sum := byte(0)
		for i := 0; i < len(mem); i += 4096 {
			sum += mem[i]
		}
		require.NoError(t, syscall.Getrusage(syscall.RUSAGE_SELF, &after))
		require.Zero(t, sum)
		return int64(after.Minflt - before.Minflt)
	}
	plain := faults(mapFile())
	populated := mapFile()
	Populate(populated[1:])
	got := faults(populated)
	t.Logf("faults reading 4 MiB of a mapped file: %d, populated first: %d", plain, got)
	require.Positive(t, plain, "reading a file's mapping takes faults")
	require.Less(t, got, plain, "populated: %d faults, not populated: %d", got, plain)
	Populate(nil)
}

func unsafeAddr(b []byte) uintptr { return uintptr(unsafe.Pointer(unsafe.SliceData(b))) }
