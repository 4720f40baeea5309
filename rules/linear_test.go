package rules

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/datalog"
)

// allocatedBy returns the bytes f allocates (deterministic, unlike time).
func allocatedBy(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestLoadingIsLinear loads, analyses and compiles models four times
// larger than each other: the memory allocated grows about fourfold. It
// grew sixteenfold when every generated relation printed its whole
// subexpression, arity inference walked every chain again for each of its
// operators, and every relation listed every stratum depending on it.
func TestLoadingIsLinear(t *testing.T) {
	shapes := []struct {
		name string
		src  func(n int) string
	}{
		{"one long union", func(n int) string {
			return ".decl po(a: event, b: event)\n.input po\nlet r = " + strings.Repeat("po | ", n-1) + "po\n.output r\n"
		}},
		{"long sequence of unions", func(n int) string {
			return ".decl po(a: event, b: event)\n.input po\nlet r = " + strings.Repeat("(po | po^-1) ; ", n/3) + "po\n.output r\n"
		}},
		{"chained definitions", func(n int) string {
			var b strings.Builder
			b.WriteString(".decl po(a: event, b: event)\n.input po\nlet r0 = po\n")
			for i := 1; i < n; i++ {
				fmt.Fprintf(&b, "let r%d = r%d | po\n", i, i-1)
			}
			fmt.Fprintf(&b, ".output r%d\n", n-1)
			return b.String()
		}},
	}
	load := func(src string) {
		prog, errs := datalog.LoadSource("m.dl", src)
		require.False(t, errs.HasErrors(), "%s", errs.Quoted())
		m, errs := datalog.Analyze(prog)
		require.False(t, errs.HasErrors(), "%s", errs.Quoted())
		_, errs = Compile(m)
		require.False(t, errs.HasErrors(), "%s", errs.Quoted())
	}
	for _, s := range shapes {
		t.Run(s.name, func(t *testing.T) {
			small, large := s.src(2000), s.src(8000)
			load(small) // warm up anything allocated once
			a := allocatedBy(func() { load(small) })
			b := allocatedBy(func() { load(large) })
			ratio := float64(b) / float64(a)
			assert.Less(t, ratio, 6.0, "4x the model allocated %.1fx the memory (%d vs %d bytes)", ratio, b, a)
		})
	}
}
