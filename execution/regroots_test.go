package execution

import (
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestCopiedRoots: the roots a copy reaches through a register are known
// when only mapa or an untyped mov of named addresses (or of registers
// known in the same way) set it; any other write of the register, or an
// init to an unknown address, makes every root copied.
func TestCopiedRoots(t *testing.T) {
	cases := []struct {
		name  string
		init  string   // the init block's register entries
		body  []string // P1's instructions before the copy
		dst   string   // the copy's destination; [r1] when empty
		roots []string
		all   bool
	}{
		{name: "named destination", dst: "s", roots: []string{"g", "s"}},
		{name: "mapa", body: []string{"mapa.shared::cluster r1, s, 0"}, roots: []string{"g", "s"}},
		{name: "typed mov", body: []string{"mov.u64 r1, t"}, all: true},
		{name: "untyped mov", body: []string{"mov r1, t"}, roots: []string{"g", "t"}},
		{name: "mapa of a moved register", body: []string{"mov r5, t", "mapa.shared::cluster r1, r5, 0"}, roots: []string{"g", "t"}},
		{name: "two mapas", body: []string{"mapa.shared::cluster r1, s, 0", "mapa.shared::cluster r1, t, 0"}, roots: []string{"g", "s", "t"}},
		{name: "init address", init: "P1:r1 = t;", roots: []string{"g", "t"}},
		{name: "loaded address", body: []string{"ld.weak r1, p"}, all: true},
		{name: "arithmetic", body: []string{"mapa.shared::cluster r5, s, 0", "add r1, r5, 0"}, all: true},
		{name: "mov cycle", body: []string{"mapa.shared::cluster r1, s, 0", "mov r5, r1", "mov r1, r5"}, roots: []string{"g", "s"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dst := c.dst
			if dst == "" {
				dst = "[r1]"
			}
			lines := append(append([]string(nil), c.body...), "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes "+dst+", g, 16, full")
			var prog strings.Builder
			for _, l := range lines {
				prog.WriteString(" | " + l + " ;\n")
			}
			src := "PTX R\n{ g = 7; p = 0; s @ shared = 0; t @ shared = 0; full @ mbarrier 1; " + c.init + " }\n" +
				" P0@cta 0,cluster 0,gpu 0 | P1@cta 1,cluster 0,gpu 0 ;\n" +
				prog.String() +
				"exists (P1:r1 == 0)\n"
			tc := herd(t, src)
			l, err := NewLayout(tc)
			require.NoError(t, err)
			copied, all := copiedRoots(tc, l)
			assert.Equal(t, c.all, all, "all")
			if c.all {
				return
			}
			var names []string
			for r := range copied {
				names = append(names, l.Addrs[r].Name)
			}
			sort.Strings(names)
			assert.Equal(t, c.roots, names)
		})
	}
}
