package ptxmm_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/report"
)

var updateGolden = flag.Bool("update", false, "rewrite testdata/explain-allowed.golden")

// explainedExamples are shipped tests whose allowed outcomes show each
// reason -explain gives: a scope that leaves the other thread out, no
// path at all (a race), no acquire pattern, weak operations, no release
// pattern on an mbarrier arrive, a missing proxy fence, program order
// that base causality leaves out, a .test permit, a host thread.
var explainedExamples = []string{
	"examples/MP+cta-scope.litmus",
	"examples/SB+fence.acq_rel.litmus",
	"examples/MP+red.litmus",
	"examples/CoRR+weak.litmus",
	"examples/async/MP+mbarrier-relaxed-arrive.litmus",
	"examples/idioms/TMA-store-no-proxy-fence.litmus",
	"examples/async/ClusterBarrier-relaxed.litmus",
	"examples/MP-scopes.test",
	"examples/host/StreamSync-missing.litmus",
}

// TestExplainAllowedGolden: -explain's account of the allowed outcomes of
// the shipped tests above, as the herd log prints it (the Allowed lines
// and what follows them), is the golden file's; go test -run
// TestExplainAllowedGolden -update . rewrites it.
func TestExplainAllowedGolden(t *testing.T) {
	m := defaultChecker(t)
	opts := checker.DefaultOptions()
	opts.Explain = true
	allowed := regexp.MustCompile(`(?m)^Allowed .*\n(  .*\n)*`)
	var out bytes.Buffer
	for _, f := range explainedExamples {
		tests, err := litmus.ParseFile(f)
		require.NoError(t, err)
		for _, tc := range tests {
			r := m.Check(tc, opts)
			require.NoError(t, r.Err)
			var log bytes.Buffer
			report.Herd(&log, r)
			out.WriteString("# " + report.LogName(tc) + "\n")
			for _, block := range allowed.FindAllString(log.String(), -1) {
				out.WriteString(block)
			}
		}
	}
	assert.Equal(t, len(explainedExamples)+2, bytes.Count(out.Bytes(), []byte("# ")), "every test is in")
	assert.GreaterOrEqual(t, bytes.Count(out.Bytes(), []byte("\nAllowed ")), len(explainedExamples)-1)
	golden := filepath.Join("testdata", "explain-allowed.golden")
	if *updateGolden {
		require.NoError(t, os.WriteFile(golden, out.Bytes(), 0o644))
	}
	want, err := os.ReadFile(golden)
	require.NoError(t, err, "go test -run TestExplainAllowedGolden -update . writes it")
	assert.Equal(t, string(want), out.String())
}

// TestExplainAllowedOnlyAsked: without -explain there is nothing to
// explain, and a forbidden outcome is never among the allowed ones.
func TestExplainAllowedOnlyAsked(t *testing.T) {
	m := defaultChecker(t)
	tests, err := litmus.ParseFile("examples/MP.litmus")
	require.NoError(t, err)
	r := m.Check(tests[0], checker.DefaultOptions())
	assert.Empty(t, r.Allowed)
	opts := checker.DefaultOptions()
	opts.Explain = true
	r = m.Check(tests[0], opts)
	assert.Empty(t, r.Allowed, "MP's condition is forbidden: no allowed outcome satisfies it")
	assert.NotEmpty(t, r.Forbidden)
}
