package limits

import (
	"errors"
	"io/fs"
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

// TestReadFileLooked: the caller's look sees the file before it is opened
// and its error is returned as it is, before the kind's own bounds; a nil
// look reads as ReadFile does.
func TestReadFileLooked(t *testing.T) {
	dir := t.TempDir()
	small := File{Kind: "test", MaxBytes: 10}
	ok := filepath.Join(dir, "ok.litmus")
	require.NoError(t, os.WriteFile(ok, []byte("0123456789"), 0o644))
	big := filepath.Join(dir, "big.litmus")
	require.NoError(t, os.WriteFile(big, []byte("0123456789A"), 0o644))
	refuse := errors.New("refused by the caller")
	var seen []int64
	look := func(info os.FileInfo) error {
		seen = append(seen, info.Size())
		if info.Size() > 5 {
			return refuse
		}
		return nil
	}
	_, err := small.ReadFileLooked(ok, look)
	require.ErrorIs(t, err, refuse)
	_, err = small.ReadFileLooked(big, look)
	require.ErrorIs(t, err, refuse, "the look comes before the kind's bound")
	assert.Equal(t, []int64{10, 11}, seen)
	data, err := small.ReadFileLooked(ok, nil)
	require.NoError(t, err)
	assert.Equal(t, "0123456789", string(data))
	_, err = small.ReadFileLooked(filepath.Join(dir, "none.litmus"), look)
	require.ErrorIs(t, err, os.ErrNotExist)
	assert.Len(t, seen, 2, "a file that is not there is not looked at")
}

// TestReadRegular: a regular file is read whole whatever the size it was
// looked at with (it may have changed since), up to the bound, with
// os.Open's and os.File.Read's errors.
func TestReadRegular(t *testing.T) {
	dir := t.TempDir()
	f := File{Kind: "test", MaxBytes: 600}
	write := func(name string, n int) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(strings.Repeat("x", n)), 0o644))
		return p
	}
	cases := []struct {
		name      string
		path      string
		looked    int64 // the size the file was looked at with
		wantBytes int
		wantErr   string
	}{
		{"empty", write("empty", 0), 0, 0, ""},
		{"one byte", write("one", 1), 1, 1, ""},
		{"the bound", write("bound", 600), 600, 600, ""},
		{"grew within the bound", write("grew", 599), 3, 599, ""},
		{"shrank", write("shrank", 2), 500, 2, ""},
		{"grew past the bound", write("past", 601), 10, 0, "more than the 600 B a test file may have"},
		{"longer than its buffer", write("long", 1100), 0, 0, "more than the 600 B a test file may have"},
		{"not there", filepath.Join(dir, "none"), 0, 0, "open " + filepath.Join(dir, "none") + ": no such file or directory"},
		{"a folder", dir, 0, 0, "read " + dir + ": is a directory"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data, err := f.readRegular(c.path, c.looked)
			if c.wantErr != "" {
				require.Error(t, err)
				assert.Contains(t, err.Error(), c.wantErr)
				var pe *fs.PathError
				require.ErrorAs(t, err, &pe)
				assert.Equal(t, c.path, pe.Path)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, strings.Repeat("x", c.wantBytes), string(data))
		})
	}
	big := File{Kind: "test", MaxBytes: 5000}
	data, err := big.readRegular(write("bigger", 4000), 100)
	require.NoError(t, err, "a file larger than its first buffer is read whole")
	assert.Len(t, data, 4000)
}

// TestReadSized: a reader is read whole whatever size it was said to have,
// up to the bound.
func TestReadSized(t *testing.T) {
	f := File{Kind: "model", MaxBytes: 1000}
	cases := []struct {
		name    string
		text    string
		size    int64
		wantErr bool
	}{
		{"empty", "", 0, false},
		{"as said", strings.Repeat("a", 700), 700, false},
		{"more than said", strings.Repeat("b", 999), 10, false},
		{"less than said", "c", 600, false},
		{"no size", strings.Repeat("d", 1000), -1, false},
		{"past the bound", strings.Repeat("e", 1001), 1001, true},
		{"past the bound, said small", strings.Repeat("f", 5000), 3, true},
	}
	for _, c := range cases {
		data, err := f.readSized("m.dl", strings.NewReader(c.text), c.size)
		if c.wantErr {
			assert.ErrorContains(t, err, "read m.dl: the file has more than the 0.98 KiB a model file may have", c.name)
			continue
		}
		require.NoError(t, err, c.name)
		assert.Equal(t, c.text, string(data), c.name)
	}
}
