package limits

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// A File says what a kind of file ptxmm reads may be: the name of its kind
// in messages ("model", "test", "list of tests") and its largest size.
type File struct {
	Kind     string
	MaxBytes int64
}

// MaxModelBytes is the largest model file (or included file) read.
const MaxModelBytes = 8 << 20

// The kinds of files ptxmm reads, with their bounds. Each bound is far
// beyond any real file of its kind; the point is that no input can take
// the machine's memory by naming a huge file or a device.
var (
	// ModelFile is a model: a .dl or .cat file and each file it includes.
	ModelFile = File{"model", MaxModelBytes}
	// TestFile is a litmus test (.litmus) or a template (.test).
	TestFile = File{"test", 8 << 20}
	// ListFile is a list of tests (@LIST), a kinds file (-kinds) or an
	// expected-results CSV (-expect).
	ListFile = File{"list", 64 << 20}
	// LogFile is a herd log read by ptxmm merge.
	LogFile = File{"log", 1 << 30}
	// ConfFile is a herd7 configuration file (-conf).
	ConfFile = File{"configuration", 1 << 20}
	// FactsFile is the facts of one input relation (ptxmm eval -F).
	FactsFile = File{"facts", 1 << 30}
)

// FileError refuses a file before or while it is read: it is not a regular
// file (NotRegular, with its Mode), or it is larger (Size) than its kind
// allows.
type FileError struct {
	File       File
	NotRegular bool
	Mode       fs.FileMode
	// Size is the size of a file too large; 0 when it was found too
	// large while read (a stream, or a file that grew).
	Size int64
}

func (e *FileError) Error() string {
	if e.NotRegular {
		return fmt.Sprintf("%s; a %s is read from a regular file", notRegular(e.Mode), e.File.Kind)
	}
	if e.Size == 0 {
		return fmt.Sprintf("the file has more than the %s a %s file may have", FormatSize(e.File.MaxBytes), e.File.Kind)
	}
	return fmt.Sprintf("the file has %s, more than the %s a %s file may have", FormatSize(e.Size), FormatSize(e.File.MaxBytes), e.File.Kind)
}

// notRegular says what a file that is not regular is.
func notRegular(mode fs.FileMode) string {
	switch {
	case mode.IsDir():
		return "a directory, not a file"
	case mode&fs.ModeDevice != 0 || mode&fs.ModeCharDevice != 0:
		return "a device, not a regular file"
	case mode&fs.ModeNamedPipe != 0:
		return "a named pipe, not a regular file"
	case mode&fs.ModeSocket != 0:
		return "a socket, not a regular file"
	}
	return "not a regular file"
}

// ReadFile is how ptxmm reads every file it is given: tests, models (.dl
// and .cat, the main file and each include), lists of tests, kinds and
// expected-results files, herd logs, -conf files and eval's facts. It
// reads name from the operating system only when it is a regular file (a
// symbolic link to one is followed) of at most f.MaxBytes; anything else
// is a *FileError, wrapped in an *fs.PathError naming the file. It looks
// before it opens, since opening a named pipe waits for a writer and a
// device such as /dev/zero never ends, and it stops reading a file that
// grows past the bound while it is read.
//
// A parser that reads files itself (an include) calls ReadFile with the
// kind of the file (ModelFile), or ReadFileFS for a file system such as
// the embedded library or an os.Root.
func (f File) ReadFile(name string) ([]byte, error) {
	return f.ReadFileLooked(name, nil)
}

// ReadFileLooked is ReadFile that first gives what it looked at to look
// (when not nil), and returns look's error, if any, without reading: a
// caller with a bound of its own on the file (the parser's memory) looks
// at the file once.
func (f File) ReadFileLooked(name string, look func(fs.FileInfo) error) ([]byte, error) {
	info, err := os.Stat(name)
	if err != nil {
		return nil, err
	}
	if look != nil {
		if err := look(info); err != nil {
			return nil, err
		}
	}
	if err := f.check(name, info); err != nil {
		return nil, err
	}
	return f.readRegular(name, info.Size())
}

// ReadFileFS is ReadFile for a file in fsys.
func (f File) ReadFileFS(fsys fs.FS, name string) ([]byte, error) {
	info, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if err := f.check(name, info); err != nil {
		return nil, err
	}
	file, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer file.Close()
	return f.readSized(name, file, info.Size())
}

// ReadAll reads r (standard input, say) to its end, refusing more than
// f.MaxBytes. name names r in the error.
func (f File) ReadAll(name string, r io.Reader) ([]byte, error) {
	return f.read(name, r)
}

// check refuses what is not a regular file of at most MaxBytes.
func (f File) check(name string, info fs.FileInfo) error {
	if !info.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: name, Err: &FileError{File: f, NotRegular: true, Mode: info.Mode()}}
	}
	if info.Size() > f.MaxBytes {
		return &fs.PathError{Op: "read", Path: name, Err: &FileError{File: f, Size: info.Size()}}
	}
	return nil
}

// readSized is read into a buffer made for a file of size bytes (what
// looking at it said), which io.ReadAll would grow from 512 bytes by
// doubling: the loader reads the embedded spec.dl at every start.
func (f File) readSized(name string, r io.Reader, size int64) ([]byte, error) {
	r = io.LimitReader(r, f.MaxBytes+1)
	b := make([]byte, 0, min(max(size, 0), f.MaxBytes)+1)
	for {
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
	}
	if int64(len(b)) > f.MaxBytes {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &FileError{File: f}}
	}
	return b, nil
}

// read reads at most MaxBytes, refusing a file that grew past the bound
// after it was looked at.
func (f File) read(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, f.MaxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > f.MaxBytes {
		return nil, &fs.PathError{Op: "read", Path: name, Err: &FileError{File: f}}
	}
	return data, nil
}
