package ptxmm_test

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
)

// loadTwins loads examples/cat/sc.cat and its .dl twin.
func loadTwins(tb testing.TB) (cat, dl *checker.Model) {
	tb.Helper()
	return checkerModel(tb, loader.Source{Name: filepath.Join("examples", "cat", "sc.cat")}),
		checkerModel(tb, loader.Source{Name: filepath.Join("examples", "cat", "sc.dl")})
}

// TestCatTwin: the cat model and its .dl twin give the same states and
// verdicts on every shipped test, and compile to programs of the same
// size.
func TestCatTwin(t *testing.T) {
	cat, dl := loadTwins(t)
	require.Equal(t, len(dl.Syntax.Rules), len(cat.Syntax.Rules), "the lowering adds no rules")
	for _, r := range checkDir(t, "examples") {
		rc := cat.Check(r.Test, checker.DefaultOptions())
		rd := dl.Check(r.Test, checker.DefaultOptions())
		require.NoError(t, rc.Err)
		require.NoError(t, rd.Err)
		require.Equal(t, rd.Verdict, rc.Verdict, r.Test.Name)
		require.Equal(t, len(rd.States), len(rc.States), r.Test.Name)
		require.Equal(t, rd.Candidates, rc.Candidates, r.Test.Name)
	}
}
