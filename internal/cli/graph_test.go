package cli

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

func specModel(t *testing.T) *checker.Model {
	t.Helper()
	m, err := loader.LoadFile(filepath.Join("..", "..", "spec.dl"))
	require.NoError(t, err)
	return m
}

// TestGraphGolden compares the DOT ptxmm graph writes with golden files:
// a consistent execution, and forbidden outcomes whose witness edges are
// highlighted (including a witness edge of a relation not shown).
func TestGraphGolden(t *testing.T) {
	m := specModel(t)
	cases := []struct {
		name string
		cfg  GraphConfig
	}{
		{"mp-consistent", GraphConfig{Test: "MP.litmus", Show: []string{"po", "rf"}}},
		{"sb-forbidden", GraphConfig{Test: "SB+fence.sc.litmus", Outcome: `P0:r0 == 0 /\ P1:r1 == 0`, Show: []string{"po", "rf", "fr", "sync"}}},
		{"corr-witness-unshown", GraphConfig{Test: "CoRR.litmus", Outcome: `P1:r0 == 1 /\ P1:r1 == 0`, Show: []string{"po"}}},
		{"bar-exec1-forbidden", GraphConfig{Test: "MP+bar.litmus", Exec: 1, Show: []string{"po", "rf", "sync"}}},
		// Host threads: the host's calls in its column, its tasks in its
		// asynchronous lane, and by default the API rules as edges.
		{"host-streamsync", GraphConfig{Test: "host/StreamSync.litmus"}},
		{"host-event-forbidden", GraphConfig{Test: "host/TwoStreams+event.litmus", Outcome: "P1:r0 == 0"}},
		// -outcome without -show draws only what explains the outcome:
		// an allowed one with the missing synchronization, a forbidden
		// one with its witness.
		{"outcome-allowed-scope", GraphConfig{Test: "MP+cta-scope.litmus", Outcome: `P1:r0 == 1 /\ P1:r1 == 0`}},
		{"outcome-forbidden-sb", GraphConfig{Test: "SB+fence.sc.litmus", Outcome: `P0:r0 == 0 /\ P1:r1 == 0`}},
		{"outcome-allowed-proxy", GraphConfig{Test: "idioms/TMA-store-no-proxy-fence.litmus", Outcome: `P0:r1 == 0`}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := c.cfg
			cfg.Model = m
			cfg.Options = checker.DefaultOptions()
			cfg.Test = filepath.Join("..", "..", "examples", cfg.Test)
			var out, errs bytes.Buffer
			require.Equal(t, ExitOK, Graph(cfg, &out, &errs), errs.String())
			golden := filepath.Join("testdata", "graph", c.name+".dot")
			if *update {
				require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
				return
			}
			want, err := os.ReadFile(golden)
			require.NoError(t, err, "missing golden file: run go test ./internal/cli -update")
			require.Equal(t, string(want), out.String())
		})
	}
}

func TestGraphErrors(t *testing.T) {
	m := specModel(t)
	cases := []struct {
		cfg  GraphConfig
		want string
	}{
		{GraphConfig{Test: "MP.litmus", Exec: 99, Show: []string{"po"}}, "-exec 99: MP has 4 candidate executions"},
		{GraphConfig{Test: "MP.litmus", Outcome: "P1:%r0 == 5", Show: []string{"po"}}, "no candidate execution of MP reaches"},
		{GraphConfig{Test: "MP.litmus", Outcome: "P9:r0 == 5", Show: []string{"po"}}, "unknown thread P9"},
		{GraphConfig{Test: "MP.litmus", Show: []string{"nosuch"}}, "-show nosuch: unknown relation nosuch"},
		{GraphConfig{Test: "MP.litmus", Show: []string{"po"}, Out: "x.jpeg"}, "the output must end in .dot, .svg or .png"},
	}
	for _, c := range cases {
		cfg := c.cfg
		cfg.Model = m
		cfg.Options = checker.DefaultOptions()
		cfg.Test = filepath.Join("..", "..", "examples", cfg.Test)
		var out, errs bytes.Buffer
		require.Equal(t, ExitError, Graph(cfg, &out, &errs))
		require.Contains(t, errs.String(), c.want)
	}
}
