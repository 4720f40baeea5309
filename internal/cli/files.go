package cli

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/limits"
)

// collectTests expands the arguments into litmus files: files as given,
// for directories every .litmus and .test file below them, sorted, and for
// lists of tests (see readList) the tests they name.
//
// A symbolic link named on the command line is followed, to a file or to
// a folder. Inside a folder, links to files are checked like files, and
// links to folders are not followed (so that a link cannot make the walk
// loop); each one skipped is named on stderr. Anything that is not a
// regular file (a device, a pipe) is an error: reading it may never end.
func collectTests(args []string, stderr io.Writer) ([]string, error) {
	var out []string
	for _, a := range args {
		if list, ok := listFile(a); ok {
			files, err := readList(list, nil)
			if err != nil {
				return nil, err
			}
			more, err := collectTests(files, stderr)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
			continue
		}
		info, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", a, err)
		}
		if !info.IsDir() {
			if !info.Mode().IsRegular() {
				return nil, fmt.Errorf("%s is not a regular file (a device, pipe or socket); name .litmus or .test files, or folders", a)
			}
			out = append(out, a)
			continue
		}
		found, err := walkTests(a, stderr)
		if err != nil {
			return nil, err
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s holds no .litmus or .test files", a)
		}
		out = append(out, found...)
	}
	return out, nil
}

// listFile tells whether an argument names a list of tests, as herd7 reads
// them: a file whose name starts with @ (tests/@all), or @FILE for a list
// in FILE. It returns the list's path.
func listFile(arg string) (string, bool) {
	if strings.HasPrefix(filepath.Base(arg), "@") {
		if _, err := os.Stat(arg); err == nil {
			return arg, true
		}
	}
	if rest, ok := strings.CutPrefix(arg, "@"); ok && rest != "" {
		return rest, true
	}
	return "", false
}

// readList reads a list of tests: one path per line, relative to the list's
// directory, blank lines and lines starting with # skipped; a line naming
// another list is read in turn. stack holds the lists being read, to
// report a list that includes itself.
func readList(path string, stack []string) ([]string, error) {
	for _, s := range stack {
		if s == filepath.Clean(path) {
			return nil, fmt.Errorf("list of tests %s includes itself: %s -> %s", path, strings.Join(stack, " -> "), path)
		}
	}
	data, err := limits.ListFile.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read list of tests: %w", err)
	}
	stack = append(stack, filepath.Clean(path))
	dir := filepath.Dir(path)
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name := line
		if !filepath.IsAbs(name) {
			name = filepath.Join(dir, name)
		}
		if strings.HasPrefix(filepath.Base(name), "@") {
			more, err := readList(name, stack)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
			continue
		}
		out = append(out, name)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("list of tests %s names no test", path)
	}
	return out, nil
}

// walkTests lists the test files below dir, sorted, named with dir as the
// user wrote it even when dir is a link.
func walkTests(dir string, stderr io.Writer) ([]string, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read directory %s: %w", dir, err)
	}
	var found []string
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")) && d.Type()&fs.ModeSymlink == 0 {
			return nil
		}
		name := p
		if root != dir {
			rel, err := filepath.Rel(root, p)
			if err != nil {
				return err
			}
			name = filepath.Join(dir, rel)
		}
		if d.Type().IsRegular() {
			// The folder's entry says what the file is: a test file
			// (the suffix is checked above) needs no look of its own.
			found = append(found, name)
			return nil
		}
		info, err := os.Stat(p)
		if err != nil {
			return fmt.Errorf("cannot read %s: %w", name, err)
		}
		switch {
		case info.IsDir():
			fmt.Fprintf(stderr, "ptxmm: warning: not following %s, a link to a folder (links inside folders are not followed; name the folder on the command line)\n", name)
		case !(strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")):
		case !info.Mode().IsRegular():
			return fmt.Errorf("%s is not a regular file (a device, pipe or socket)", name)
		default:
			found = append(found, name)
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("cannot read directory %s: %w", dir, err)
	}
	sort.Strings(found)
	return found, nil
}
