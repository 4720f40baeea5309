package datalog

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/source"
)

// writeFiles creates files (name -> text) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		require.NoError(t, os.MkdirAll(filepath.Dir(p), 0o755))
		require.NoError(t, os.WriteFile(p, []byte(text), 0o644))
	}
}

func TestLoadIncludesFromDisk(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"main.dl":         ".include \"lib/events.dl\"\n.decl m(a)\n.input m\n.output m\n",
		"lib/events.dl":   ".decl e(a)\n.include \"../shared.dl\"\n.include \"deeper/x.dl\"\n",
		"shared.dl":       ".decl s(a)\n",
		"lib/deeper/x.dl": ".decl x(a)\n",
	})
	main := filepath.Join(dir, "main.dl")
	prog, errs := Load(main)
	require.Empty(t, errs, "%s", errs.Quoted())
	assert.Equal(t, []string{
		main,
		filepath.Join(dir, "lib", "events.dl"),
		filepath.Join(dir, "shared.dl"),
		filepath.Join(dir, "lib", "deeper", "x.dl"),
	}, prog.Files)
	var names []string
	for _, d := range prog.Decls {
		names = append(names, d.Name+"@"+filepath.Base(d.Pos.File))
	}
	assert.Equal(t, []string{"e@events.dl", "s@shared.dl", "x@x.dl", "m@main.dl"}, names,
		"an included file's items come where its .include is")
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a.dl":    ".include \"b.dl\"\n.decl a(x)\n",
		"b.dl":    "\n.include \"a.dl\"\n",
		"self.dl": ".include \"self.dl\"\n",
		"miss.dl": ".decl p(a)\n  .include \"gone.dl\"\n",
		"bad.dl":  ".include \"broken.dl\"\n.decl ok(a)\n",
		"broken.dl": ".decl p(\n" +
			"p(1).\n",
	})
	in := func(name string) string { return filepath.Join(dir, name) }

	_, errs := Load(in("nothing.dl"))
	assert.Equal(t, []string{in("nothing.dl") + ": cannot read model: no such file"}, diagLines(errs))

	_, errs = Load(in("a.dl"))
	assert.Equal(t, []string{
		in("b.dl") + ":2:10: include cycle: " + in("a.dl") + " -> " + in("b.dl") + " -> " + in("a.dl"),
	}, diagLines(errs))

	// The main file's spelling does not hide a cycle through it.
	wd, err := os.Getwd()
	require.NoError(t, err)
	require.NoError(t, os.Chdir(dir))
	defer func() { require.NoError(t, os.Chdir(wd)) }()
	_, errs = Load("./a.dl")
	assert.Equal(t, []string{"b.dl:2:10: include cycle: a.dl -> b.dl -> a.dl"}, diagLines(errs))

	_, errs = Load("self.dl")
	assert.Equal(t, []string{"self.dl:1:10: include cycle: self.dl -> self.dl"}, diagLines(errs))

	_, errs = Load("miss.dl")
	assert.Equal(t, []string{`miss.dl:2:12: cannot include "gone.dl": no such file`}, diagLines(errs))
	assert.Equal(t, `miss.dl:2:12: cannot include "gone.dl": no such file
      .include "gone.dl"
               ^`, errs.Quoted())

	// Errors in an included file are reported at its own positions, with
	// its own lines quoted.
	_, errs = Load("bad.dl")
	require.Len(t, errs, 1)
	assert.Equal(t, `broken.dl:2:2: expected "," or ")" in .decl p, found "("`, errs[0].Error())
	assert.Equal(t, "p(1).", errs[0].Line)
}

func TestLoadDiamondIncludes(t *testing.T) {
	// A file is read once: the second include of common.dl is skipped.
	fsys := fstest.MapFS{
		"main.dl":   {Data: []byte(".include \"left.dl\"\n.include \"right.dl\"\n")},
		"left.dl":   {Data: []byte(".include \"common.dl\"\n")},
		"right.dl":  {Data: []byte(".include \"common.dl\"\n")},
		"common.dl": {Data: []byte(".decl e(a)\n.input e\n")},
	}
	prog, errs := Load("main.dl", WithFS(fsys))
	require.Empty(t, errs)
	assert.Equal(t, []string{"main.dl", "left.dl", "common.dl", "right.dl"}, prog.Files)
	_, errs = Analyze(prog)
	assert.Empty(t, errs.Errors())
}

