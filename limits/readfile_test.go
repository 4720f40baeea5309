package limits

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadFileRefusesWhatIsNotASmallRegularFile: a named pipe (opening one
// waits for a writer), a device (/dev/zero never ends), a folder and a
// file over the bound are refused without being read; a link to a regular
// file is followed.
func TestReadFileRefusesWhatIsNotASmallRegularFile(t *testing.T) {
	dir := t.TempDir()
	small := File{Kind: "test", MaxBytes: 10}
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
		return p
	}
	ok := write("ok.litmus", "0123456789")
	big := write("big.litmus", "0123456789A")
	fifo := filepath.Join(dir, "pipe.litmus")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	link := filepath.Join(dir, "link.litmus")
	require.NoError(t, os.Symlink(ok, link))

	cases := []struct {
		name, want string
	}{
		{ok, ""},
		{link, ""},
		{fifo, "a named pipe, not a regular file; a test is read from a regular file"},
		{"/dev/zero", "a device, not a regular file; a test is read from a regular file"},
		{dir, "a directory, not a file; a test is read from a regular file"},
		{big, "the file has 11 B, more than the 10 B a test file may have"},
		{filepath.Join(dir, "none.litmus"), "no such file"},
	}
	for _, c := range cases {
		data, err := small.ReadFile(c.name)
		if c.want == "" {
			require.NoError(t, err, c.name)
			assert.Equal(t, "0123456789", string(data))
			continue
		}
		require.Error(t, err, c.name)
		assert.Contains(t, err.Error(), c.want, c.name)
		assert.Contains(t, err.Error(), c.name, "the error names the file")
	}
	_, err := small.ReadFile(fifo)
	var fe *FileError
	require.True(t, errors.As(err, &fe))
	assert.True(t, fe.NotRegular)
}

// TestReadFileFSAndReadAll: the same bounds hold in a file system and on a
// stream such as standard input, which has no size to look at first.
func TestReadFileFSAndReadAll(t *testing.T) {
	f := File{Kind: "log", MaxBytes: 4}
	fsys := fstest.MapFS{"a.log": {Data: []byte("abcd")}, "b.log": {Data: []byte("abcde")}, "d": {Mode: os.ModeDir}}
	data, err := f.ReadFileFS(fsys, "a.log")
	require.NoError(t, err)
	assert.Equal(t, "abcd", string(data))
	_, err = f.ReadFileFS(fsys, "b.log")
	assert.ErrorContains(t, err, "the file has 5 B, more than the 4 B a log file may have")
	_, err = f.ReadFileFS(fsys, "d")
	assert.ErrorContains(t, err, "a directory, not a file")

	_, err = f.ReadAll("<stdin>", strings.NewReader("abcdefgh"))
	assert.ErrorContains(t, err, "<stdin>: the file has more than the 4 B a log file may have")
	data, err = f.ReadAll("<stdin>", strings.NewReader("abc"))
	require.NoError(t, err)
	assert.Equal(t, "abc", string(data))
}
