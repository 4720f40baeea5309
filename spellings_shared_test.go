package ptxmm_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/litmus"
)

// TestSharedCorporaSpellings: both shared corpora parse under the PTX
// spelling checks (issue 10 item 7), and the only spellings outside PTX
// they rely on are Dartagnan's red.acq_rel, atom.sub and red.sub, each
// warned about once per file that uses it, never silently accepted.
func TestSharedCorporaSpellings(t *testing.T) {
	root := sharedConformance(t)
	dialect := regexp.MustCompile(`warning: (red\.acq_rel|atom\.sub|red\.sub) is not PTX`)
	filesWarned := map[string]int{} // spelling -> files
	for _, corpus := range []string{"dat3m", "nvlabs"} {
		err := filepath.WalkDir(filepath.Join(root, corpus), func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")) {
				return err
			}
			tests, err := litmus.ParseFile(p)
			require.NoError(t, err, "parse %s", p)
			seen := map[string]bool{}
			for _, tc := range tests {
				for _, w := range tc.Warnings {
					m := dialect.FindStringSubmatch(w.Error())
					if m == nil {
						continue
					}
					assert.True(t, strings.HasSuffix(p, ".litmus"), "%s: only herd files accept %s", p, m[1])
					assert.False(t, seen[m[1]], "%s: %s is warned about more than once", p, m[1])
					seen[m[1]] = true
					filesWarned[m[1]]++
				}
			}
			return nil
		})
		require.NoError(t, err)
	}
	for _, s := range []string{"red.acq_rel", "atom.sub", "red.sub"} {
		assert.Positive(t, filesWarned[s], "some corpus file writes %s and draws its warning", s)
	}
}
