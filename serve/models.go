package serve

import (
	"crypto/sha256"
	"fmt"
	"path"
	"regexp"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
)

// extraPrefix names the inputs of ModelSource.Extra: "input#1", ... as the
// REPL names the lines typed into it.
const extraPrefix = "input#"

// untickedFile names the generated input holding the .uncheck lines of
// ModelSource.Disabled.
const untickedFile = "unticked-axioms"

// compiled is a model ready to check tests, with what its cache entry
// depends on besides the request's own text.
type compiled struct {
	model *checker.Model
	// key identifies the model's content: its source and its includes.
	key string
	// includes are the digests of the included files as they were read,
	// so that a cache hit can tell whether an -include-dir file changed.
	includes map[string][sha256.Size]byte
}

var checkName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// validateModel checks a model source's fields before anything is parsed.
func validateModel(src ModelSource, what string) error {
	if src.Name == "" {
		return badRequest("%s: the model needs a name ending in .dl (such as spec.dl)", what)
	}
	if len(src.Name) > 256 || !strings.HasSuffix(src.Name, ".dl") || path.Clean(src.Name) != src.Name ||
		strings.HasPrefix(src.Name, "/") || strings.HasPrefix(src.Name, "../") || src.Name == ".." {
		return badRequest("%s: model name %q must be a clean relative path ending in .dl, such as spec.dl or variants/ptx-v6.0.dl", what, src.Name)
	}
	for _, c := range src.Disabled {
		if !checkName.MatchString(c) {
			return badRequest("%s: %q is not a check name", what, c)
		}
	}
	return nil
}

// modelKey is the content hash of a model source: everything the compiled
// model depends on except included files.
func modelKey(src ModelSource) string {
	h := sha256.New()
	field := func(s string) {
		fmt.Fprintf(h, "%d:", len(s))
		h.Write([]byte(s))
	}
	field(src.Name)
	field(src.Text)
	fmt.Fprintf(h, "extra%d", len(src.Extra))
	for _, e := range src.Extra {
		field(e)
	}
	disabled := normalizedDisabled(src.Disabled)
	fmt.Fprintf(h, "disabled%d", len(disabled))
	for _, d := range disabled {
		field(d)
	}
	return string(h.Sum(nil))
}

// withIncludes extends a model source's key with the digests of the files
// it included, so that results computed before an include changed are not
// taken for the model after the change.
func withIncludes(key string, includes map[string][sha256.Size]byte) string {
	names := make([]string, 0, len(includes))
	for n := range includes {
		names = append(names, n)
	}
	slices.Sort(names)
	h := sha256.New()
	h.Write([]byte(key))
	for _, n := range names {
		sum := includes[n]
		fmt.Fprintf(h, "%d:%s", len(n), n)
		h.Write(sum[:])
	}
	return string(h.Sum(nil))
}

func normalizedDisabled(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}

// model returns the compiled model of src, from the cache when its text and
// the files it includes are unchanged.
func (s *Server) model(src ModelSource) (*compiled, error) {
	key := modelKey(src)
	if c, ok := s.models.Get(key); ok && s.includesUnchanged(c) {
		return c, nil
	}
	c, err := s.compile(src, key)
	if err != nil {
		return nil, err
	}
	s.models.Set(key, c, 1)
	s.models.Wait()
	return c, nil
}

// includesUnchanged re-reads the files a cached model included.
func (s *Server) includesUnchanged(c *compiled) bool {
	for name, sum := range c.includes {
		data, err := s.includes.ReadFile(name)
		if err != nil || sha256.Sum256(data) != sum {
			return false
		}
	}
	return true
}

// compile parses, extends and compiles a model source. Includes are read
// only through the confined include file system.
func (s *Server) compile(src ModelSource, key string) (*compiled, error) {
	c := &compiled{key: key, includes: map[string][sha256.Size]byte{}}
	read := datalog.WithReader(func(name string) ([]byte, error) {
		data, err := s.includes.ReadFile(name)
		if err == nil {
			c.includes[name] = sha256.Sum256(data)
		}
		return data, err
	})
	prog, errs := datalog.LoadSource(src.Name, src.Text, read)
	if errs.HasErrors() {
		return nil, errs
	}
	for i, item := range src.Extra {
		name := fmt.Sprintf("%s%d", extraPrefix, i+1)
		if decls := implicitDecls(prog, item, read); decls != "" {
			// A separate input, so that positions in the item stay exact.
			if le := datalog.AddSource(prog, name+".decl", decls); le.HasErrors() {
				return nil, le
			}
		}
		if le := datalog.AddSource(prog, name, item, read); le.HasErrors() {
			return nil, le
		}
	}
	if disabled := normalizedDisabled(src.Disabled); len(disabled) > 0 {
		var b strings.Builder
		for _, d := range disabled {
			fmt.Fprintf(&b, ".uncheck %s\n", d)
		}
		if le := datalog.AddSource(prog, untickedFile, b.String()); le.HasErrors() {
			return nil, le
		}
	}
	m, err := checker.BuildModel(src.Name, prog, nil)
	if err != nil {
		return nil, err
	}
	c.model = m
	c.key = withIncludes(key, c.includes)
	return c, nil
}

// implicitDecls returns .decl lines for the heads of rules in text that
// the program does not declare, so that a rule can be added on its own, as
// in the REPL: "late(X) :- W(X), !IW(X)." The item's includes are read
// through read, like the model's.
func implicitDecls(prog *datalog.Program, text string, read datalog.Option) string {
	item, errs := datalog.LoadSource("input", text, read)
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
