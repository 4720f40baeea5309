package payoff

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestWorth(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		s                    Shortcut
		tries, gained, visit int64
		want                 bool
	}{
		{"warming up", StratumCutoff, 15, 0, 1, true},
		{"one in four pays", StratumCutoff, 16, 4, 1, true},
		{"less than one in four", StratumCutoff, 17, 4, 1, false},
		{"probed every 32 runs", StratumCutoff, 100, 0, 64, true},
		{"a stratum's first run", DerivesNothing, 100, 0, 0, true},
		{"warm start not paying", WarmStart, 40, 9, 33, false},
		{"warm start probed", WarmStart, 40, 9, 32, true},
		{"prune: one candidate per question", Prune, 20, 20, 3, true},
		{"prune: fewer", Prune, 20, 19, 3, false},
		{"prune retried at a power of two", Prune, 100, 0, 64, true},
		{"prune not retried at other visits", Prune, 100, 0, 96, false},
		{"nogoods warming up", Nogoods, 7, 0, 3, true},
		{"nogoods cutting", Nogoods, 10, 10, 3, true},
		{"nogoods not paying", Nogoods, 10, 9, 12, false},
		{"nogoods probed at a power of two", Nogoods, 10, 9, 16, true},
		{"a way warming up", ForcingWays, 63, 0, 1, true},
		{"a way failing once in 1024 directions", ForcingWays, 1024, 1, 1, true},
		{"a way failing less often", ForcingWays, 1025, 1, 1, false},
		{"every way once in 256 calls", ForcingWays, 2000, 0, 512, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.s.Policy().Worth(tc.tries, tc.gained, tc.visit))
		})
	}
}

// TestTable: every shortcut has a policy that warms up and asks for a gain.
func TestTable(t *testing.T) {
	for s := StratumCutoff; s <= ForcingWays; s++ {
		p := s.Policy()
		assert.Positive(t, p.Warmup, "shortcut %d", s)
		assert.Positive(t, p.Gain, "shortcut %d", s)
		assert.GreaterOrEqual(t, p.Every, int64(0), "shortcut %d", s)
	}
	assert.Len(t, policies, int(ForcingWays)+1)
}
