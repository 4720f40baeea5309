package heappages

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// childEnv makes the test binary run reserveInFreshProcess instead of its
// tests: Reserve is meant for the start of a process, whose heap has had
// no collection yet and so has no free holes below its frontier.
const childEnv = "HEAPPAGES_TEST_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		if err := reserveInFreshProcess(); err != nil {
			fmt.Println(err)
			os.Exit(1)
		}
		fmt.Println("ok")
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func TestDisabled(t *testing.T) {
	cases := []struct {
		godebug string
		want    bool
	}{
		{"", false},
		{"disablethp=1", true},
		{"disablethp=0", false},
		{"gctrace=1,disablethp=1", true},
		{"disablethp=1,disablethp=0", false},
		{"disablethp=0, disablethp = 1 ", true},
		{"xdisablethp=1", false},
		{"disablethp", false},
		{"disablethp=1,", true},
		{",,disablethp=\t1", true},
		{"disablethp=1=1", false},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, disabled(c.godebug), "GODEBUG=%q", c.godebug)
	}
}

// TestReserve runs Reserve at the start of a fresh process (the test
// binary again) and checks the layout it promises there.
func TestReserve(t *testing.T) {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || strings.Contains(string(mode), "[never]") {
		t.Skip("transparent huge pages are off on this machine")
	}
	cmd := exec.Command(os.Args[0])
	cmd.Env = append(os.Environ(), childEnv+"=1", "GODEBUG=")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	assert.Equal(t, "ok\n", string(out))
}

func TestReserveOff(t *testing.T) {
	assert.Zero(t, Reserve(0))
	t.Setenv("GODEBUG", "disablethp=1")
	assert.Zero(t, Reserve(8<<20))
}

// reserveInFreshProcess prepares a stretch and finds it starting where the
// padding ends, on a huge page's start, in a mapping the kernel may back
// with huge pages (smaps' THPeligible), and the next large allocation
// inside it.
func reserveInFreshProcess() error {
	const size = 8 << 20
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	pin := Reserve(size)
	runtime.ReadMemStats(&after)
	if pin.lo == 0 {
		return errors.New("no stretch prepared")
	}
	// The stretch is above the heap's first target: its allocation
	// starts a cycle, and runtime.GC runs a second.
	if n := after.NumGC - before.NumGC; n < 1 || n > 2 {
		return fmt.Errorf("Reserve ran %d collections, want 1 or 2", n)
	}
	if pin.lo%HugePage != 0 || pin.hi%HugePage != 0 || pin.hi-pin.lo < size {
		return fmt.Errorf("stretch [%#x, %#x) is not %d bytes of whole huge pages", pin.lo, pin.hi, size)
	}
	pad := pin.pad[len(pin.pad)-1]
	if end := uintptr(unsafe.Pointer(unsafe.SliceData(pad))) + uintptr(len(pad)); end != pin.lo {
		return fmt.Errorf("the padding ends at %#x, the stretch starts at %#x", end, pin.lo)
	}
	eligible, err := thpEligible(pin.lo)
	if err != nil {
		return err
	}
	if !eligible {
		return errors.New("the stretch's mapping is not eligible for huge pages")
	}
	next := make([]byte, 1<<20)
	if at := uintptr(unsafe.Pointer(unsafe.SliceData(next))); at < pin.lo || at >= pin.hi {
		return fmt.Errorf("a large allocation after Reserve lands at %#x, outside the stretch [%#x, %#x)", at, pin.lo, pin.hi)
	}
	return nil
}

// thpEligible reads /proc/self/smaps for the mapping that holds addr.
func thpEligible(addr uintptr) (bool, error) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		return false, err
	}
	defer f.Close()
	in := false
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		var lo, hi uintptr
		if n, _ := fmt.Sscanf(line, "%x-%x ", &lo, &hi); n == 2 {
			in = addr >= lo && addr < hi
			continue
		}
		if v, ok := strings.CutPrefix(line, "THPeligible:"); ok && in {
			return strings.TrimSpace(v) == "1", nil
		}
	}
	return false, fmt.Errorf("no mapping holds %#x (%v)", addr, sc.Err())
}
