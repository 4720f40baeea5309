package ptxmm

import (
	"embed"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/internal/loader"
)

// The library is what ships with ptxmm besides the default model: the model
// variants and the example litmus tests (with every subfolder of examples/,
// whatever folders are added there later), embedded so that a binary
// installed anywhere, such as the one behind ptxmm serve, can offer them.
//
//go:embed spec.dl variants examples
var library embed.FS

// LibraryFS returns the embedded library: spec.dl, variants/*.dl and
// examples/ with its subfolders, under those slash-separated names.
func LibraryFS() fs.FS { return library }

// LibraryExamples lists the litmus tests of the embedded examples/ folder
// (.litmus and .test files, subfolders included), sorted by name.
func LibraryExamples() ([]string, error) {
	return libraryFiles("examples", func(name string) bool {
		return strings.HasSuffix(name, ".litmus") || strings.HasSuffix(name, ".test")
	})
}

// LibraryModels lists the embedded models: spec.dl first, then the
// variants, sorted by name.
func LibraryModels() ([]string, error) {
	variants, err := libraryFiles("variants", func(name string) bool { return path.Ext(name) == ".dl" })
	if err != nil {
		return nil, err
	}
	return append([]string{DefaultModelName}, variants...), nil
}

func libraryFiles(root string, keep func(string) bool) ([]string, error) {
	var out []string
	err := fs.WalkDir(library, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && keep(p) {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out, nil
}

// LibraryVariants lists the names of the embedded model variants
// (variants/NAME.dl), sorted.
func LibraryVariants() ([]string, error) { return loader.Variants(library) }
