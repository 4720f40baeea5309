package main

import (
	"flag"
	"fmt"
	"io"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/cli"
	"github.com/ptxmm/ptxmm/limits"
)

// herdFlags are herd7's command-line options that ptxmm check takes, with
// herd's meaning.
type herdFlags struct {
	show       string
	outDir     string
	nshow      int
	through    string
	skip       modelList
	strict     bool
	speedcheck string
	candidates bool
	kinds      string
}

func addHerdFlags(fs *flag.FlagSet) *herdFlags {
	h := &herdFlags{}
	fs.StringVar(&h.show, "show", "none", "executions to draw with -o, herd7's `prop|neg|cond|wit|all|none`")
	fs.StringVar(&h.outDir, "o", "", "write one DOT file per test, NAME.dot, into `DIR` (herd7's -o)")
	fs.IntVar(&h.nshow, "nshow", 0, "draw at most `N` executions per test (herd7's -nshow; 0: all)")
	fs.StringVar(&h.through, "through", "none", "let executions the checks reject through: herd7's `all|invalid|none`")
	fs.Var(&h.skip, "skipchecks", "do not apply the checks `NAME,...` (herd7's -skipchecks; repeatable)")
	fs.BoolVar(&h.strict, "strictskip", false, "keep only the executions that fail every -skipchecks check (herd7's -strictskip)")
	fs.StringVar(&h.speedcheck, "speedcheck", "false", "herd7's `false|true|fast`: true checks only the executions that may decide the condition, fast also stops at the first that does")
	fs.BoolVar(&h.candidates, "candidates", false, "print Candidates NAME n, the candidate executions checked (herd7's -candidates)")
	fs.StringVar(&h.kinds, "kinds", "", "compare with the expected kinds of `FILE` (NAME Allowed|Forbidden|Required per line)")
	return h
}

// apply turns the herd flags into the check's configuration and the model
// adjustments they ask for.
func (h *herdFlags) apply(cfg *cli.CheckConfig) (checker.Adjustments, error) {
	var adj checker.Adjustments
	mode, err := cli.ParseShow(h.show)
	if err != nil {
		return adj, err
	}
	if mode != cli.ShowNone && h.outDir == "" {
		return adj, fmt.Errorf("-show %s: pictures go to files: give -o DIR", h.show)
	}
	if h.outDir != "" && mode == cli.ShowNone {
		return adj, fmt.Errorf("-o %s: say which executions to draw with -show prop, neg, cond, wit or all", h.outDir)
	}
	if h.nshow < 0 {
		return adj, fmt.Errorf("-nshow %d: expected a number of pictures from 0", h.nshow)
	}
	cfg.Pictures = cli.Pictures{Mode: mode, Dir: h.outDir, Max: h.nshow}
	if adj.Through, err = checker.ParseThrough(h.through); err != nil {
		return adj, err
	}
	for _, list := range h.skip {
		for _, name := range strings.Split(list, ",") {
			if name = strings.TrimSpace(name); name != "" {
				adj.Skip = append(adj.Skip, name)
			}
		}
	}
	adj.Strict = h.strict
	if h.strict && len(adj.Skip) == 0 {
		return adj, fmt.Errorf("-strictskip: name the checks to skip with -skipchecks")
	}
	switch strings.ToLower(h.speedcheck) {
	case "false":
	case "true":
		cfg.Options.OnlyDeciding = true
		cfg.Log.Speedcheck = true
	case "fast":
		cfg.Options.OnlyDeciding, cfg.Options.StopAtWitness = true, true
		cfg.Log.Speedcheck = true
	default:
		return adj, fmt.Errorf("-speedcheck %s: expected false, true or fast", h.speedcheck)
	}
	cfg.Log.Candidates = h.candidates
	cfg.Kinds = h.kinds
	return adj, nil
}

