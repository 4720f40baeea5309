package ptxgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/litmus"
)

// h100 is the device the golden modules are made for.
var h100 = gpu.Device{Name: "test", Major: 9, Minor: 0, SMs: 132, Driver: 13000, Clusters: true, MaxSharedPerBlock: 227 << 10}

// example is one test of examples/ and its module, or why it is refused.
type example struct {
	file, name string
	test       *litmus.Test
	module     string
	refused    error
}

// examples generates the module of every test of the shipped examples.
func examples(t *testing.T) []example {
	t.Helper()
	root := filepath.Join("..", "..", "examples")
	var out []example
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".litmus") || strings.HasSuffix(path, ".test")) {
			return err
		}
		tests, err := litmus.ParseFile(path)
		require.NoError(t, err, path)
		rel, _ := filepath.Rel(root, path)
		for _, tc := range tests {
			ex := example{file: rel, name: tc.Name, test: tc}
			if ex.refused = Support(tc, h100); ex.refused == nil {
				var p *Plan
				if p, ex.refused = NewPlan(tc); ex.refused == nil {
					ex.module, ex.refused = p.Module(h100.Arch())
				}
			}
			out = append(out, ex)
		}
		return nil
	})
	require.NoError(t, err)
	return out
}
