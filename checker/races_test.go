package checker

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRaceFlags: spec.dl reports data races (8.7.1) and, separately,
// heterogeneous races (strong operations whose scopes do not include each
// other) as flags, with the racing pair as the witness; neither changes
// the verdict.
func TestRaceFlags(t *testing.T) {
	cases := []struct {
		file    string
		verdict string
		// flag name -> the racing pair of the first witness
		flags map[string]string
	}{
		// The spec's MP (8.10.6): when P1 misses the flag, nothing orders
		// the plain store and load of data.
		{"MP.litmus", "No", map[string]string{
			"data_race": "P0:st.global.u32 [data], 1 / P1:ld.global.u32 %r1, [data]"}},
		{"MP+cta-scope.litmus", "Ok", map[string]string{
			"data_race":          "P0:st.weak x, 1 / P1:ld.weak r1, x",
			"heterogeneous_race": "P0:st.release.cta flag, 1 / P1:ld.acquire.cta r0, flag"}},
		// Barriers order every conflicting pair: no race.
		{"MP+bar.litmus", "Ok", map[string]string{}},
		// Morally strong atomics do not race.
		{"Atomicity1.litmus", "Ok", map[string]string{}},
		// The arrives of one mbarrier, .cta and .cluster, update one
		// object one at a time: no race, heterogeneous or not (issue
		// 26); only the stale read of y races.
		{"async/MBar-local-plus-remote-cta-wait-stale.litmus", "Ok", map[string]string{
			"data_race": "P1:st y, 1 / P2:ld r2, y"}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join("..", "examples", c.file))
			require.NoError(t, err)
			r := check(t, spec(t), herd(t, string(src)))
			assert.Equal(t, c.verdict, r.Verdict, "a race flag leaves the verdict alone")
			got := map[string]string{}
			for _, f := range r.Flags {
				assert.False(t, f.Undefined, "%s is a report, not undefined behaviour", f.Name)
				assert.Positive(t, f.Executions)
				require.Len(t, f.Witness.Witness, 2, "the witness is the racing pair")
				a, b := f.Execution.Events[f.Witness.Witness[0]], f.Execution.Events[f.Witness.Witness[1]]
				got[f.Name] = f.Execution.Test.Threads[a.Thread].Name + ":" + a.Instr.Text + " / " + f.Execution.Test.Threads[b.Thread].Name + ":" + b.Instr.Text
			}
			assert.Equal(t, c.flags, got)
		})
	}
}
