package loader

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/internal/lazyregexp"
	"github.com/ptxmm/ptxmm/internal/snapshot"
	"github.com/ptxmm/ptxmm/limits"
	"github.com/ptxmm/ptxmm/source"
)

// Source says where a model comes from.
type Source struct {
	// Name is the model's file: a path on disk, or a slash-separated name
	// in FS. With Text it is the name the text goes by (in messages, and
	// as the place its includes are relative to). A name ending in .cat
	// is a herd7 cat model, any other a .dl model.
	Name string
	// FS, when set, holds the model and the files it includes.
	FS fs.FS
	// Text, when not nil, is the model's text: Name is then not read.
	Text []byte
	// Label names the model in warnings; empty means Name.
	Label string
	// Builtin says that Name in FS is the embedded spec.dl, which the
	// user cannot edit: the model is marked checker.Model.Builtin unless
	// Options add items to it or leave checks out.
	Builtin bool
	// Compiled, when set, is the model compiled ahead of time
	// (Precompile): it is used instead of compiling when the files it was
	// compiled from hold what they held then and no items are added or
	// checks left out; otherwise the model is compiled as usual. The
	// embedded default model carries it (internal/defaultmodel).
	Compiled []byte
	// Image, when set, is the model compiled ahead of time as part of
	// the program (embedded when it was built, and checked intact by its
	// package's tests), in place of Compiled: it is read once per process,
	// without computing its checksum, into read-only memory, and every
	// load that uses it shares that graph (snapshot.BuiltIn).
	Image *snapshot.BuiltIn
}

// Options say how a model is read and what is added to it.
type Options struct {
	// IncludeDirs are searched, in order, for an included file that is
	// not next to the file including it (herd7's -I for a cat model).
	IncludeDirs []string
	// Cat are the options of a cat model's reading: herd7's library
	// folders (LibDir, EnvLibDir), searched last for the model and its
	// includes, and variants. Its IncludeDirs and Read are the loader's.
	Cat cat.Options
	// Extra are further items (rules, definitions, checks, declarations)
	// added after the model, each a text of its own named input#1,
	// input#2, ... in messages. A rule whose head the model does not
	// declare gets a declaration, as in the REPL.
	Extra []string
	// Unchecked names checks of the model left out (an .uncheck each).
	Unchecked []string
	// Read, when set, reads every file (the model and its includes)
	// instead of the disk or FS: the server's confined includes.
	Read func(name string) ([]byte, error)
}

// Model is a compiled model with what it was read from.
type Model struct {
	*checker.Model
	// Files maps each file looked at to the digest of what was read, or
	// to absent for a name an include was looked for under and not found
	// (an include folder searched in vain): a cache hit reads them again.
	Files map[string]FileState
	// Digest identifies the model's content: the source, the options and
	// every file read. Two models with the same digest are the same.
	Digest string
	// TextBytes counts the text compiled: the source's, every file read
	// and the extra items. What the compiled model keeps grows with it.
	TextBytes int64
	// Precompiled says the model was read from Source.Compiled.
	Precompiled bool
}

// FileState is what one file held when the model was read.
type FileState struct {
	Absent bool
	Sum    [sha256.Size]byte
}

// ExtraPrefix names the items of Options.Extra: input#1, input#2, ...,
// as the REPL names the lines typed into it.
const ExtraPrefix = "input#"

// UncheckedFile names the generated input holding the .uncheck lines of
// Options.Unchecked.
const UncheckedFile = "unticked-axioms"

// checkName is what a check's name looks like (an identifier).
var checkName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// Load reads, extends and compiles a model. A model whose source carries
// its compiled form (Source.Compiled) is read from it when the files it
// was compiled from still hold what they held then.
func Load(src Source, opts Options) (*Model, error) {
	if m, ok := loadCompiled(src, opts); ok {
		return m, nil
	}
	rd := newRecorder(src, opts)
	c, lowered, err := compile(src, opts, rd)
	if err != nil {
		return nil, err
	}
	return finish(src, opts, rd, c, lowered), nil
}

// catParts are what a cat model's lowering adds to its compiled model.
type catParts struct {
	show     []string
	groups   map[string][]string
	warnings source.List
}

