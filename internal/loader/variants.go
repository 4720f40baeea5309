package loader

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// DefaultName is the name of the default model in the embedded library.
const DefaultName = "spec.dl"

// VariantDir is the library folder of the default model's variants.
const VariantDir = "variants"

// Variants lists the names of the variants of the default model in a
// library (VariantDir/NAME.dl), sorted.
func Variants(lib fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(lib, VariantDir)
	if err != nil {
		return nil, fmt.Errorf("the library's variants: %w", err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() && path.Ext(e.Name()) == ".dl" {
			out = append(out, strings.TrimSuffix(e.Name(), ".dl"))
		}
	}
	slices.Sort(out)
	return out, nil
}

// VariantSource is the default model of a library with the variants named
// applied in order (each a .dl file of VariantDir that includes spec.dl
// and edits it; variants of different places combine).
func VariantSource(lib fs.FS, names ...string) (Source, error) {
	known, err := Variants(lib)
	if err != nil {
		return Source{}, err
	}
	var text strings.Builder
	for _, n := range names {
		if !slices.Contains(known, n) {
			return Source{}, fmt.Errorf("no variant %s: the variants of the embedded model are %s", n, strings.Join(known, ", "))
		}
		fmt.Fprintf(&text, ".include %q\n", VariantDir+"/"+n+".dl")
	}
	// The text sits at the top of the library, where variants/ is.
	name := DefaultName + "+" + strings.Join(names, "+")
	return Source{Name: name, FS: lib, Text: []byte(text.String())}, nil
}
