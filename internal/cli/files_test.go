package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/checker"
)

// TestCollectTestsFollowsLinksGivenOnTheCommandLine: a link to a folder
// named as an argument is walked, and its files keep the name given (it
// found no tests before); inside folders, links to files are taken and
// links to folders are named on stderr and not followed.
func TestCollectTestsFollowsLinksGivenOnTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	tests := filepath.Join(dir, "tests")
	writeTest := func(p string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte("PTX T\n{ x=0; }\n P0@cta 0,gpu 0 ;\n st.weak x, 1 ;\nexists (x == 1)\n"), 0o644))
	}
	writeTest(filepath.Join(tests, "A.litmus"))
	writeTest(filepath.Join(tests, "sub", "B.litmus"))
	writeTest(filepath.Join(dir, "elsewhere", "C.litmus"))
	writeTest(filepath.Join(dir, "other", "D.litmus"))
	require.NoError(t, os.Symlink(filepath.Join(dir, "elsewhere", "C.litmus"), filepath.Join(tests, "C.litmus")))
	require.NoError(t, os.Symlink(filepath.Join(dir, "other"), filepath.Join(tests, "other")))
	require.NoError(t, os.Symlink(tests, filepath.Join(tests, "loop")))
	link := filepath.Join(dir, "link")
	require.NoError(t, os.Symlink(tests, link))

	var errs bytes.Buffer
	files, err := collectTests([]string{link}, &errs)
	require.NoError(t, err)
	assert.Equal(t, []string{
		filepath.Join(link, "A.litmus"),
		filepath.Join(link, "C.litmus"),
		filepath.Join(link, "sub", "B.litmus"),
	}, files)
	assert.Contains(t, errs.String(), "not following "+filepath.Join(link, "other")+", a link to a folder")
	assert.Contains(t, errs.String(), "not following "+filepath.Join(link, "loop")+", a link to a folder")

	// A link to a file given as an argument is a file.
	files, err = collectTests([]string{filepath.Join(tests, "C.litmus")}, &errs)
	require.NoError(t, err)
	assert.Equal(t, []string{filepath.Join(tests, "C.litmus")}, files)

	// And check runs what it finds through the link.
	var out bytes.Buffer
	status := Check(CheckConfig{Model: specModel(t), Options: checker.DefaultOptions(), Files: []string{link}}, &out, &errs)
	assert.Equal(t, ExitOK, status, errs.String())
	assert.Contains(t, out.String(), "Test T Allowed")
}

// TestCollectTestsRefusesWhatIsNotAFile: a pipe or device named like a
// test would block or never end; it is an error, given or found.
func TestCollectTestsRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "P.litmus")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	var errs bytes.Buffer
	_, err := collectTests([]string{fifo}, &errs)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "is not a regular file")
	_, err = collectTests([]string{dir}, &errs)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "P.litmus is not a regular file")
	_, err = collectTests([]string{"/dev/null"}, &errs)
	require.Error(t, err)
}