// compile reads a model through rd, adds the options' items and compiles
// it.
func compile(src Source, opts Options, rd *recorder) (*checker.Compiled, catParts, error) {
	var prog *datalog.Program
	var lowered catParts
	if cat.IsCatFile(src.Name) {
		low, errs := loadCat(src, opts, rd)
		if errs.HasErrors() {
			return nil, lowered, errs
		}
		prog, lowered = low.Program, catParts{low.Show, low.Groups, errs}
	} else {
		var errs source.List
		dopts := rd.datalogOptions(opts)
		if src.Text != nil {
			prog, errs = datalog.LoadSource(src.Name, string(src.Text), dopts...)
		} else {
			prog, errs = datalog.Load(src.Name, dopts...)
		}
		if errs.HasErrors() {
			return nil, lowered, errs
		}
	}
	if err := addExtra(prog, opts, rd.datalogOptions(opts)); err != nil {
		return nil, lowered, err
	}
	if err := addUnchecked(prog, opts.Unchecked, lowered.groups); err != nil {
		return nil, lowered, err
	}
	c, err := checker.Compile(prog, nil)
	if err != nil {
		return nil, lowered, err
	}
	return c, lowered, nil
}

// finish makes the loaded model of a compiled one.
func finish(src Source, opts Options, rd *recorder, c *checker.Compiled, lowered catParts) *Model {
	label := src.Label
	if label == "" {
		label = src.Name
	}
	m := c.Model(label)
	// A cat model's pictures draw what it shows, and what items added to
	// it show.
	m.Show, m.CheckGroups = append(lowered.show, m.Show...), lowered.groups
	m.Builtin = src.Builtin && src.FS != nil && src.Text == nil && opts.Read == nil && len(opts.Extra) == 0 && len(opts.Unchecked) == 0
	if len(lowered.warnings) > 0 {
		m.Warnings = append(lowered.warnings, m.Warnings...)
	}
	text := rd.bytes + int64(len(src.Text))
	for _, item := range opts.Extra {
		text += int64(len(item))
	}
	return &Model{Model: m, Files: rd.files, Digest: digest(key(src, opts), rd.files), TextBytes: text}
}

// loadCat reads a cat model, lowered onto the modelling language.
func loadCat(src Source, opts Options, rd *recorder) (*cat.Lowered, source.List) {
	co := opts.Cat
	co.IncludeDirs, co.Read = opts.IncludeDirs, rd.read
	if src.Text != nil {
		return cat.LoadSource(src.Name, string(src.Text), co)
	}
	return cat.Load(src.Name, co)
}

// addExtra adds the extra items, each as an input of its own, with the
// declarations of the rule heads the program does not declare in an input
// before it, so that positions in the item stay exact.
func addExtra(prog *datalog.Program, opts Options, dopts []datalog.Option) error {
	for i, item := range opts.Extra {
		name := fmt.Sprintf("%s%d", ExtraPrefix, i+1)
		if decls := ImplicitDecls(prog, item, dopts...); decls != "" {
			if errs := datalog.AddSource(prog, name+".decl", decls); errs.HasErrors() {
				return errs
			}
		}
		if errs := datalog.AddSource(prog, name, item, dopts...); errs.HasErrors() {
			return errs
		}
	}
	return nil
}

// addUnchecked adds an .uncheck line for each name (a name standing for a
// group of a cat model's checks leaves out each of them).
func addUnchecked(prog *datalog.Program, names []string, groups map[string][]string) error {
	if len(names) == 0 {
		return nil
	}
	var list []string
	for _, n := range names {
		g, ok := groups[n]
		switch {
		case ok:
			list = append(list, g...)
		case checkName().MatchString(n):
			list = append(list, n)
		default:
			return fmt.Errorf("cannot leave out check %q: not the name of a check", n)
		}
	}
	slices.Sort(list)
	var b strings.Builder
	for _, n := range slices.Compact(list) {
		fmt.Fprintf(&b, ".uncheck %s\n", n)
	}
	if errs := datalog.AddSource(prog, UncheckedFile, b.String()); errs.HasErrors() {
		return errs
	}
	return nil
}

// ImplicitDecls returns .decl lines for the heads of the rules in text
// that prog does not declare, so that a rule can be added on its own:
// "late(X) :- W(X), !IW(X)." declares late(c1).
// The item's includes are read with opts.
func ImplicitDecls(prog *datalog.Program, text string, opts ...datalog.Option) string {
	item, errs := datalog.LoadSource("input", text, opts...)
	if errs.HasErrors() {
		return ""
	}
	declared := map[string]bool{}
	for _, d := range prog.Decls {
		declared[d.Name] = true
	}
	for _, d := range prog.Defs {
		declared[d.Name] = true
	}
	for _, o := range prog.Orders {
		declared[o.Name] = true
	}
	for _, d := range item.Decls {
		declared[d.Name] = true
	}
	var b strings.Builder
	for _, r := range item.Rules {
		name := r.Head.Pred
		if declared[name] {
			continue
		}
		declared[name] = true
		cols := make([]string, len(r.Head.Args))
		for i := range cols {
			cols[i] = fmt.Sprintf("c%d", i+1)
		}
		fmt.Fprintf(&b, ".decl %s(%s)\n", name, strings.Join(cols, ", "))
	}
	return b.String()
}

