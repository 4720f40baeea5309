package cat_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
)

// TestDocsExamples: every cat block of docs/cat.md is a model that loads
// and compiles.
func TestDocsExamples(t *testing.T) {
	doc, err := os.ReadFile("../docs/cat.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```cat\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	require.GreaterOrEqual(t, len(blocks), 8)
	for i, b := range blocks {
		low, errs := cat.LoadSource("example.cat", b[1], cat.Options{})
		require.False(t, errs.HasErrors(), "block %d:\n%s\n%s", i, b[1], errs.Error())
		_, err := checker.BuildModel("example.cat", low.Program, nil)
		require.NoError(t, err, "block %d:\n%s", i, b[1])
	}
}
