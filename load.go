package ptxmm

import (
	"io/fs"

	"github.com/ptxmm/ptxmm/internal/defaultmodel"
	"github.com/ptxmm/ptxmm/internal/loader"
)

// LoadOption configures loading a model.
type LoadOption func(*loader.Options)

// WithIncludeDirs adds folders searched, in order, for an included file
// that is not next to the file including it (herd7's -I for a cat model;
// for a model read from an fs.FS, folders of that file system).
func WithIncludeDirs(dirs ...string) LoadOption {
	return func(o *loader.Options) { o.IncludeDirs = append(o.IncludeDirs, dirs...) }
}

// WithLibDir sets herd7's library folder (its -set-libdir): a cat model's
// includes, and a model named by its file name alone, are searched there
// last.
func WithLibDir(dir string) LoadOption { return func(o *loader.Options) { o.Cat.LibDir = dir } }

// WithEnvLibDir sets the folder herd7's environment variable HERDLIB
// names, searched before the library folder.
func WithEnvLibDir(dir string) LoadOption { return func(o *loader.Options) { o.Cat.EnvLibDir = dir } }

// WithVariants sets herd7's variants, which a cat model tests with if
// variant "name".
func WithVariants(names ...string) LoadOption {
	return func(o *loader.Options) { o.Cat.Variants = append(o.Cat.Variants, names...) }
}

// WithExtraRules adds items written in ptxmm's modelling language (rules,
// definitions, checks, flags, declarations) after the model, each text on
// its own (named input#1, input#2, ... in messages). A rule whose head the
// model does not declare is declared for it, so "late(X) :- W(X), !IW(X)."
// can be added alone. Extra items apply to cat models too, over the
// relations they are lowered to.
func WithExtraRules(items ...string) LoadOption {
	return func(o *loader.Options) { o.Extra = append(o.Extra, items...) }
}

// WithUncheckedAxioms leaves the named checks of the model out (an
// .uncheck each; for a cat model, a name shared by several checks leaves
// out all of them). Naming a check the model lacks is an error.
func WithUncheckedAxioms(names ...string) LoadOption {
	return func(o *loader.Options) { o.Unchecked = append(o.Unchecked, names...) }
}

func loadOptions(opts []LoadOption) loader.Options {
	var o loader.Options
	for _, f := range opts {
		f(&o)
	}
	return o
}

func load(src loader.Source, opts []LoadOption) (*Model, error) {
	lm, err := loader.Load(src, loadOptions(opts))
	if err != nil {
		return nil, err
	}
	return newModel(lm.Model), nil
}

// DefaultModel loads the embedded PTX model. Without options it is read
// as compiled when ptxmm was built (internal/defaultmodel), not compiled
// again.
func DefaultModel(opts ...LoadOption) (*Model, error) {
	return load(defaultmodel.Source(models), opts)
}

// LoadModel loads a model from a file on disk: a herd7 cat model when the
// name ends in .cat, a .dl model otherwise. Includes are found next to the
// including file, then in the include folders the options give (and for a
// cat model, as herd7 finds them).
func LoadModel(path string, opts ...LoadOption) (*Model, error) {
	return load(loader.Source{Name: path}, opts)
}

// LoadModelFS loads a model from a file system, such as LibraryFS() or an
// os.DirFS: name and its includes are slash-separated names in fsys.
// LoadModelFS(LibraryFS(), "variants/ptx-v6.0.dl") loads a shipped variant.
func LoadModelFS(fsys fs.FS, name string, opts ...LoadOption) (*Model, error) {
	return load(loader.Source{Name: name, FS: fsys}, opts)
}

// LoadModelSource loads a model from text: name says whether it is a .cat
// or .dl model, names it in messages, and its includes are read from disk
// relative to it.
func LoadModelSource(name string, src []byte, opts ...LoadOption) (*Model, error) {
	return load(loader.Source{Name: name, Text: nonNil(src)}, opts)
}

// LoadModelSourceFS is LoadModelSource with the includes read from fsys.
func LoadModelSourceFS(fsys fs.FS, name string, src []byte, opts ...LoadOption) (*Model, error) {
	return load(loader.Source{Name: name, FS: fsys, Text: nonNil(src)}, opts)
}

// nonNil makes an empty text a given (empty) text.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}

// VariantModel loads the embedded default model with the embedded
// variants named applied in order (each is a .dl file of variants/ that
// includes spec.dl and edits it; variants of different places combine).
func VariantModel(names ...string) (*Model, error) {
	src, err := loader.VariantSource(library, names...)
	if err != nil {
		return nil, err
	}
	return load(src, nil)
}
