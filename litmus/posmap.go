package litmus

import (
	"sort"

	"github.com/ptxmm/ptxmm/source"
)

// segment says that the expanded text from expStart on, for n bytes, was
// copied from the original file at origStart.
type segment struct {
	expStart, origStart, n int
}

// posMap turns byte offsets of the text being parsed into positions in the
// original file. For an ordinary file the two texts are the same; for an
// expanded .test template instance the text is a patchwork of template
// lines and table cells, and segs records where each piece came from, so
// that every diagnostic points at what the user actually wrote.
type posMap struct {
	file       string
	lineStarts []int     // offsets in the original file where each line starts
	origLen    int       // length of the original file
	segs       []segment // nil when the parsed text is the original file
}

// newPosMap indexes the lines of the original file text.
func newPosMap(file string, orig []byte) *posMap {
	starts := []int{0}
	for i, b := range orig {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &posMap{file: file, lineStarts: starts, origLen: len(orig)}
}

// origOffset maps an offset of the parsed text to an offset of the original
// file. Offsets past the end of the last segment (the end of the text) map
// to the end of the last segment.
func (m *posMap) origOffset(off int) int {
	if m.segs == nil {
		return min(max(off, 0), m.origLen)
	}
	if len(m.segs) == 0 {
		return 0
	}
	// The last segment whose start is at or before off holds it.
	i := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].expStart > off }) - 1
	if i < 0 {
		i = 0
	}
	s := m.segs[i]
	d := min(max(off-s.expStart, 0), s.n)
	return min(s.origStart+d, m.origLen)
}

// pos returns the file:line:col of an offset of the parsed text. Columns
// count bytes from 1, as go/token does.
func (m *posMap) pos(off int) source.Pos {
	o := m.origOffset(off)
	line := sort.Search(len(m.lineStarts), func(i int) bool { return m.lineStarts[i] > o }) - 1
	if line < 0 {
		line = 0
	}
	return source.Pos{File: m.file, Line: line + 1, Col: o - m.lineStarts[line] + 1}
}
