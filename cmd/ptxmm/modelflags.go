package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/cli"
	"github.com/ptxmm/ptxmm/internal/defaultmodel"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/repl"
)

// modelFlags are the flags that say how a model is found and read: herd7's
// -I, -set-libdir and -variant (with its environment variable HERDLIB).
type modelFlags struct {
	includes modelList
	libDir   string
	variants modelList
	// Set by ptxmm check's herd7 options: -bell, -archcheck, -q, -v.
	bell      string
	archcheck bool
	quiet     bool
	verbose   int
}

// addModelFlags registers -I, -set-libdir and -variant.
func addModelFlags(fs *flag.FlagSet) *modelFlags {
	f := &modelFlags{}
	fs.Var(&f.includes, "I", "`DIR` searched for a cat model and for the files a model (.dl or .cat) includes, after the including file's folder (repeatable; +DIR is DIR in the library folder; herd7's -I)")
	fs.StringVar(&f.libDir, "set-libdir", "", "herd7's library folder `DIR`, searched last for a cat model and its includes (after $HERDLIB): point it at herdtools7's herd/libdir and its models load unchanged")
	fs.Var(&f.variants, "variant", "`TAGS`, comma-separated (repeatable): herd7's variants, which a cat model tests with if variant, and the variants of the embedded model (variants/NAME.dl, docs/variants.md), which apply when no -model is given")
	return f
}

// split sorts the -variant tags into the embedded model's variants and
// herd7's, refusing a tag that is neither.
func (f *modelFlags) split() (own, herd []string, err error) {
	known, err := ptxmm.LibraryVariants()
	if err != nil {
		return nil, nil, err
	}
	isOwn := map[string]bool{}
	for _, k := range known {
		isOwn[k] = true
	}
	for _, list := range f.variants {
		for _, tag := range strings.Split(list, ",") {
			tag = strings.TrimSpace(tag)
			switch {
			case tag == "":
			case isOwn[strings.TrimSuffix(tag, ".dl")]:
				own = append(own, strings.TrimSuffix(tag, ".dl"))
			case cat.IsVariant(tag):
				herd = append(herd, tag)
			default:
				return nil, nil, fmt.Errorf("-variant %s: not a variant of the embedded model (%s) nor one of herd7's (%s)", tag, strings.Join(known, ", "), strings.Join(cat.HerdVariants(), ", "))
			}
		}
	}
	return own, herd, nil
}

// options returns the options of a model's loading: the include folders,
// herd7's library folders, variants, bell file and -archcheck.
func (f *modelFlags) options(herdVariants []string) loader.Options {
	return loader.Options{IncludeDirs: f.includes,
		Cat: cat.Options{LibDir: f.libDir, EnvLibDir: os.Getenv("HERDLIB"), Variants: herdVariants, Bell: f.bell, ArchCheck: f.archcheck}}
}

// modelPath finds the model named by -model or -cat: a cat model that is
// not where the name says is searched for as herd7 searches it.
func (f *modelFlags) modelPath(file string) string {
	if !cat.IsCatFile(file) {
		return file
	}
	o := f.options(nil)
	o.Cat.IncludeDirs = o.IncludeDirs
	return cat.FindModel(file, o.Cat)
}

// source says where -model FILE is read from, or the embedded model (with
// the variants of it -variant names) when file is empty, and how.
func (f *modelFlags) source(file string, stderr io.Writer) (loader.Source, loader.Options, error) {
	own, herd, err := f.split()
	if err != nil {
		return loader.Source{}, loader.Options{}, err
	}
	var src loader.Source
	switch {
	case file == "" && f.bell != "":
		return src, loader.Options{}, fmt.Errorf("-bell %s: a bell file goes with a cat model (-cat FILE)", f.bell)
	case file == "" && len(own) > 0:
		if src, err = loader.VariantSource(ptxmm.LibraryFS(), own...); err != nil {
			return src, loader.Options{}, err
		}
	case file == "":
		src = defaultmodel.Source(ptxmm.DefaultModelFS())
	case len(own) > 0:
		return src, loader.Options{}, fmt.Errorf("-variant %s: a variant of the embedded model applies without -model; to edit %s, write a variant of it (docs/variants.md)", strings.Join(own, ","), file)
	default:
		if (len(herd) > 0 || f.bell != "") && !cat.IsCatFile(file) {
			fmt.Fprintf(stderr, "ptxmm: warning: -variant and -bell apply to cat models; %s is not one, so they change nothing\n", file)
		}
		src = loader.Source{Name: f.modelPath(file)}
	}
	return src, f.options(herd), nil
}

