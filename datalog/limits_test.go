package datalog

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/source"
)

// TestIncludeDepthIsBounded: a chain of includes deeper than
// MaxIncludeDepth stops at the limit with one error at the include that
// crosses it. A 20,000-deep chain took 13 s and 3 GB before the limit.
func TestIncludeDepthIsBounded(t *testing.T) {
	files := map[string]string{}
	const chain = 20_000
	for i := 0; i < chain; i++ {
		files[fmt.Sprintf("f%d.dl", i)] = fmt.Sprintf(".include \"f%d.dl\"\n", i+1)
	}
	files[fmt.Sprintf("f%d.dl", chain)] = ".decl p(a: number)\n"
	read := 0
	reader := WithReader(func(name string) ([]byte, error) {
		read++
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	})
	prog, errs := Load("f0.dl", reader)
	require.Len(t, errs, 1, "%s", errs.Quoted())
	e := errs[0]
	assert.Equal(t, fmt.Sprintf("f%d.dl", MaxIncludeDepth-1), e.Pos.File)
	assert.Equal(t, 1, e.Pos.Line)
	assert.Contains(t, e.Msg, fmt.Sprintf("includes nested more than %d deep (f0.dl -> ... -> f%d.dl)", MaxIncludeDepth, MaxIncludeDepth-1))
	assert.Equal(t, MaxIncludeDepth, read, "files read")
	assert.Len(t, prog.Files, MaxIncludeDepth)

	// Exactly at the limit, the chain loads.
	files[fmt.Sprintf("f%d.dl", MaxIncludeDepth-1)] = ".decl p(a: number)\n"
	_, errs = Load("f0.dl", reader)
	assert.Empty(t, errs, "%s", errs.Quoted())
}

// TestModelFilesMustBeRegularAndSmall: devices, pipes and directories are
// refused without reading them (".include \"/dev/zero\"" read until the
// machine ran out of memory), and so are files over MaxFileBytes.
func TestModelFilesMustBeRegularAndSmall(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.dl")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(MaxFileBytes+1))
	require.NoError(t, f.Close())
	fifo := filepath.Join(dir, "pipe.dl")
	require.NoError(t, syscall.Mkfifo(fifo, 0o644))
	require.NoError(t, os.Symlink(filepath.Join(dir, "ok.dl"), filepath.Join(dir, "link.dl")))
	writeFiles(t, dir, map[string]string{"ok.dl": ".decl p(a: number)\n"})

	cases := []struct {
		include, want string
	}{
		{"/dev/zero", "a device, not a regular file"},
		{"pipe.dl", "a named pipe, not a regular file"},
		{".", "a directory, not a file"},
		{"big.dl", "the file has 8.00 MiB, more than the 8.00 MiB a model file may have"},
		{"link.dl", ""},
	}
	for _, c := range cases {
		main := filepath.Join(dir, "main.dl")
		writeFiles(t, dir, map[string]string{"main.dl": fmt.Sprintf(".include %q\n", c.include)})
		_, errs := Load(main)
		if c.want == "" {
			assert.Empty(t, errs, "%s: %s", c.include, errs.Quoted())
			continue
		}
		require.Len(t, errs, 1, c.include)
		assert.Contains(t, errs[0].Msg, c.want, c.include)
		assert.Equal(t, 1, errs[0].Pos.Line, c.include)
	}
	_, errs := Load("/dev/zero")
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Msg, "cannot read model: a device, not a regular file")

	// A reader given by the host is held to the size too.
	huge := strings.Repeat(" ", MaxFileBytes+1)
	_, errs = Load("m.dl", WithReader(func(string) ([]byte, error) { return []byte(huge), nil }))
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Msg, "more than the 8.00 MiB")
}

// TestExpressionSizeIsBounded: every pass over an expression recurses as
// deep as it is, so its operators and nesting are bounded.
func TestExpressionSizeIsBounded(t *testing.T) {
	cases := []struct {
		name, expr, want string
	}{
		{"union chain", strings.Repeat("po | ", MaxExprOperators+1) + "po", fmt.Sprintf("expression with more than %d operators", MaxExprOperators)},
		{"complements", strings.Repeat("~", MaxExprOperators+1) + "po", fmt.Sprintf("expression with more than %d operators", MaxExprOperators)},
		{"parentheses", strings.Repeat("(", MaxExprNesting+1) + "po" + strings.Repeat(")", MaxExprNesting+1), fmt.Sprintf("nested more than %d deep", MaxExprNesting)},
		{"at the limits", strings.Repeat("po | ", MaxExprOperators-1) + strings.Repeat("(", MaxExprNesting-1) + "po" + strings.Repeat(")", MaxExprNesting-1), ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			src := ".decl po(a: event, b: event)\n.input po\nlet r = " + c.expr + "\n.output r\n"
			_, errs := LoadSource("m.dl", src)
			if c.want == "" {
				require.Empty(t, errs)
				return
			}
			require.Len(t, errs, 1)
			assert.Contains(t, errs[0].Msg, c.want)
			assert.Equal(t, 3, errs[0].Pos.Line)
		})
	}
}

// TestManyErrorsEnd: a text of many bad items ends with "too many errors"
// instead of looping: the parser tells a failed item by the error it adds,
// which a full list no longer takes (a fuzzed request hung the server so).
func TestManyErrorsEnd(t *testing.T) {
	for _, text := range []string{
		"\x1a\ufffdXi\x19\ufffd\ufffdo\ufffdM\ufffd\x16\ufffd\ufffd\ufffd!~\ufffd\ufffd\x0f8\ufffd\ufffd\ufffd\ufffd\ufffd\x13",
		strings.Repeat(") ", 1000),
		strings.Repeat("p(X) :- , .\n", 1000),
	} {
		done := make(chan source.List, 1)
		go func() {
			_, errs := LoadSource("b.dl", text)
			done <- errs
		}()
		select {
		case errs := <-done:
			require.True(t, errs.HasErrors())
			assert.LessOrEqual(t, len(errs.Errors()), source.MaxErrors+1)
		case <-time.After(10 * time.Second):
			t.Fatalf("%q: the load did not end", text[:min(len(text), 20)])
		}
	}
}