// recorder reads the files of one load and keeps what each held.
type recorder struct {
	base    func(name string) ([]byte, error)
	slashed bool
	files   map[string]FileState
	// texts, when not nil, keeps each file's text (Precompile).
	texts map[string]string
	// bytes counts what was read.
	bytes int64
}

func newRecorder(src Source, opts Options) *recorder {
	rd := &recorder{files: map[string]FileState{}}
	switch {
	case opts.Read != nil:
		rd.base = opts.Read
		rd.slashed = src.FS != nil
	case src.FS != nil:
		fsys := src.FS
		rd.base = func(name string) ([]byte, error) {
			return limits.ModelFile.ReadFileFS(fsys, cleanFSName(name))
		}
		rd.slashed = true
	default:
		rd.base = datalog.ReadModelFile
	}
	return rd
}

// cleanFSName makes a name an fs.FS accepts of one written as a path: no
// leading slash, no . or .. elements (those that leave the root stay, for
// the file system to refuse).
func cleanFSName(name string) string {
	return strings.TrimPrefix(path.Clean(name), "/")
}

// read reads a file through the source's reader and records it.
func (rd *recorder) read(name string) ([]byte, error) {
	data, err := rd.base(name)
	switch {
	case err == nil:
		rd.files[name] = FileState{Sum: sha256.Sum256(data)}
		rd.bytes += int64(len(data))
		if rd.texts != nil {
			rd.texts[name] = string(data)
		}
	case errors.Is(err, fs.ErrNotExist):
		rd.files[name] = FileState{Absent: true}
	}
	return data, err
}

// datalogOptions are the options of datalog.Load reading through rd.
func (rd *recorder) datalogOptions(opts Options) []datalog.Option {
	out := []datalog.Option{datalog.WithReader(rd.read)}
	if rd.slashed {
		out = append(out, datalog.WithSlashedNames())
	}
	if len(opts.IncludeDirs) > 0 {
		out = append(out, datalog.WithIncludeDirs(opts.IncludeDirs...))
	}
	return out
}

// unchanged reports whether every file a model was read from holds what
// it held then, read through the reader of src and opts.
func unchanged(m *Model, src Source, opts Options) bool {
	rd := newRecorder(src, opts)
	for name, st := range m.Files {
		data, err := rd.base(name)
		switch {
		case st.Absent:
			if !errors.Is(err, fs.ErrNotExist) {
				return false
			}
		case err != nil || sha256.Sum256(data) != st.Sum:
			return false
		}
	}
	return true
}

// key is the digest of a source and options: everything a compiled model
// depends on except the files read.
func key(src Source, opts Options) string {
	h := sha256.New()
	field := func(s string) { fmt.Fprintf(h, "%d:%s", len(s), s) }
	list := func(tag string, l []string) {
		fmt.Fprintf(h, "%s%d", tag, len(l))
		for _, s := range l {
			field(s)
		}
	}
	field(src.Name)
	field(src.Label)
	switch {
	case src.Text != nil:
		field("text")
		fmt.Fprintf(h, "%d:", len(src.Text))
		h.Write(src.Text)
	case src.FS != nil:
		field("fs")
	default:
		field("disk")
	}
	fmt.Fprintf(h, "confined%t", opts.Read != nil)
	fmt.Fprintf(h, "builtin%t", src.Builtin)
	list("I", opts.IncludeDirs)
	// The cat options are plain values (Read is the loader's own).
	co := opts.Cat
	co.IncludeDirs, co.Read = nil, nil
	field(fmt.Sprintf("%#v", co))
	list("extra", opts.Extra)
	unchecked := slices.Clone(opts.Unchecked)
	slices.Sort(unchecked)
	list("unchecked", slices.Compact(unchecked))
	return string(h.Sum(nil))
}

// digest extends a key with what the files read held.
func digest(key string, files map[string]FileState) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	h.Write([]byte(key))
	for _, n := range names {
		st := files[n]
		fmt.Fprintf(h, "%d:%s%t", len(n), n, st.Absent)
		h.Write(st.Sum[:])
	}
	return string(h.Sum(nil))
}

// LoadFile loads a model file from disk (.dl or .cat) without options.
func LoadFile(path string) (*checker.Model, error) {
	m, err := Load(Source{Name: path}, Options{})
	if err != nil {
		return nil, err
	}
	return m.Model, nil
}
