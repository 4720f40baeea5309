package source

// Cursor is a lexer's place in a file's text: the byte offset and its
// line and column (counting bytes, as Pos does). The lexers of the
// modelling language (package datalog) and of cat share it.
type Cursor struct {
	File string
	Src  string
	Off  int
	Line int
	Col  int
}

// NewCursor returns a cursor at the start of src, a file's text.
func NewCursor(file, src string) Cursor { return Cursor{File: file, Src: src, Line: 1, Col: 1} }

// Pos is the position of the next byte.
func (c *Cursor) Pos() Pos { return Pos{File: c.File, Line: c.Line, Col: c.Col} }

// PeekByte returns the byte k places ahead, or 0 past the end.
func (c *Cursor) PeekByte(k int) byte {
	if c.Off+k < len(c.Src) {
		return c.Src[c.Off+k]
	}
	return 0
}

// Advance moves past n bytes (at most to the end), keeping the line and
// column current.
func (c *Cursor) Advance(n int) {
	for i := 0; i < n && c.Off < len(c.Src); i++ {
		if c.Src[c.Off] == '\n' {
			c.Line++
			c.Col = 1
		} else {
			c.Col++
		}
		c.Off++
	}
}
