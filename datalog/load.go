package datalog

import (
	"errors"
	"io/fs"
	"path"
	"path/filepath"
	"strings"

	"github.com/ptxmm/ptxmm/source"
)

// ReadFunc reads a file named by the program (the main file or an include).
type ReadFunc func(name string) ([]byte, error)

// loadConfig holds what Load's options set, and the state of one load.
type loadConfig struct {
	read    ReadFunc
	slashed bool // names are slash-separated (fs.FS) rather than OS paths
	// dirs are searched, in order, for an include not found next to the
	// file including it (WithIncludeDirs).
	dirs []string
	// loaded holds the (cleaned) names of the files read so far, stack
	// the chain of files being read (each including the next) and onStack
	// each one's place in it: include handling costs the same at any depth.
	loaded  map[string]bool
	stack   []string
	onStack map[string]int
}

// Option configures Load and LoadSource.
type Option func(*loadConfig)

// WithFS makes Load read the program and its includes from fsys, e.g. an
// embed.FS holding the default model.
func WithFS(fsys fs.FS) Option {
	return func(c *loadConfig) {
		c.read = func(name string) ([]byte, error) { return readRegular(fsys, name) }
		c.slashed = true
	}
}

// WithReader makes Load read files through read; a text longer than
// MaxFileBytes is refused once read.
func WithReader(read ReadFunc) Option {
	return func(c *loadConfig) {
		c.read = func(name string) ([]byte, error) {
			data, err := read(name)
			if err == nil && len(data) > MaxFileBytes {
				return nil, errTooLarge(int64(len(data)))
			}
			return data, err
		}
	}
}

// WithSlashedNames makes Load read the names a reader of WithReader
// receives as slash-separated paths of a file system (fs.FS), as WithFS
// does: a leading / is that file system's root. Give it after WithReader.
func WithSlashedNames() Option {
	return func(c *loadConfig) { c.slashed = true }
}

// WithIncludeDirs adds folders searched, in order, for an included file
// that is not next to the file including it (as a C compiler's -I): an
// include of "common/base.dl" is read from the first folder holding it.
// With WithFS or WithSlashedNames they are folders of that file system.
func WithIncludeDirs(dirs ...string) Option {
	return func(c *loadConfig) { c.dirs = append(c.dirs, dirs...) }
}

func newLoadConfig(opts []Option) *loadConfig {
	c := &loadConfig{read: readRegularFile, loaded: map[string]bool{}, onStack: map[string]int{}}
	for _, o := range opts {
		o(c)
	}
	return c
}

// Load parses the program in file and every file it includes. The result
// holds everything that parsed; the List holds every syntax error and
// include problem, each at its file:line:col with the source line attached.
func Load(file string, opts ...Option) (*Program, source.List) {
	c := newLoadConfig(opts)
	var errs source.List
	src, err := c.read(file)
	if err != nil {
		errs.Add(source.Pos{File: file}, "cannot read model: %v", describeReadError(err))
		return &Program{}, errs
	}
	prog := &Program{}
	c.loadRoot(file, string(src), prog, &errs)
	errs.Sort()
	return prog, errs
}

// LoadSource parses src as if it were the contents of file; includes are
// read relative to file's directory.
func LoadSource(file, src string, opts ...Option) (*Program, source.List) {
	c := newLoadConfig(opts)
	var errs source.List
	prog := &Program{}
	c.loadRoot(file, src, prog, &errs)
	errs.Sort()
	return prog, errs
}

// AddSource parses src (named file) into an existing program, as the REPL
// does with each line a user types.
func AddSource(prog *Program, file, src string, opts ...Option) source.List {
	c := newLoadConfig(opts)
	var errs source.List
	c.loadRoot(file, src, prog, &errs)
	errs.Sort()
	return errs
}

// loadRoot loads the text of the file a load starts from into prog, which
// may already hold files (AddSource): those are not read again.
func (c *loadConfig) loadRoot(file, src string, prog *Program, errs *source.List) {
	for _, f := range prog.Files {
		c.loaded[c.clean(f)] = true
	}
	c.push(c.clean(file))
	c.loadText(file, src, prog, errs)
	c.pop()
}