// load loads the model source says, printing its warnings to stderr.
func (f *modelFlags) load(file string, stderr io.Writer) (*checker.Model, error) {
	src, opts, err := f.source(file, stderr)
	if err != nil {
		return nil, err
	}
	lm, err := loader.Load(src, opts)
	if err != nil {
		return nil, fmt.Errorf("%s", cli.Quoted(err))
	}
	m := lm.Model
	var warnings []string
	for _, w := range m.Warnings {
		warnings = append(warnings, w.Quoted())
	}
	f.announce(m.Name, m.Syntax.Program.Files, warnings, stderr)
	return m, nil
}

// announce prints, with -v, the files a model reads, and, without -q, its
// warnings.
func (f *modelFlags) announce(name string, files, warnings []string, stderr io.Writer) {
	if f.verbose > 0 {
		fmt.Fprintf(stderr, "ptxmm: model %s reads %s\n", name, strings.Join(files, ", "))
	}
	if !f.quiet {
		for _, w := range warnings {
			fmt.Fprintln(stderr, w)
		}
	}
}

// embedded loads the model as the embedding API's Model, for the commands
// that serve it to other programs (ptxmm oracle).
func (f *modelFlags) embedded(file string, stderr io.Writer) (*ptxmm.Model, error) {
	src, opts, err := f.source(file, stderr)
	if err != nil {
		return nil, err
	}
	all := ptxmm.LoadOption(func(o *loader.Options) { *o = opts })
	var m *ptxmm.Model
	switch {
	case src.Text != nil && src.FS != nil:
		m, err = ptxmm.LoadModelSourceFS(src.FS, src.Name, src.Text, all)
	case src.FS != nil:
		m, err = ptxmm.LoadModelFS(src.FS, src.Name, all)
	default:
		m, err = ptxmm.LoadModel(src.Name, all)
	}
	if err != nil {
		return nil, fmt.Errorf("%s", cli.Quoted(err))
	}
	f.announce(m.Name(), m.Files(), m.Warnings(), stderr)
	return m, nil
}

// replSource says where ptxmm repl reads its model from: -model FILE, or
// the embedded model, or one embedded variant of it.
func (f *modelFlags) replSource(file string) (repl.ModelSource, error) {
	own, herd, err := f.split()
	if err != nil {
		return repl.ModelSource{}, err
	}
	src := repl.ModelSource{Path: f.modelPath(file), FS: ptxmm.DefaultModelFS(), Name: ptxmm.DefaultModelName,
		Options: f.options(herd)}
	switch {
	case len(own) > 0 && file != "":
		return src, fmt.Errorf("-variant %s: a variant of the embedded model applies without -model", strings.Join(own, ","))
	case len(own) > 1:
		return src, fmt.Errorf("-variant %s: the REPL reads one variant of the embedded model at a time", strings.Join(own, ","))
	case len(own) == 1:
		src.FS, src.Name = ptxmm.LibraryFS(), "variants/"+own[0]+".dl"
	}
	return src, nil
}

// searchedLibDir is the library folder searched last (herd7's -libdir
// prints it): -set-libdir, else $HERDLIB.
func (f *modelFlags) searchedLibDir() string {
	if f.libDir != "" {
		return f.libDir
	}
	return os.Getenv("HERDLIB")
}
