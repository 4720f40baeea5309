package serve

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"

	"github.com/ptxmm/ptxmm/limits"
)

// MaxIncludeBytes bounds one included file: a model is text of a few tens
// of kilobytes, and a bound keeps a device or a huge file from being read.
const MaxIncludeBytes = 1 << 20

// includeFS is the only place a submitted model's .include can read from:
// the .dl files of the embedded library (spec.dl, variants/), and, when the
// server was started with -include-dir, the .dl files below that folder,
// which shadow library files of the same name. Paths are slash-separated
// and relative; nothing outside these two places can be named (an os.Root
// keeps symbolic links inside the folder too).
type includeFS struct {
	// library holds the library's .dl files, read once: they are embedded
	// in the binary and never change, and every request whose model
	// includes spec.dl (a variant) reads it again to tell whether its
	// compiled model is still current, which was a third of a diff's time.
	library map[string][]byte
	dir     *os.Root // nil without -include-dir
	dirName string
}

// errConfined explains a refused include.
type errConfined struct{ name, why string }

func (e *errConfined) Error() string {
	return fmt.Sprintf("%s: %s", e.name, e.why)
}

// newIncludeFS reads the library's spec.dl and variants/ and opens the
// include folder, if any.
func newIncludeFS(library fs.FS, dir string) (*includeFS, error) {
	f := &includeFS{library: map[string][]byte{}, dirName: dir}
	err := fs.WalkDir(library, ".", func(name string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir():
			if name != "." && name != "variants" && !strings.HasPrefix(name, "variants/") {
				return fs.SkipDir
			}
			return nil
		case path.Ext(name) != ".dl" || (name != "spec.dl" && !strings.HasPrefix(name, "variants/")):
			return nil
		}
		data, err := readRegular(library, name)
		f.library[name] = data
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("the built-in models: %w", err)
	}
	if dir == "" {
		return f, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("-include-dir: %w", err)
	}
	f.dir = root
	return f, nil
}

// where says, for messages, where includes may come from.
func (f *includeFS) where() string {
	if f.dir == nil {
		return "the built-in spec.dl and variants/ (start ptxmm serve with -include-dir DIR to allow a folder of your own)"
	}
	return "the built-in spec.dl and variants/, and " + f.dirName
}

// ReadFile reads an include: a .dl file of at most MaxIncludeBytes.
func (f *includeFS) ReadFile(name string) ([]byte, error) {
	if !fs.ValidPath(name) || name == "." {
		return nil, &errConfined{name, "includes are confined to " + f.where() + "; this path leaves them"}
	}
	if path.Ext(name) != ".dl" {
		return nil, &errConfined{name, "only .dl files can be included"}
	}
	if f.dir != nil {
		data, err := readRegular(f.dir.FS(), name)
		if err == nil || !errors.Is(err, fs.ErrNotExist) {
			return data, err
		}
	}
	data, ok := f.library[name]
	if !ok {
		return nil, fmt.Errorf("no such file among %s", f.where())
	}
	return data, nil
}

// includeFile bounds what an include may be: a regular file (a named pipe
// under -include-dir would keep a worker waiting for a writer) of at most
// MaxIncludeBytes.
var includeFile = limits.File{Kind: "model", MaxBytes: MaxIncludeBytes}

// readRegular reads a regular file of bounded size, looking at it before
// opening it.
func readRegular(fsys fs.FS, name string) ([]byte, error) {
	return includeFile.ReadFileFS(fsys, name)
}

// Close releases the include folder.
func (f *includeFS) Close() error {
	if f.dir != nil {
		return f.dir.Close()
	}
	return nil
}
