package limits

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// sizeUnits are the suffixes ParseSize accepts, with their factors. Both
// the binary (KiB) and the decimal (KB) spellings are accepted, as in
// Go's GOMEMLIMIT and most command-line tools.
var sizeUnits = []struct {
	suffix string
	factor float64
}{
	{"kib", 1 << 10}, {"mib", 1 << 20}, {"gib", 1 << 30}, {"tib", 1 << 40},
	{"kb", 1e3}, {"mb", 1e6}, {"gb", 1e9}, {"tb", 1e12},
	{"k", 1 << 10}, {"m", 1 << 20}, {"g", 1 << 30}, {"t", 1 << 40},
	{"b", 1},
}

// ParseSize reads a memory size: a number of bytes, optionally with a unit
// (B, KiB, MiB, GiB, TiB, their decimal forms KB, MB, GB, TB, or K, M, G, T
// for the binary ones); the number may have a fraction ("1.5GiB"). Case is
// ignored. It rejects negative sizes and sizes beyond what an int64 holds.
func ParseSize(s string) (int64, error) {
	text := strings.ToLower(strings.TrimSpace(s))
	factor := 1.0
	for _, u := range sizeUnits {
		if strings.HasSuffix(text, u.suffix) {
			text = strings.TrimSpace(strings.TrimSuffix(text, u.suffix))
			factor = u.factor
			break
		}
	}
	v, err := strconv.ParseFloat(text, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%q is not a memory size: write a number of bytes with an optional unit, such as 512MiB or 8GB", s)
	}
	if v < 0 {
		return 0, fmt.Errorf("%q is negative: a memory size is at least 0", s)
	}
	b := v * factor
	if b >= math.MaxInt64 {
		return 0, fmt.Errorf("%q is too large", s)
	}
	return int64(b), nil
}

// FormatSize prints a size in bytes with a binary unit and three
// significant digits ("5.75 GiB", "312 MiB", "900 B"); from 1000 of a
// unit on it uses the next one ("0.98 GiB"), so no figure has four digits.
func FormatSize(b int64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	v := float64(b)
	i := 0
	for v >= 999.5 && i < len(units)-1 {
		v /= 1024
		i++
	}
	switch {
	case i == 0:
		return fmt.Sprintf("%d B", b)
	case v >= 100:
		return fmt.Sprintf("%.0f %s", v, units[i])
	case v >= 10:
		return fmt.Sprintf("%.1f %s", v, units[i])
	}
	return fmt.Sprintf("%.2f %s", v, units[i])
}
