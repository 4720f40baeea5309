package report

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/execution"
)

// TestTerminationLines: a livelock is a hang (Flag deadlock) with a
// Livelock line; a test that terminates, or whose termination is not
// decided, says so on a Termination line; JSON carries the verdict and
// where the threads loop. A result without a verdict prints neither.
func TestTerminationLines(t *testing.T) {
	where := []string{"P0: atom.relaxed.gpu.exch r0, x, 0", "P1: atom.relaxed.gpu.exch r1, x, 1"}
	cases := []struct {
		name     string
		tm       *execution.Termination
		line     string
		deadlock bool
		json     string
	}{
		{"livelock", &execution.Termination{Decided: true, Spins: true, Where: where, States: 64},
			"Livelock MP: under a fair scheduler some thread can loop forever, every unfinished thread taking steps on a reachable cycle of the test's interleavings (64 states explored), through P0: atom.relaxed.gpu.exch r0, x, 0 and P1: atom.relaxed.gpu.exch r1, x, 1",
			true, "livelock"},
		{"terminates", &execution.Termination{Decided: true, States: 78},
			"Termination MP: every run finishes under a fair scheduler (its loops are not awaits; all 78 states of its interleavings explored)",
			false, "terminates"},
		{"terminates across locations", &execution.Termination{Decided: true, States: 96, Limits: 75},
			"Termination MP: every run finishes under a fair scheduler (its loops are not awaits; all 96 states of its interleavings explored, and all 75 limits of its executions across locations ruled out)",
			false, "terminates"},
		{"not decided", &execution.Termination{Why: "a .cta access does not include every thread accessing x"},
			"Termination MP: not decided for its loops that are not awaits: a .cta access does not include every thread accessing x",
			false, "not decided: a .cta access does not include every thread accessing x"},
		{"none", nil, "", false, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := checkSrc(t, "MP.litmus", herdCases[0].src, checker.DefaultOptions())[0]
			require.NoError(t, r.Err)
			r.Termination = c.tm
			var log bytes.Buffer
			HerdLog(&log, r, LogOptions{})
			if c.line != "" {
				assert.Contains(t, log.String(), c.line+"\n")
			} else {
				assert.NotContains(t, log.String(), "Termination")
				assert.NotContains(t, log.String(), "Livelock")
			}
			assert.Equal(t, c.deadlock, bytes.Contains(log.Bytes(), []byte("Flag deadlock\n")))
			var js bytes.Buffer
			require.NoError(t, JSON(&js, r))
			obj := decodeLines(t, js.String())[0]
			if c.json == "" {
				assert.NotContains(t, obj, "termination")
				return
			}
			assert.Equal(t, c.json, obj["termination"])
			if c.tm.Spins {
				assert.Equal(t, []any{where[0], where[1]}, obj["livelock"])
			} else {
				assert.NotContains(t, obj, "livelock")
			}
		})
	}
}
