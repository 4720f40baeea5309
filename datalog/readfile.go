package datalog

import (
	"errors"
	"io/fs"

	"github.com/ptxmm/ptxmm/limits"
)

// errTooLarge refuses a model file over MaxFileBytes.
func errTooLarge(size int64) error {
	return &limits.FileError{File: limits.ModelFile, Size: size}
}

// readRegularFile reads a model file from the operating system through
// the one bounded reader of ptxmm: a regular file of at most MaxFileBytes.
func readRegularFile(name string) ([]byte, error) {
	return limits.ModelFile.ReadFile(name)
}

// readRegular is readRegularFile for a file system such as the embedded one.
func readRegular(fsys fs.FS, name string) ([]byte, error) {
	return limits.ModelFile.ReadFileFS(fsys, name)
}

// describeReadError says why a model file could not be read, without the
// file's name, which the message already gives.
func describeReadError(err error) error {
	var fe *limits.FileError
	switch {
	case errors.As(err, &fe):
		return fe
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("no such file")
	}
	return err
}

// ReadModelFile reads a model file as Load does: a regular file (a
// symbolic link to one is followed) of at most MaxFileBytes, refusing
// devices, pipes and directories before opening them. Other front ends
// (the cat reader) read their files through it, so that every model file
// has the same limits and messages.
// Its refusals are the limits.FileError alone, as Load words them, since
// the caller's message names the file.
func ReadModelFile(name string) ([]byte, error) {
	data, err := readRegularFile(name)
	var fe *limits.FileError
	if errors.As(err, &fe) {
		return nil, fe
	}
	return data, err
}

// CheckModelSize refuses a model text over MaxFileBytes, for files read
// through a caller's own reader.
func CheckModelSize(data []byte) error {
	if len(data) > MaxFileBytes {
		return errTooLarge(int64(len(data)))
	}
	return nil
}