func TestLoadWithFS(t *testing.T) {
	fsys := fstest.MapFS{
		"models/main.dl":    {Data: []byte(".include \"lib/a.dl\"\n.include \"/top.dl\"\n")},
		"models/lib/a.dl":   {Data: []byte(".decl a(x)\n.include \"../../top2.dl\"\n")},
		"top.dl":            {Data: []byte(".decl top(x)\n")},
		"top2.dl":           {Data: []byte(".decl top2(x)\n")},
		"models/escape.dl":  {Data: []byte(".include \"../../../x.dl\"\n")},
		"models/missing.dl": {Data: []byte(".include \"nope.dl\"\n")},
	}
	prog, errs := Load("models/main.dl", WithFS(fsys))
	require.Empty(t, errs, "%s", errs.Quoted())
	assert.Equal(t, []string{"models/main.dl", "models/lib/a.dl", "top2.dl", "top.dl"}, prog.Files,
		"paths are slash-separated and relative to the including file; a leading / means the root of the FS")

	_, errs = Load("models/missing.dl", WithFS(fsys))
	assert.Equal(t, []string{`models/missing.dl:1:10: cannot include "nope.dl": no such file`}, diagLines(errs))

	_, errs = Load("models/escape.dl", WithFS(fsys))
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Error(), `models/escape.dl:1:10: cannot include "../../../x.dl": `)
}

func TestLoadSourceAndReader(t *testing.T) {
	calls := map[string]int{}
	read := func(name string) ([]byte, error) {
		calls[name]++
		if name == filepath.Join("dir", "inc.dl") {
			return []byte(".decl inc(a)\n"), nil
		}
		return nil, errors.New("permission denied")
	}
	prog, errs := LoadSource(filepath.Join("dir", "main.dl"), ".include \"inc.dl\"\n.include \"locked.dl\"\n.decl m(a)", WithReader(read))
	assert.Equal(t, []string{filepath.Join("dir", "main.dl") + `:2:10: cannot include "locked.dl": permission denied`}, diagLines(errs))
	assert.Equal(t, 1, calls[filepath.Join("dir", "inc.dl")])
	require.Len(t, prog.Decls, 2)
	assert.Equal(t, "inc", prog.Decls[0].Name)
	assert.Equal(t, "m", prog.Decls[1].Name)
}

func TestAddSource(t *testing.T) {
	prog := parseOK(t, ".decl e(a, b)\ne(1, 2).")
	errs := AddSource(prog, "<repl>", "let r = e+")
	require.Empty(t, errs)
	errs = AddSource(prog, "<repl>", "?- r(1, X).")
	require.Empty(t, errs)
	errs = AddSource(prog, "<repl>", "?- r(1, X")
	assert.Equal(t, []string{`<repl>:1:10: expected "," or ")" in the arguments of r, found end of file`}, diagLines(errs))
	assert.Equal(t, []string{"t.dl", "<repl>", "<repl>", "<repl>"}, prog.Files)
	require.Len(t, prog.Defs, 1)
	require.Len(t, prog.Queries, 1)
	m, errs := Analyze(prog)
	require.Empty(t, errs.Errors())
	assert.Equal(t, 2, m.Relation("r").Arity)

	// Lines of a reused file name are ambiguous and not quoted.
	_ = AddSource(prog, "<repl>", "?- nothing(X).")
	_, errs = Analyze(prog)
	require.Len(t, errs, 1)
	assert.Equal(t, "<repl>:1:4: unknown relation nothing", errs.Quoted())
}

