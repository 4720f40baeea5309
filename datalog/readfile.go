package datalog

import (
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/ptxmm/ptxmm/limits"
)

// errTooLarge refuses a model file over MaxFileBytes.
func errTooLarge(size int64) error {
	return fmt.Errorf("the file has %s, more than the %s a model file may have", limits.FormatSize(size), limits.FormatSize(MaxFileBytes))
}

// errNotRegular refuses what is not a regular file: reading a device such
// as /dev/zero or a pipe may never end, and a directory has no text.
func errNotRegular(mode fs.FileMode) error {
	what := "not a regular file"
	switch {
	case mode.IsDir():
		what = "a directory, not a file"
	case mode&fs.ModeDevice != 0 || mode&fs.ModeCharDevice != 0:
		what = "a device, not a regular file"
	case mode&fs.ModeNamedPipe != 0:
		what = "a named pipe, not a regular file"
	case mode&fs.ModeSocket != 0:
		what = "a socket, not a regular file"
	}
	return fmt.Errorf("%s; a model is read from a regular file", what)
}

// readRegularFile reads a model file from the operating system: a regular
// file (a symbolic link to one is followed) of at most MaxFileBytes. It
// looks before opening, since opening a named pipe waits for a writer.
func readRegularFile(name string) ([]byte, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errNotRegular(info.Mode())
	}
	if info.Size() > MaxFileBytes {
		return nil, errTooLarge(info.Size())
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f)
}

// readRegular is readRegularFile for a file system such as the embedded one.
func readRegular(fsys fs.FS, name string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, errNotRegular(info.Mode())
	}
	if info.Size() > MaxFileBytes {
		return nil, errTooLarge(info.Size())
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f)
}

// readLimited reads at most MaxFileBytes, refusing a file that grew past
// the limit after it was looked at.
func readLimited(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, errTooLarge(int64(len(data)))
	}
	return data, nil
}

// ReadModelFile reads a model file as Load does: a regular file (a
// symbolic link to one is followed) of at most MaxFileBytes, refusing
// devices, pipes and directories before opening them. Other front ends
// (the cat reader) read their files through it, so that every model file
// has the same limits and messages.
func ReadModelFile(name string) ([]byte, error) { return readRegularFile(name) }

// CheckModelSize refuses a model text over MaxFileBytes, for files read
// through a caller's own reader.
func CheckModelSize(data []byte) error {
	if len(data) > MaxFileBytes {
		return errTooLarge(int64(len(data)))
	}
	return nil
}
