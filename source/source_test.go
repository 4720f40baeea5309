package source

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPosString(t *testing.T) {
	cases := []struct {
		pos  Pos
		want string
	}{
		{Pos{}, "-"},
		{Pos{File: "a.dl"}, "a.dl"},
		{Pos{Line: 3, Col: 7}, "3:7"},
		{Pos{File: "a.dl", Line: 3, Col: 7}, "a.dl:3:7"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, c.pos.String(), "%#v", c.pos)
	}
}

func TestPosBefore(t *testing.T) {
	cases := []struct {
		p, q Pos
		want bool
	}{
		{Pos{File: "a", Line: 1, Col: 5}, Pos{File: "a", Line: 2, Col: 1}, true},
		{Pos{File: "a", Line: 2, Col: 1}, Pos{File: "a", Line: 1, Col: 5}, false},
		{Pos{File: "a", Line: 2, Col: 1}, Pos{File: "a", Line: 2, Col: 3}, true},
		{Pos{File: "a", Line: 2, Col: 3}, Pos{File: "a", Line: 2, Col: 3}, false},
		{Pos{File: "b", Line: 1, Col: 1}, Pos{File: "a", Line: 9, Col: 9}, false},
		{Pos{File: "a", Line: 9, Col: 9}, Pos{File: "b", Line: 1, Col: 1}, true},
	}
	for _, c := range cases {
		require.Equal(t, c.want, c.p.Before(c.q), "%v before %v", c.p, c.q)
	}
}

func TestQuotedPutsCaretUnderColumn(t *testing.T) {
	cases := []struct {
		name string
		err  Error
		want string
	}{
		{
			name: "caret under the column",
			err:  Error{Pos: Pos{File: "m.dl", Line: 2, Col: 5}, Msg: "expected '.'", Line: "a(X) b(X)"},
			want: "m.dl:2:5: expected '.'\n    a(X) b(X)\n        ^",
		},
		{
			name: "tabs print as one space so the caret stays aligned",
			err:  Error{Pos: Pos{File: "m.dl", Line: 1, Col: 2}, Msg: "bad", Line: "\tx"},
			want: "m.dl:1:2: bad\n     x\n     ^",
		},
		{
			name: "column past the end of the line points just after it",
			err:  Error{Pos: Pos{File: "m.dl", Line: 1, Col: 40}, Msg: "unexpected end of line", Line: "ab"},
			want: "m.dl:1:40: unexpected end of line\n    ab\n      ^",
		},
		{
			name: "no line known prints one line",
			err:  Error{Pos: Pos{File: "m.dl", Line: 1, Col: 1}, Msg: "bad"},
			want: "m.dl:1:1: bad",
		},
		{
			name: "warnings say so",
			err:  Error{Pos: Pos{File: "m.dl", Line: 1, Col: 1}, Msg: "unused", Severity: SevWarning},
			want: "m.dl:1:1: warning: unused",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			require.Equal(t, c.want, c.err.Quoted())
		})
	}
}

func TestListSeparatesErrorsFromWarnings(t *testing.T) {
	var l List
	require.NoError(t, l.Err(), "an empty list is not an error")
	l.Warn(Pos{File: "m.dl", Line: 4, Col: 1}, "relation %s is never used", "r")
	require.NoError(t, l.Err(), "warnings alone are not an error")
	require.False(t, l.HasErrors())
	l.Add(Pos{File: "m.dl", Line: 2, Col: 3}, "unknown relation %q", "s")
	require.True(t, l.HasErrors())
	require.Len(t, l.Errors(), 1)
	require.Len(t, l.Warnings(), 1)
	l.Sort()
	require.Equal(t, "m.dl:2:3: unknown relation \"s\"\nm.dl:4:1: warning: relation r is never used", l.Err().Error())
}

func TestAttachLinesQuotesTheRightLine(t *testing.T) {
	var l List
	l.Add(Pos{File: "m.dl", Line: 2, Col: 1}, "bad")
	l.Add(Pos{File: "other.dl", Line: 1, Col: 1}, "elsewhere")
	l.Add(Pos{File: "m.dl", Line: 9, Col: 1}, "past the end")
	l.AttachLines("m.dl", "first\nsecond\nthird\n")
	require.Equal(t, "second", l[0].Line)
	require.Empty(t, l[1].Line, "a diagnostic in another file keeps no line")
	require.Empty(t, l[2].Line, "a line beyond the text is left unknown")
	require.Equal(t, "m.dl:2:1: bad\n    second\n    ^", l[0].Quoted())
}

// TestListKeepsAtMostMaxErrors: past MaxErrors errors (and apart warnings)
// one diagnostic says "too many errors" and the rest are dropped, so that
// a row of a thousand bad cells does not print a thousand diagnostics.
func TestListKeepsAtMostMaxErrors(t *testing.T) {
	var l List
	for i := 1000; i > 0; i-- {
		l.Add(Pos{File: "t.litmus", Line: 4, Col: i}, "bad cell")
		l.Warn(Pos{File: "t.litmus", Line: 5, Col: i}, "odd cell")
	}
	require.Len(t, l, 2*(MaxErrors+1))
	require.Len(t, l.Errors(), MaxErrors+1)
	l.Sort()
	last := l[len(l)-1]
	require.Contains(t, last.Msg, "too many", "the marker sorts last")
	require.Contains(t, l.Errors()[MaxErrors].Msg, "too many errors (only the first 10 are shown)")
	require.Contains(t, l.Warnings()[MaxErrors].Msg, "too many warnings")
	require.True(t, l.HasErrors())
	var m List
	m.Append(l...)
	require.Len(t, m, len(l), "appending a capped list keeps it whole")
}