func TestQuoted(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string
	}{
		{"caret under the column", ".decl p(a)\np(X) :- q(X).",
			"t.dl:2:9: unknown relation q\n" +
				"    p(X) :- q(X).\n" +
				"            ^"},
		{"first column", "?? p.",
			"t.dl:1:1: expected a rule, a fact, a definition (let), a query (?-) or a directive (.decl, .input, .check, ...), found \"?\"\n" +
				"    ?? p.\n" +
				"    ^"},
		{"tabs become spaces", "\t\t.decl p(a: text)",
			"t.dl:1:14: unknown type \"text\": expected symbol, number or event\n" +
				"      .decl p(a: text)\n" +
				"                 ^"},
		{"end of file", ".decl p(a",
			"t.dl:1:10: expected \",\" or \")\" in .decl p, found end of file\n" +
				"    .decl p(a\n" +
				"             ^"},
		{"an empty line is not quoted", ".decl p(a\n",
			"t.dl:2:1: expected \",\" or \")\" in .decl p, found end of file"},
		{"carriage returns are dropped", ".decl p(a)\r\np(X) :- q(X).\r\n",
			"t.dl:2:9: unknown relation q\n" +
				"    p(X) :- q(X).\n" +
				"            ^"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs := analyze(tt.src)
			require.NotEmpty(t, errs)
			assert.Equal(t, tt.want, errs[0].Quoted())
		})
	}

	// A diagnostic without a known line prints on one line.
	e := &source.Error{Pos: source.Pos{File: "x.dl", Line: 3, Col: 2}, Msg: "m"}
	assert.Equal(t, "x.dl:3:2: m", e.Quoted())
}

func TestProgramAttachLines(t *testing.T) {
	// A host (such as the rules package) reports later diagnostics at
	// program positions; the program quotes them.
	prog := parseOK(t, ".decl p(a)\np(1).\n.output p")
	var l source.List
	l.Add(source.Pos{File: "t.dl", Line: 2, Col: 1}, "a later problem")
	l.Add(source.Pos{File: "other.dl", Line: 1, Col: 1}, "not in the program")
	prog.AttachLines(l)
	assert.Equal(t, "t.dl:2:1: a later problem\n    p(1).\n    ^\nother.dl:1:1: not in the program", l.Quoted())
}

// An include not next to the including file is searched in the include
// folders, in order; the including file's folder comes first, and an
// include found nowhere names the path next to the including file.
func TestLoadIncludeDirs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"model/main.dl":    ".include \"base.dl\"\n.include \"near.dl\"\n",
		"model/near.dl":    ".decl near(a)\n",
		"first/near.dl":    ".decl shadowed(a)\n",
		"first/base.dl":    ".decl base(a)\n.include \"common.dl\"\n",
		"second/base.dl":   ".decl other(a)\n",
		"second/common.dl": ".decl common(a)\n",
		"model/missing.dl": ".include \"nowhere.dl\"\n",
		"fs/variants/v.dl": ".include \"spec.dl\"\n",
		"fs/lib/spec.dl":   ".decl spec(a)\n",
	})
	prog, errs := Load(filepath.Join(dir, "model", "main.dl"),
		WithIncludeDirs(filepath.Join(dir, "first"), filepath.Join(dir, "second")))
	require.Empty(t, errs, "%s", errs.Quoted())
	var names []string
	for _, d := range prog.Decls {
		names = append(names, d.Name)
	}
	assert.Equal(t, []string{"base", "common", "near"}, names)

	_, errs = Load(filepath.Join(dir, "model", "missing.dl"), WithIncludeDirs(filepath.Join(dir, "first")))
	require.True(t, errs.HasErrors())
	assert.Contains(t, errs.Error(), `cannot include "nowhere.dl": no such file`)

	// In a file system the folders are slash-separated names in it.
	fsys := os.DirFS(filepath.Join(dir, "fs"))
	prog, errs = Load("variants/v.dl", WithFS(fsys), WithIncludeDirs("lib"))
	require.Empty(t, errs, "%s", errs.Quoted())
	assert.Equal(t, []string{"variants/v.dl", "lib/spec.dl"}, prog.Files)
}
