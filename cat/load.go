package cat

import (
	"errors"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/source"
)

// Options configure reading a cat model.
type Options struct {
	// IncludeDirs are searched, in order, for an included file that is not
	// next to the file including it (herd7's -I; a folder written +DIR is
	// DIR in LibDir, as herd7 reads it).
	IncludeDirs []string
	// EnvLibDir is searched after them: the folder herd7's environment
	// variable HERDLIB names (the command line reads it).
	EnvLibDir string
	// LibDir is searched last: herd7's library folder (-set-libdir), where
	// herdtools7 installs its cat models.
	LibDir string
	// Variants are the variants set (herd7's -variant), which the model's
	// if variant "name" tests.
	Variants []string
	// Bell is a bell file (herd7's -bell), run before the model: its
	// enum, let and procedures are the model's. It is found as the model
	// is (FindModel).
	Bell string
	// ArchCheck refuses a model whose first line names an architecture
	// other than PTX (herd7's -archcheck, on by default in herd7).
	ArchCheck bool
	// Read reads a file; nil means datalog.ReadModelFile (a regular file
	// of at most datalog.MaxFileBytes).
	Read func(name string) ([]byte, error)
}

// read reads a model file with the limits of the .dl front end: a regular
// file of at most datalog.MaxFileBytes (a caller's reader gets the size
// limit).
func (o Options) read(name string) ([]byte, error) {
	if o.Read == nil {
		return datalog.ReadModelFile(name)
	}
	data, err := o.Read(name)
	if err != nil {
		return nil, err
	}
	if err := datalog.CheckModelSize(data); err != nil {
		return nil, err
	}
	return data, nil
}

// searchDirs lists the folders searched after the including file's, in
// herd7's order: the -I folders, HERDLIB, the library folder.
func (o Options) searchDirs() []string {
	var dirs []string
	for _, d := range o.IncludeDirs {
		if rest, ok := strings.CutPrefix(d, "+"); ok && o.LibDir != "" {
			d = filepath.Join(o.LibDir, rest)
		}
		dirs = append(dirs, d)
	}
	if o.EnvLibDir != "" {
		dirs = append(dirs, o.EnvLibDir)
	}
	if o.LibDir != "" {
		dirs = append(dirs, o.LibDir)
	}
	return dirs
}

// IsCatFile reports whether a model file is a cat model (by its .cat
// extension); other models are read as ptxmm's modelling language.
func IsCatFile(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".cat") }

// FindModel locates a model named on the command line as herd7 does: a
// name that exists as given is read there; a plain file name (no folder)
// that does not is searched for in the -I folders, HERDLIB and the library
// folder, so that "-cat sc.cat" finds herdtools7's sc.cat.
func FindModel(name string, opts Options) string {
	if _, err := opts.read(name); err == nil || !errors.Is(err, fs.ErrNotExist) {
		return name
	}
	if filepath.IsAbs(name) || strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
		return name
	}
	for _, d := range opts.searchDirs() {
		c := filepath.Join(d, name)
		if _, err := opts.read(c); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return c
		}
	}
	return name
}

// Load reads the cat model in file (found as FindModel finds it), with its
// includes, and lowers it.
func Load(file string, opts Options) (*Lowered, source.List) {
	file = FindModel(file, opts)
	src, err := opts.read(file)
	if err != nil {
		var errs source.List
		errs.Add(source.Pos{File: file}, "cannot read model: %v", describeReadError(err))
		return nil, errs
	}
	return LoadSource(file, string(src), opts)
}

// LoadSource reads src as the contents of file, with its includes, and
// lowers it.
func LoadSource(file, src string, opts Options) (*Lowered, source.List) {
	m, errs := Parse(file, src)
	if errs.HasErrors() {
		return nil, errs
	}
	low, lerrs := lower(m, src, opts)
	errs = append(errs, lerrs...)
	if errs.HasErrors() {
		return nil, errs
	}
	return low, errs
}

// Parse reads the cat model in src (named file). Its includes are read
// when it is lowered.
func Parse(file, src string) (*Model, source.List) {
	var errs source.List
	m := parseFile(file, src, &errs)
	errs.Sort()
	return m, errs
}

// findInclude finds an included file: an absolute path as it is, a
// relative one next to the including file, then in the -I folders,
// HERDLIB and the library folder.
func findInclude(from, inc string, opts Options) (string, []byte, error) {
	var candidates []string
	if filepath.IsAbs(inc) {
		candidates = []string{inc}
	} else {
		candidates = append(candidates, filepath.Join(filepath.Dir(from), inc))
		for _, d := range opts.searchDirs() {
			candidates = append(candidates, filepath.Join(d, inc))
		}
	}
	for _, c := range candidates {
		text, err := opts.read(c)
		if err == nil {
			return filepath.Clean(c), text, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", nil, err
		}
	}
	if len(candidates) == 1 {
		return "", nil, errors.New("no such file")
	}
	return "", nil, errors.New("no such file next to the including file, in the -I folders, in $HERDLIB or in the library folder (-set-libdir)")
}

func describeReadError(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.New("no such file")
	}
	return err
}