// herdOnlyKeys are herd7 configuration keys about its pictures and its
// runs that have no counterpart in ptxmm: a -conf file may hold them, and
// they draw a warning.
var herdOnlyKeys = map[string]bool{
	"graph": true, "squished": true, "showevents": true, "movelabel": true, "fontsize": true,
	"xscale": true, "yscale": true, "arrowsize": true, "splines": true, "pad": true, "doshow": true,
	"unshow": true, "edgeattr": true, "withbox": true, "labelbox": true, "showthread": true,
	"showlegend": true, "showinitwrites": true, "showinitrf": true, "showfinalrf": true, "showpo": true,
	"mono": true, "scale": true, "dotmode": true, "dotcom": true, "view": true, "gv": true, "evince": true,
	"showkind": true, "shortlegend": true, "texmacros": true, "hexa": true, "variant": true,
	"machsize": true, "endian": true, "verbose": true, "suffix": true, "names": true, "excl": true,
	"oknames": true, "nonames": true, "rename": true, "conds": true, "badexecs": true, "badflag": true,
	"optace": true, "initwrites": true, "showraw": true, "showflag": true, "dumpes": true,
}

// herdKeyAliases are herd7 configuration keys under ptxmm's flag names.
var herdKeyAliases = map[string]string{"cat": "model", "include": "I"}

// expandHerdArgs rewrites herd7's habits into flags fs parses: each
// -conf FILE becomes the options the file lists, at its place (so later
// options override it, as in herd7), and a boolean flag followed by true or
// false (herd7's -candidates true) takes that value.
func expandHerdArgs(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		name := strings.TrimLeft(a, "-")
		if strings.HasPrefix(a, "-") && (name == "conf" || strings.HasPrefix(name, "conf=")) {
			file, ok := strings.CutPrefix(name, "conf=")
			if !ok {
				if i+1 == len(args) {
					return nil, fmt.Errorf("-conf: name the configuration file")
				}
				i++
				file = args[i]
			}
			opts, err := readConf(fs, file, nil, stderr)
			if err != nil {
				return nil, err
			}
			out = append(out, opts...)
			continue
		}
		if strings.HasPrefix(a, "-") && !strings.Contains(name, "=") && isBoolFlag(fs, name) && i+1 < len(args) &&
			(args[i+1] == "true" || args[i+1] == "false") {
			out = append(out, a+"="+args[i+1])
			i++
			continue
		}
		out = append(out, a)
	}
	return out, nil
}

func isBoolFlag(fs *flag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// readConf reads a herd7 configuration file: one option per line, "key
// value" (herd7 writes keys without the dash; a dash is accepted), blank
// lines and # comments skipped; "conf FILE" reads another file.
func readConf(fs *flag.FlagSet, file string, stack []string, stderr io.Writer) ([]string, error) {
	for _, s := range stack {
		if s == file {
			return nil, fmt.Errorf("-conf %s: the configuration includes itself (%s -> %s)", file, strings.Join(stack, " -> "), file)
		}
	}
	data, err := limits.ConfFile.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("-conf: cannot read %s: %w", file, err)
	}
	stack = append(stack, file)
	var out []string
	for n, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		key, value, _ := strings.Cut(line, " ")
		key, value = strings.TrimLeft(key, "-"), strings.TrimSpace(value)
		if alias, ok := herdKeyAliases[key]; ok {
			key = alias
		}
		switch {
		case key == "conf":
			more, err := readConf(fs, value, stack, stderr)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
		case fs.Lookup(key) != nil:
			if isBoolFlag(fs, key) && value != "" {
				out = append(out, "-"+key+"="+value)
			} else if isBoolFlag(fs, key) {
				out = append(out, "-"+key)
			} else {
				out = append(out, "-"+key, value)
			}
		case herdOnlyKeys[key]:
			fmt.Fprintf(stderr, "%s:%d:1: warning: herd7's %s has no counterpart in ptxmm; ignored\n", file, n+1, key)
		default:
			return nil, fmt.Errorf("%s:%d:1: unknown option %s for ptxmm %s", file, n+1, key, fs.Name())
		}
	}
	return out, nil
}
