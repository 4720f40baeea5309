package ptxmm

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
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
func LibraryVariants() ([]string, error) {
	files, err := libraryFiles("variants", func(name string) bool { return path.Ext(name) == ".dl" })
	if err != nil {
		return nil, err
	}
	var out []string
	for _, f := range files {
		out = append(out, strings.TrimSuffix(path.Base(f), ".dl"))
	}
	return out, nil
}

// VariantModel loads the embedded default model with the embedded
// variants named applied in order (each is a .dl file of variants/ that
// includes spec.dl and edits it; variants of different places combine).
func VariantModel(names ...string) (*Model, error) {
	known, err := LibraryVariants()
	if err != nil {
		return nil, err
	}
	var src strings.Builder
	for _, n := range names {
		if sort.SearchStrings(known, n) == len(known) || known[sort.SearchStrings(known, n)] != n {
			return nil, fmt.Errorf("no variant %s: the variants of the embedded model are %s", n, strings.Join(known, ", "))
		}
		fmt.Fprintf(&src, ".include %q\n", "variants/"+n+".dl")
	}
	// The root sits at the top of the library, where variants/ is.
	return loadSource(DefaultModelName+"+"+strings.Join(names, "+"), src.String(), datalog.WithFS(library))
}
