package ptxmm_test

import (
	"os"
	"regexp"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm"
)

// TestDocsLitmusExamples checks the complete examples of docs/litmus.md:
// every litmus and test block parses and checks without error, and every
// litmus-error and test-error block is rejected, when parsed or when
// checked.
func TestDocsLitmusExamples(t *testing.T) {
	doc, err := os.ReadFile("docs/litmus.md")
	require.NoError(t, err)
	blocks := regexp.MustCompile("(?s)```(litmus|test|litmus-error|test-error)\n(.*?)```").FindAllStringSubmatch(string(doc), -1)
	require.NotEmpty(t, blocks)
	pm, err := ptxmm.DefaultModel()
	require.NoError(t, err)
	for i, b := range blocks {
		kind, src := b[1], b[2]
		ext := ".litmus"
		if kind == "test" || kind == "test-error" {
			ext = ".test"
		}
		tests, err := ptxmm.ParseTests("example"+ext, []byte(src))
		wantError := kind == "litmus-error" || kind == "test-error"
		if err == nil {
			for _, tc := range tests {
				if r := pm.Check(tc); r.Err != nil {
					err = r.Err
				}
			}
		}
		if wantError {
			require.Error(t, err, "block %d (%s) must be rejected:\n%s", i, kind, src)
		} else {
			require.NoError(t, err, "block %d (%s):\n%s", i, kind, src)
		}
	}
}
