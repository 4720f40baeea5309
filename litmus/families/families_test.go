package families

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

// TestFamiliesParse checks that every generated test is valid herd input
// with the expected number of threads.
func TestFamiliesParse(t *testing.T) {
	cases := []struct {
		name    string
		src     string
		threads int
	}{
		{"IRIW-4W", IRIW(4), 6},
		{"SB-ring-6", SBRing(6), 6},
		{"CoWR-5", CoWRThreads(5), 5},
		{"MP-10", MPPayload(10), 2},
		{"Stores-20", StoreColumn(20), 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			tc, err := litmus.ParseHerd(c.name+".litmus", []byte(c.src))
			require.NoError(t, err, c.src)
			require.Len(t, tc.Threads, c.threads)
			require.NotNil(t, tc.Condition)
		})
	}
}