func (c *loadConfig) push(name string) {
	c.onStack[name] = len(c.stack)
	c.stack = append(c.stack, name)
	c.loaded[name] = true
}

func (c *loadConfig) pop() {
	delete(c.onStack, c.stack[len(c.stack)-1])
	c.stack = c.stack[:len(c.stack)-1]
}

func (c *loadConfig) loadText(file, src string, prog *Program, errs *source.List) {
	prog.Files = append(prog.Files, file)
	if prog.texts == nil {
		prog.texts = map[string]string{}
	}
	if old, ok := prog.texts[file]; ok && old != src {
		// The same name with another text (as a REPL may add): positions
		// in it are ambiguous, so quote nothing from it.
		prog.texts[file] = noText
	} else {
		prog.texts[file] = src
	}
	var local source.List
	// An included file is read where its .include is, so its declarations,
	// rules and edits come at that point of the program: a variant of a
	// variant edits after the variant it includes.
	parseFile(file, src, prog, &local, func(inc includeDirective) {
		// Past the depth bound nothing more is read: the include is
		// looked for next to the including file only.
		deep := len(c.stack) >= MaxIncludeDepth
		target, text, err := c.resolve(file, inc.path), []byte(nil), error(nil)
		if !deep {
			target, text, err = c.find(file, inc.path)
		}
		if i, ok := c.onStack[target]; ok {
			cycle := append(append([]string{}, c.stack[i:]...), target)
			local.Add(inc.pos, "include cycle: %s", strings.Join(cycle, " -> "))
			return
		}
		// Each file is read once, so that two files may both include a
		// common one (a diamond) without declaring everything twice.
		if c.loaded[target] {
			return
		}
		if deep {
			local.Add(inc.pos, "cannot include %q: includes nested more than %d deep (%s -> ... -> %s); a model nests includes only a few levels deep, so this is likely a generated chain",
				inc.path, MaxIncludeDepth, c.stack[0], file)
			return
		}
		if err != nil {
			local.Add(inc.pos, "cannot include %q: %v", inc.path, describeReadError(err))
			return
		}
		c.push(target)
		c.loadText(target, string(text), prog, errs)
		c.pop()
	})
	local.AttachLines(file, src)
	*errs = append(*errs, local...)
}

// find locates an include: next to the including file, then in each
// include folder. A file already read (or being read) is found by its
// name alone, without reading it again; otherwise the text comes with the
// name. When no candidate exists, the error is that of the first.
func (c *loadConfig) find(from, inc string) (string, []byte, error) {
	first := c.resolve(from, inc)
	candidates := []string{first}
	if !c.isAbs(inc) {
		for _, d := range c.dirs {
			candidates = append(candidates, c.join(d, inc))
		}
	}
	var firstErr error
	for _, name := range candidates {
		if c.loaded[name] {
			return name, nil, nil
		}
		text, err := c.read(name)
		if err == nil {
			return name, text, nil
		}
		if firstErr == nil {
			firstErr = err
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return name, nil, err
		}
	}
	return first, nil, firstErr
}

func (c *loadConfig) isAbs(name string) bool {
	if c.slashed {
		return path.IsAbs(name)
	}
	return filepath.IsAbs(name)
}

func (c *loadConfig) join(dir, name string) string {
	if c.slashed {
		return strings.TrimPrefix(path.Join(dir, name), "/")
	}
	return filepath.Join(dir, name)
}

// resolve interprets an include path relative to the including file.
func (c *loadConfig) resolve(from, inc string) string {
	if c.slashed {
		if path.IsAbs(inc) {
			return strings.TrimPrefix(inc, "/")
		}
		return path.Join(path.Dir(from), inc)
	}
	if filepath.IsAbs(inc) {
		return inc
	}
	return filepath.Join(filepath.Dir(from), inc)
}

// clean puts a file name in the form resolve gives included files, so that
// an include cycle through the main file is found whatever its spelling.
func (c *loadConfig) clean(name string) string {
	if c.slashed {
		return path.Clean(name)
	}
	return filepath.Clean(name)
}
