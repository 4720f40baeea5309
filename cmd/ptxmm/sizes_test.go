package main

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSizesOnTheCommandLine runs issue 10's own examples for sizes and
// mixed-size races through "ptxmm check": values wrap by type, and a
// mixed-size race prints herd's Undef line, a Flag mixed_size_race line,
// the two operations under -explain, and "verdict": "Undef" in JSON.
func TestSizesOnTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	u8 := writeFile(t, dir, "u8.litmus", `PTX U8
{ x=0; }
 P0@cta 0,gpu 0 ;
 st.u8 x, 257   ;
 ld.u8 r0, x    ;
exists (P0:r0 == 257)
`)
	wrap := writeFile(t, dir, "wrap.litmus", `PTX Wrap
{ x=0xFFFFFFFF; }
 P0@cta 0,gpu 0        ;
 atom.add.u32 r0, x, 1 ;
exists (x == 4294967296)
`)
	race := filepath.Join("..", "..", "examples", "sizes", "Mixed-size-race.litmus")
	cases := []struct {
		name string
		args []string
		out  []string // lines of stdout, in this order
	}{
		{"st.u8 keeps one byte", []string{"check", u8}, []string{"0:r0=1;", "No"}},
		{"atom.add.u32 wraps", []string{"check", wrap}, []string{"x=0;", "No"}},
		{"a mixed-size race is Undef", []string{"check", race}, []string{"1:r0=0;", "1:r0=1;", "Undef", "Flag data_race", "Flag mixed_size_race"}},
		{"-explain names the two operations", []string{"check", "-explain", race}, []string{"Undef", "Flag mixed_size_race",
			"Flag mixed_size_race raised by: mixed_size_race: P0:st.relaxed.gpu.u8 x, 1 -mixed_size_race-> P1:ld.relaxed.gpu.u32 r0, x"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			status, out, errs := runCaptured(t, run, c.args...)
			require.Equal(t, 0, status, errs)
			lines := strings.Split(out, "\n")
			k := 0
			for _, l := range lines {
				if k < len(c.out) && strings.HasPrefix(l, c.out[k]) {
					k++
				}
			}
			assert.Equal(t, len(c.out), k, "missing %q in order in:\n%s", c.out[min(k, len(c.out)-1)], out)
		})
	}

	status, out, errs := runCaptured(t, run, "check", "-json", race)
	require.Equal(t, 0, status, errs)
	var rec struct {
		Verdict string
		Flags   []struct {
			Name      string
			Undefined bool
			Witness   string
		}
	}
	require.NoError(t, json.Unmarshal([]byte(out), &rec))
	assert.Equal(t, "Undef", rec.Verdict)
	require.Len(t, rec.Flags, 2)
	assert.Equal(t, "mixed_size_race", rec.Flags[1].Name)
	assert.True(t, rec.Flags[1].Undefined)
	assert.Contains(t, rec.Flags[1].Witness, "P0:st.relaxed.gpu.u8 x, 1")
	assert.Contains(t, rec.Flags[1].Witness, "P1:ld.relaxed.gpu.u32 r0, x")
}
