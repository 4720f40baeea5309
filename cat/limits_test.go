package cat

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/ptxmm/ptxmm/datalog"
)

// TestNestingIsBounded: an expression nested past datalog.MaxExprNesting
// (deep parentheses or ~ killed the process with a stack overflow)
// gets one error, the statement after it is still read, and an expression
// at the limit parses.
func TestNestingIsBounded(t *testing.T) {
	const deep = 50_000
	cases := map[string]string{
		"parentheses": strings.Repeat("(", deep) + "po" + strings.Repeat(")", deep),
		"brackets":    strings.Repeat("[", deep) + "W" + strings.Repeat("]", deep),
		"complements": strings.Repeat("~", deep) + "po",
		"arguments":   strings.Repeat("f(", deep) + "po" + strings.Repeat(")", deep),
		"begin":       strings.Repeat("begin ", deep) + "po" + strings.Repeat(" end", deep),
	}
	for name, expr := range cases {
		m, errs := Parse("t.cat", "let x = "+expr+"\nacyclic po as after")
		require.Len(t, errs, 1, "%s: %s", name, errs.Error())
		assert.Contains(t, errs[0].Msg, fmt.Sprintf("expression nested more than %d deep", datalog.MaxExprNesting), name)
		require.Len(t, m.Instrs, 1, name)
		assert.Equal(t, "acyclic po as after", instrString(m.Instrs[0]), name)
	}
	atLimit := strings.Repeat("(", datalog.MaxExprNesting-1) + "po" + strings.Repeat(")", datalog.MaxExprNesting-1)
	_, errs := Parse("t.cat", "let x = "+atLimit)
	assert.Empty(t, errs)
}

// TestOperatorsAreBounded: an expression with more operators than
// datalog.MaxExprOperators gets one error.
func TestOperatorsAreBounded(t *testing.T) {
	long := "po" + strings.Repeat(" | po", datalog.MaxExprOperators+10)
	m, errs := Parse("t.cat", "let x = "+long+"\nacyclic po as after")
	require.Len(t, errs, 1, errs.Error())
	assert.Contains(t, errs[0].Msg, fmt.Sprintf("expression with more than %d operators", datalog.MaxExprOperators))
	require.Len(t, m.Instrs, 1)
}

// TestIncludeDepthIsBounded: a chain of includes deeper than
// datalog.MaxIncludeDepth stops at the limit with the .dl front end's
// message, having read no file past it.
func TestIncludeDepthIsBounded(t *testing.T) {
	files := map[string]string{}
	const chain = 5_000
	for i := 0; i < chain; i++ {
		files[fmt.Sprintf("f%d.cat", i)] = fmt.Sprintf("include \"f%d.cat\"\n", i+1)
	}
	files[fmt.Sprintf("f%d.cat", chain)] = "let x = po\n"
	read := 0
	opts := Options{Read: func(name string) ([]byte, error) {
		read++
		if s, ok := files[name]; ok {
			return []byte(s), nil
		}
		return nil, os.ErrNotExist
	}}
	_, errs := LoadSource("f0.cat", files["f0.cat"], opts)
	require.Len(t, errs, 1, errs.Error())
	assert.Equal(t, fmt.Sprintf("f%d.cat", datalog.MaxIncludeDepth-1), errs[0].Pos.File)
	assert.Contains(t, errs[0].Msg, fmt.Sprintf("includes nested more than %d deep (f0.cat -> ... -> f%d.cat)", datalog.MaxIncludeDepth, datalog.MaxIncludeDepth-1))
	assert.Equal(t, datalog.MaxIncludeDepth-1, read, "files read besides the main one")
}

// TestModelFilesMustBeRegularAndSmall: the main model and its includes are
// read as .dl models are: devices, pipes and directories are refused
// without being read (include "/dev/zero" ran out of memory), and so is a
// file over datalog.MaxFileBytes.
func TestModelFilesMustBeRegularAndSmall(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.cat")
	f, err := os.Create(big)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(datalog.MaxFileBytes+1))
	require.NoError(t, f.Close())
	require.NoError(t, syscall.Mkfifo(filepath.Join(dir, "pipe.cat"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "ok.cat"), []byte("let x = po\n"), 0o644))
	for _, c := range []struct{ include, want string }{
		{"/dev/zero", "a device, not a regular file"},
		{"pipe.cat", "a named pipe, not a regular file"},
		{".", "a directory, not a file"},
		{"big.cat", "the file has 8.00 MiB, more than the 8.00 MiB a model file may have"},
		{"ok.cat", ""},
	} {
		main := filepath.Join(dir, "main.cat")
		require.NoError(t, os.WriteFile(main, []byte(fmt.Sprintf("include %q\nacyclic po as c\n", c.include)), 0o644))
		_, errs := Load(main, Options{})
		if c.want == "" {
			assert.False(t, errs.HasErrors(), "%s: %s", c.include, errs.Error())
			continue
		}
		require.True(t, errs.HasErrors(), c.include)
		assert.Contains(t, errs[0].Msg, c.want, c.include)
	}
	_, errs := Load("/dev/zero", Options{})
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Msg, "cannot read model: a device, not a regular file")
	_, errs = Load(big, Options{})
	require.Len(t, errs, 1)
	assert.Contains(t, errs[0].Msg, "more than the 8.00 MiB a model file may have")
	_, errs = LoadSource("t.cat", "include \"big\"", Options{Read: func(string) ([]byte, error) { return make([]byte, datalog.MaxFileBytes+1), nil }})
	require.True(t, errs.HasErrors())
	assert.Contains(t, errs[0].Msg, "more than the 8.00 MiB a model file may have")
}