// TestQuotedLinesAreCutAndEscaped: a long line is quoted around the caret
// only, and control characters in it (a terminal's escape sequences) are
// escaped, in the line and in the message.
func TestQuotedLinesAreCutAndEscaped(t *testing.T) {
	long := strings.Repeat("bogus.op r0 | ", 5000)
	cases := []struct {
		name string
		err  Error
		want string
	}{
		{"a long line is cut around the caret",
			Error{Pos: Pos{File: "w.litmus", Line: 4, Col: 14*2000 + 1}, Msg: "unknown instruction", Line: long},
			"w.litmus:4:28001: unknown instruction\n    ..." + long[28000-60:28000+40] + "...\n       " + strings.Repeat(" ", 60) + "^"},
		{"the start of a long line",
			Error{Pos: Pos{File: "w.litmus", Line: 4, Col: 1}, Msg: "m", Line: long},
			"w.litmus:4:1: m\n    " + long[:100] + "...\n    ^"},
		{"the end of a long line",
			Error{Pos: Pos{File: "w.litmus", Line: 4, Col: len(long) + 1}, Msg: "m", Line: long},
			"w.litmus:4:70001: m\n    ..." + long[len(long)-60:] + "\n       " + strings.Repeat(" ", 60) + "^"},
		{"control characters are escaped and the caret follows",
			Error{Pos: Pos{File: "t.litmus", Line: 1, Col: 14}, Msg: "bad name \x1b]0;pwned\x07", Line: "PTX \x1b]0;x\x07\x1b[2J y"},
			"t.litmus:1:14: bad name \\x1b]0;pwned\\x07\n    PTX \\x1b]0;x\\x07\\x1b[2J y\n    " + strings.Repeat(" ", 22) + "^"},
		{"bidirectional overrides and bytes that are not UTF-8",
			Error{Pos: Pos{File: "t.litmus", Line: 1, Col: 5}, Msg: "m", Line: "a\u202eb\xffc"},
			"t.litmus:1:5: m\n    a\\u202eb\\xffc\n           ^"},
	}
	for _, c := range cases {
		require.Equal(t, c.want, c.err.Quoted(), c.name)
	}
	assert.Equal(t, "\\x1b[2J é\tok\n", Escape("\x1b[2J é\tok\n"))
}

// TestCursor: the lexers' cursor counts lines and byte columns.
func TestCursor(t *testing.T) {
	c := NewCursor("f.dl", "ab\ncd")
	assert.Equal(t, byte('b'), c.PeekByte(1))
	assert.Equal(t, byte(0), c.PeekByte(9))
	c.Advance(3)
	assert.Equal(t, Pos{File: "f.dl", Line: 2, Col: 1}, c.Pos())
	c.Advance(10)
	assert.Equal(t, Pos{File: "f.dl", Line: 2, Col: 3}, c.Pos())
	assert.Equal(t, 5, c.Off)
}

// TestQuotedLinesThatAreNotUTF8: a quoted line need not be UTF-8 (a fuzzed
// cat file, a binary file given as a test); continuation bytes with no
// character start before or after the caret must not move the window past
// the line's ends.
func TestQuotedLinesThatAreNotUTF8(t *testing.T) {
	cont := strings.Repeat("\x80", 400)
	cases := []struct {
		name string
		line string
		col  int
	}{
		{"continuation bytes at the start, caret at column 1", "\x80\x80abc", 1},
		{"only continuation bytes, caret at the end", cont, len(cont) + 1},
		{"only continuation bytes, caret in the middle", cont, 200},
		{"text then continuation bytes to the end, caret at the end", strings.Repeat("x", 10) + cont, 411},
		{"continuation bytes then text, caret at column 1", cont + "abc", 1},
	}
	for _, c := range cases {
		e := Error{Pos: Pos{File: "f", Line: 1, Col: c.col}, Msg: "m", Line: c.line}
		var got string
		require.NotPanics(t, func() { got = e.Quoted() }, c.name)
		lines := strings.Split(got, "\n")
		require.Len(t, lines, 3, c.name)
		assert.True(t, strings.HasSuffix(lines[2], "^"), c.name)
		assert.LessOrEqual(t, len([]rune(lines[1])), 4+3*MaxQuotedWidth, c.name)
	}
}

// FuzzQuoted: any line and any column quote without a panic, and the caret
// line is all spaces then one caret.
func FuzzQuoted(f *testing.F) {
	f.Add("bogus.op r0", 3)
	f.Add("\x80\x80abc", 1)
	f.Add(strings.Repeat("\x80", 300), 301)
	f.Add("a\u202eb\xffc\t", 5)
	f.Fuzz(func(t *testing.T, line string, col int) {
		e := Error{Pos: Pos{File: "f", Line: 1, Col: col}, Msg: "m", Line: line}
		got := e.Quoted()
		if line == "" || col <= 0 {
			return
		}
		lines := strings.Split(got, "\n")
		if len(lines) != 3 || strings.TrimLeft(lines[2], " ") != "^" {
			t.Fatalf("quoted %q at %d as %q", line, col, got)
		}
	})
}
