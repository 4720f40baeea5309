package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// record writes herd7's results for the tests whose PTX file starts with
// one of prefixes, one file per group of models that give the same
// results, into out: cat's TestHerd7Recorded checks ptxmm against them.
// Each log is named MODEL.herd.log (run.sh's names).
func record(portsPath, out string, prefixes []string, logs []string) error {
	data, err := os.ReadFile(portsPath)
	if err != nil {
		return err
	}
	type test struct{ name, path string }
	var tests []test
	for _, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		cols := strings.Split(line, "\t")
		if len(cols) != 3 {
			return fmt.Errorf("%s: bad line %q", portsPath, line)
		}
		for _, p := range prefixes {
			if strings.HasPrefix(cols[1], p) {
				name := strings.TrimSuffix(filepath.Base(cols[0]), ".litmus")
				tests = append(tests, test{name, cols[1]})
				break
			}
		}
	}
	sort.Slice(tests, func(i, j int) bool { return tests[i].path < tests[j].path })
	groups := map[string][]string{} // body -> models
	for _, lg := range logs {
		model := strings.TrimSuffix(filepath.Base(lg), ".herd.log") + ".cat"
		res, err := readLog(lg, nil)
		if err != nil {
			return err
		}
		var b strings.Builder
		missing := 0
		for _, tc := range tests {
			r := res[tc.name]
			if r == nil {
				missing++
				continue
			}
			fmt.Fprintf(&b, "%s\t%s\t%s\n", tc.path, r.verdict, strings.Join(r.states, " | "))
		}
		if missing == len(tests) {
			fmt.Printf("%s: herd7 gave no result (see its .herd.err); not recorded\n", model)
			continue
		}
		if missing > 0 {
			return fmt.Errorf("%s: %d tests missing from the log", lg, missing)
		}
		groups[b.String()] = append(groups[b.String()], model)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for body, models := range groups {
		sort.Strings(models)
		head := "# herd7's results (herdtools7 7.57, built from source) for these models of its library, on the\n" +
			"# LISA ports of the tests (cat/testdata/herdcompare): test, validation, final states.\n" +
			"models " + strings.Join(models, " ") + "\n"
		name := filepath.Join(out, strings.TrimSuffix(models[0], ".cat")+".txt")
		if err := os.WriteFile(name, []byte(head+body), 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("%d tests, %d models in %d groups written to %s\n", len(tests), len(logs), len(groups), out)
	return nil
}
