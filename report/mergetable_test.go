package report

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/herdlog"
)

// TestMergeTable: one row per test, flags and errors in Notes, no blanks
// at the ends of rows, then the totals with the shards.
func TestMergeTable(t *testing.T) {
	log := "# ptxmm shard=0/2 plan=ab tests=3/5 logged=3\n" +
		"Test MP Allowed\nStates 1\n1:r0=0;\nNo\nWitnesses\nPositive: 0 Negative: 3\nCondition exists (1:r0=1)\nHash=1\n\n" +
		"Test LongerName Required\nStates 1\nx=1;\nLoop Ok\nWitnesses\nPositive: 2 Negative: 0\nFlag deadlock\nCondition forall (x=1)\nHash=2\n\n" +
		"Error E: limit of 3 runs reached\n\n"
	l, err := herdlog.Read("a.log", []byte(log))
	require.NoError(t, err)
	var b bytes.Buffer
	require.NoError(t, MergeTable(&b, herdlog.Merge([]*herdlog.Log{l})))
	assert.Equal(t, "Test        Kind      Result   Positive  Negative  Notes\n"+
		"E           -         Error    -         -         limit of 3 runs reached\n"+
		"LongerName  Required  Loop Ok  2         0         Flag deadlock\n"+
		"MP          Allowed   No       0         3\n"+
		"\n"+
		"2 tests: 1 Ok, 1 No (1 with Loop); 1 error; 0 duplicates, 0 conflicts; from 1 log (1 of the 2 shards of plan ab)\n", b.String())
}
