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
	// IncludeDirs are searched in order for an included file that is not
	// next to the file including it (herd7's -I).
	IncludeDirs []string
	// Read reads a file; nil means os.ReadFile.
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

// IsCatFile reports whether a model file is a cat model (by its .cat
// extension); other models are read as ptxmm's modelling language.
func IsCatFile(name string) bool { return strings.HasSuffix(strings.ToLower(name), ".cat") }

// Load reads the cat model in file, with its includes, and lowers it.
func Load(file string, opts Options) (*Lowered, source.List) {
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
	m, texts, errs := parseModel(file, src, opts)
	if errs.HasErrors() {
		return nil, errs
	}
	low, lerrs := Lower(m)
	for f, t := range texts {
		low.Program.SetText(f, t)
		lerrs.AttachLines(f, t)
	}
	return low, append(errs, lerrs...)
}

// Parse reads the cat model in src (named file) and the files it
// includes, without lowering it.
func Parse(file, src string, opts Options) (*Model, source.List) {
	m, _, errs := parseModel(file, src, opts)
	return m, errs
}

func parseModel(file, src string, opts Options) (*Model, map[string]string, source.List) {
	var errs source.List
	m := &Model{}
	texts := map[string]string{}
	var load func(file, src string, stack []string) []Stmt
	load = func(file, src string, stack []string) []Stmt {
		m.Files = append(m.Files, file)
		texts[file] = src
		name, stmts := parseFile(file, src, &errs, func(inc string, pos source.Pos) []Stmt {
			if len(stack) >= datalog.MaxIncludeDepth {
				errs.Add(pos, "cannot include %q: includes nested more than %d deep (%s -> ... -> %s); a model nests includes only a few levels deep, so this is likely a generated chain",
					inc, datalog.MaxIncludeDepth, stack[0], file)
				return nil
			}
			target, text, err := resolveInclude(file, inc, opts)
			if err != nil {
				errs.Add(pos, "cannot include %q: %v", inc, err)
				return nil
			}
			for i, s := range stack {
				if s == target {
					errs.Add(pos, "include cycle: %s", strings.Join(append(append([]string{}, stack[i:]...), target), " -> "))
					return nil
				}
			}
			// Each file is read once, so that two files may include a
			// common one.
			for _, f := range m.Files {
				if filepath.Clean(f) == target {
					return nil
				}
			}
			return load(target, text, append(stack[:len(stack):len(stack)], target))
		})
		if len(stack) == 1 {
			m.Name = name
		}
		return stmts
	}
	m.Stmts = load(file, src, []string{filepath.Clean(file)})
	errs.Sort()
	return m, texts, errs
}

// resolveInclude finds an included file: an absolute path as it is, a
// relative one next to the including file, then in each include
// directory.
func resolveInclude(from, inc string, opts Options) (string, string, error) {
	var candidates []string
	if filepath.IsAbs(inc) {
		candidates = []string{inc}
	} else {
		candidates = append(candidates, filepath.Join(filepath.Dir(from), inc))
		for _, d := range opts.IncludeDirs {
			candidates = append(candidates, filepath.Join(d, inc))
		}
	}
	for _, c := range candidates {
		text, err := opts.read(c)
		if err == nil {
			return filepath.Clean(c), string(text), nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", "", err
		}
	}
	if len(opts.IncludeDirs) == 0 {
		return "", "", errors.New("no such file next to the including file (add a search directory with -I DIR)")
	}
	return "", "", errors.New("no such file next to the including file or in the -I directories")
}

func describeReadError(err error) error {
	if errors.Is(err, fs.ErrNotExist) {
		return errors.New("no such file")
	}
	return err
}
