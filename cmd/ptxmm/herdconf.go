package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/ptxmm/ptxmm/limits"
)

// herdKeyAliases are herd7 configuration keys under ptxmm's flag names.
var herdKeyAliases = map[string]string{"include": "I", "verbose": "v"}

// argExpander rewrites herd7's command-line habits into flags a FlagSet
// parses: -conf FILE (and -web, -c11) become the options the file lists,
// at their place, so later options override them, as in herd7; a refused
// option stops with what to use instead; a boolean flag followed by true
// or false (herd7's -candidates true) takes that value. It tracks -I and
// -set-libdir, which say where configuration files are found.
type argExpander struct {
	fs       *flag.FlagSet
	stderr   io.Writer
	includes []string
	libDir   string
}

// expandHerdArgs expands args for fs (see argExpander).
func expandHerdArgs(fs *flag.FlagSet, args []string, stderr io.Writer) ([]string, error) {
	x := &argExpander{fs: fs, stderr: stderr}
	return x.expand(args)
}

func (x *argExpander) expand(args []string) ([]string, error) {
	var out []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return append(out, args[i:]...), nil
		}
		if !strings.HasPrefix(a, "-") || a == "-" {
			out = append(out, a)
			continue
		}
		name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		takeValue := func() (string, error) {
			if hasValue {
				return value, nil
			}
			if i+1 == len(args) {
				return "", fmt.Errorf("-%s: expected a value after it", name)
			}
			i++
			return args[i], nil
		}
		switch name {
		case "conf", "web", "c11":
			file := map[string]string{"web": "web.cfg", "c11": "cpp11.cfg"}[name]
			if name == "conf" {
				v, err := takeValue()
				if err != nil {
					return nil, fmt.Errorf("-conf: name the configuration file")
				}
				file = v
			}
			opts, err := x.readConf(x.findConf(file), nil)
			if err != nil {
				return nil, err
			}
			out = append(out, opts...)
			continue
		case "I":
			if v, err := takeValue(); err == nil {
				x.includes = append(x.includes, v)
				out = append(out, "-I", v)
				continue
			}
		case "set-libdir":
			if v, err := takeValue(); err == nil {
				x.libDir = v
				out = append(out, "-set-libdir", v)
				continue
			}
		case "o":
			v, err := takeValue()
			if err != nil {
				return nil, err
			}
			if v == "-" {
				return nil, fmt.Errorf("-o -: ptxmm writes pictures to files: use -o DIR (NAME.dot per test), or ptxmm graph TEST for one execution's DOT on standard output")
			}
			out = append(out, "-o", v)
			continue
		}
		if o, ok := lookupHerdOption(name); ok && o.Refused {
			arg := ""
			if o.Arg != "" {
				v, err := takeValue()
				if err != nil {
					return nil, refusal(name, "")
				}
				arg = v
			}
			if err := refusal(name, arg); err != nil {
				return nil, err
			}
			continue // an argument ptxmm follows anyway
		}
		if !hasValue && isBoolFlag(x.fs, name) && i+1 < len(args) && (args[i+1] == "true" || args[i+1] == "false") {
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

// findConf finds a configuration file as herd7 does: a name with a folder
// as it is; a plain name in the working folder, then in the -I folders,
// $HERDLIB and the library folder (given so far).
func (x *argExpander) findConf(name string) string {
	if strings.ContainsRune(name, filepath.Separator) || strings.ContainsRune(name, '/') {
		return name
	}
	dirs := append(append([]string{"."}, x.includes...), os.Getenv("HERDLIB"), x.libDir)
	for _, d := range dirs {
		if d == "" {
			continue
		}
		p := filepath.Join(d, name)
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return name
}

// readConf reads a herd7 configuration file: one option per line, "key
// value" (herd7 writes keys without the dash; a dash is accepted), blank
// lines and # comments skipped; "conf FILE" reads another file found as
// herd7 finds it, "local-conf FILE" one next to this one.
func (x *argExpander) readConf(file string, stack []string) ([]string, error) {
	for _, s := range stack {
		if s == file {
			return nil, fmt.Errorf("-conf %s: the configuration includes itself (%s -> %s)", file, strings.Join(stack, " -> "), file)
		}
	}
	data, err := limits.ConfFile.ReadFile(file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("-conf: cannot read %s: no such file (a plain name is also searched for in the -I folders, $HERDLIB and -set-libdir)", file)
		}
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
		at := func(err error) error { return fmt.Errorf("%s:%d:1: %v", file, n+1, err) }
		switch {
		case key == "conf" || key == "local-conf":
			inner := x.findConf(value)
			if key == "local-conf" {
				inner = filepath.Join(filepath.Dir(file), value)
			}
			more, err := x.readConf(inner, stack)
			if err != nil {
				return nil, err
			}
			out = append(out, more...)
		case key == "v":
			// herd7's "verbose N".
			for k := 0; k < atoiOr(value, 1); k++ {
				out = append(out, "-v")
			}
		case key == "I":
			x.includes = append(x.includes, value)
			out = append(out, "-I", value)
		case isRefused(key):
			if err := refusal(key, value); err != nil {
				return nil, at(err)
			}
		case x.fs.Lookup(key) != nil && value == "none" && !isBoolFlag(x.fs, key):
			// herd7's "none" unsets an optional value: no time limit, or
			// the option's default.
			if key == "timeout" {
				out = append(out, "-timeout", "0")
			}
		case x.fs.Lookup(key) != nil:
			if isBoolFlag(x.fs, key) && value != "" {
				out = append(out, "-"+key+"="+value)
			} else if isBoolFlag(x.fs, key) {
				out = append(out, "-"+key)
			} else {
				out = append(out, "-"+key, value)
			}
		default:
			return nil, at(fmt.Errorf("unknown option %s for ptxmm %s", key, x.fs.Name()))
		}
	}
	return out, nil
}

func isRefused(name string) bool {
	o, ok := lookupHerdOption(name)
	return ok && o.Refused
}

func atoiOr(s string, def int) int {
	n := 0
	if _, err := fmt.Sscanf(s, "%d", &n); err != nil {
		return def
	}
	return n
}
