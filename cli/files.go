package cli

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// collectTests expands the arguments into litmus files: files as given, and
// for directories every .litmus and .test file below them, sorted.
func collectTests(args []string) ([]string, error) {
	var out []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil {
			return nil, fmt.Errorf("cannot read %s: %w", a, err)
		}
		if !info.IsDir() {
			out = append(out, a)
			continue
		}
		var found []string
		err = filepath.WalkDir(a, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".litmus") || strings.HasSuffix(p, ".test")) {
				found = append(found, p)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("cannot read directory %s: %w", a, err)
		}
		if len(found) == 0 {
			return nil, fmt.Errorf("%s holds no .litmus or .test files", a)
		}
		sort.Strings(found)
		out = append(out, found...)
	}
	return out, nil
}
