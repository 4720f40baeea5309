package checker

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestBulkSizeUndefined: a bulk copy whose size is not a multiple of 16 is
// undefined (cp.async.bulk and cp.reduce.async.bulk pages), with a flag
// naming the instruction. A size loaded from memory makes only the
// executions that read a bad size undefined.
func TestBulkSizeUndefined(t *testing.T) {
	cases := []struct {
		name, size, init string
		flag             string // "" when defined
		executions       int
	}{
		{"immediate multiple of 16", "32", "", "", 0},
		{"immediate 20", "20", "", "cp_reduce_async_bulk_size", 2},
		{"register 48", "r9", "P0:r9 = 48;", "", 0},
		{"register 8", "r9", "P0:r9 = 8;", "cp_reduce_async_bulk_size", 2},
		// P0 reads n = 32 or P1's 24: one execution each way is undefined.
		{"loaded", "r8", "", "cp_reduce_async_bulk_size", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := `PTX B
{ n = 32; o = 0; s @ shared = 5; ` + c.init + ` }
 P0@cta 0,gpu 0                                                        | P1@cta 0,gpu 0       ;
 ld.relaxed.cta r8, n                                                  | st.relaxed.cta n, 24 ;
 cp.reduce.async.bulk.global.shared::cta.bulk_group.add o, s, ` + c.size + ` |                      ;
 cp.async.bulk.commit_group                                            |                      ;
 cp.async.bulk.wait_group 0                                            |                      ;
 ld r1, o                                                              |                      ;
exists (P0:r1 == 5)
`
			r := check(t, spec(t), herd(t, src))
			if c.flag == "" {
				assert.Equal(t, "Ok", r.Verdict)
				assert.Empty(t, r.Flags)
				return
			}
			assert.Equal(t, "Undef", r.Verdict)
			require.Len(t, r.Flags, 1)
			assert.Equal(t, c.flag, r.Flags[0].Name)
			assert.True(t, r.Flags[0].Undefined)
			assert.Equal(t, c.executions, r.Flags[0].Executions)
		})
	}
}
