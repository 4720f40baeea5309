package limits

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
	"strings"
)

// MemoryShare is the part of the machine's memory that -max-memory allows
// by default: a quarter, the share the JVM also takes for its default
// heap, which leaves room for the rest of the machine (a CI runner runs
// other jobs, a workstation an editor and a browser).
const MemoryShare = 4

// FallbackMemory is the default limit where the machine's memory cannot be
// read (no /proc/meminfo): a quarter of a modest 8 GiB machine.
const FallbackMemory = 2 << 30

// DefaultMaxMemory returns the default memory limit, a quarter of the
// memory of the machine or of the container (cgroup) ptxmm runs in,
// whichever is smaller, and says where the figure came from.
func DefaultMaxMemory() (int64, string) {
	return defaultMaxMemory(os.ReadFile)
}

func defaultMaxMemory(read func(string) ([]byte, error)) (int64, string) {
	total, from := int64(0), ""
	if data, err := read("/proc/meminfo"); err == nil {
		if kb, ok := meminfoTotal(data); ok {
			total, from = kb*1024, "/proc/meminfo"
		}
	}
	for _, f := range []string{"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"} {
		data, err := read(f)
		if err != nil {
			continue
		}
		// cgroup v2 writes "max" for no limit; v1 a huge number.
		v, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
		if err == nil && v > 0 && (total == 0 || v < total) {
			total, from = v, f
		}
	}
	if total == 0 {
		return FallbackMemory, "the machine's memory could not be read"
	}
	return total / MemoryShare, "a quarter of " + FormatSize(total) + " (" + from + ")"
}

// meminfoTotal reads the MemTotal line of /proc/meminfo, in KiB.
func meminfoTotal(data []byte) (int64, bool) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) >= 2 && f[0] == "MemTotal:" {
			v, err := strconv.ParseInt(f[1], 10, 64)
			return v, err == nil && v > 0
		}
	}
	return 0, false
}
