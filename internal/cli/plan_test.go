package cli

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/litmus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlanDigest: the plan's digest is the SHA-256 of the run's list of
// tests, a file per line and a template's row after "#", whether the
// file was read, unreadable or another shard's; merges compare it, so it
// must not change from one release to the next.
func TestPlanDigest(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "missing.litmus")
	template := filepath.Join("..", "..", "examples", "MP-scopes.test")
	mp := filepath.Join("..", "..", "examples", "MP.litmus")
	cases := []struct {
		name  string
		files []string
		shard Shard
		lines func(rows int) string
	}{
		{"one test", []string{mp}, Shard{}, func(int) string { return mp + "\n" }},
		{"unreadable", []string{missing, mp}, Shard{}, func(int) string { return missing + "\n" + mp + "\n" }},
		{"another shard's", []string{mp, mp}, Shard{Index: 1, Count: 2}, func(int) string { return mp + "\n" + mp + "\n" }},
		{"template rows", []string{template, mp}, Shard{}, func(rows int) string {
			var b strings.Builder
			for r := 1; r <= rows; r++ {
				b.WriteString(template + "#" + strconv.Itoa(r) + "\n")
			}
			return b.String() + mp + "\n"
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := planRun(c.files, c.shard, false, litmus.ParseLimits{}, nil, io.Discard)
			rows := 0
			for _, u := range p.units {
				if u.test != nil && u.test.Instance > 0 {
					rows++
				}
			}
			if c.name == "template rows" {
				require.Greater(t, rows, 1)
			}
			sum := sha256.Sum256([]byte(c.lines(rows)))
			assert.Equal(t, hex.EncodeToString(sum[:])[:16], p.digest())
		})
	}
}
