package litmus

import (
	"bytes"
	"fmt"
	"strconv"

	"github.com/ptxmm/ptxmm/source"
)

// A .test template is the text before a "$$" line, holding placeholders
// $0, $1, ...; every row of the table after the line fills them with its
// '|'-separated cells, giving one test per row. Each instance is parsed
// like an ordinary file, with a posMap that sends every byte back to where
// it was written: template text to its own line, cell text to its row.

// template is a split .test template.
type template struct {
	head   []byte // the text before the $$ line
	holes  []hole // the placeholders in head, in order
	need   int    // highest placeholder index + 1
	rows   []tmplRow
	sepOff int // offset of the $$ line
}

// hole is a placeholder $N at head[off:end].
type hole struct {
	off, end, index int
}

// tmplRow is one table row: its cells, trimmed, with their offsets.
type tmplRow struct {
	off   int // offset of the row's first non-blank byte
	cells []tmplCell
}

// tmplCell is one cell of a row, trimmed, with the offset of its text.
type tmplCell struct {
	text string
	off  int
}

// maxPlaceholder bounds placeholder indices; no table has that many cells.
const maxPlaceholder = 9999

// lineAt returns the line of src starting at off, without its newline, and
// the offset of the next line.
func lineAt(src []byte, off int) ([]byte, int) {
	end := bytes.IndexByte(src[off:], '\n')
	if end < 0 {
		return src[off:], len(src)
	}
	return src[off : off+end], off + end + 1
}

// splitTemplate finds the $$ line. It returns nil when src is not a
// template.
func splitTemplate(src []byte, p *parser) *template {
	for off := 0; off < len(src); {
		line, next := lineAt(src, off)
		if string(bytes.TrimSpace(line)) == "$$" {
			tm := &template{head: src[:off], sepOff: off + bytes.Index(line, []byte("$$"))}
			tm.findHoles(p)
			tm.readRows(src, next)
			return tm
		}
		off = next
	}
	return nil
}

// findHoles records the placeholders of the head.
func (tm *template) findHoles(p *parser) {
	h := tm.head
	for i := 0; i < len(h); i++ {
		if h[i] != '$' {
			continue
		}
		j := i + 1
		for j < len(h) && isDigit(h[j]) {
			j++
		}
		if j == i+1 {
			continue // a lone '$' is left for the lexer to report
		}
		n, err := strconv.Atoi(string(h[i+1 : j]))
		if err != nil || n > maxPlaceholder {
			p.errorf(i, "placeholder %s is too large (at most $%d)", h[i:j], maxPlaceholder)
			n = -1
		}
		if n >= 0 {
			tm.holes = append(tm.holes, hole{off: i, end: j, index: n})
			tm.need = max(tm.need, n+1)
		}
		i = j - 1
	}
}

// readRows reads the table: every non-blank line that is not a // comment
// is a row. A line without '|' is a row of one cell, which is an error for
// any template with two or more placeholders; it is not skipped, so that a
// mistyped row cannot silently shift the numbering of the rows after it.
func (tm *template) readRows(src []byte, off int) {
	for off < len(src) {
		line, next := lineAt(src, off)
		trimmed := bytes.TrimSpace(line)
		if len(trimmed) > 0 && !bytes.HasPrefix(trimmed, []byte("//")) {
			row := tmplRow{off: off + bytes.Index(line, trimmed)}
			start := 0
			for {
				end := bytes.IndexByte(line[start:], '|')
				if end < 0 {
					end = len(line)
				} else {
					end += start
				}
				raw := line[start:end]
				cell := bytes.TrimSpace(raw)
				cellOff := off + start + bytes.Index(raw, cell)
				if len(cell) == 0 {
					cellOff = off + start
				}
				row.cells = append(row.cells, tmplCell{text: string(cell), off: cellOff})
				if end == len(line) {
					break
				}
				start = end + 1
			}
			tm.rows = append(tm.rows, row)
		}
		off = next
	}
}

// extraCell returns the first non-empty cell beyond the need first ones,
// or nil. Empty cells past the end are allowed, so that a template with a
// single placeholder can still write its rows with a '|'.
func (r tmplRow) extraCell(need int) *tmplCell {
	for i := need; i < len(r.cells); i++ {
		if r.cells[i].text != "" {
			return &r.cells[i]
		}
	}
	return nil
}

// expand fills the placeholders with a row's cells and returns the text
// with the segments that map it back to the original file.
func (tm *template) expand(row tmplRow) ([]byte, []segment) {
	var out []byte
	var segs []segment
	add := func(text []byte, orig int) {
		if len(text) == 0 {
			return
		}
		segs = append(segs, segment{expStart: len(out), origStart: orig, n: len(text)})
		out = append(out, text...)
	}
	last := 0
	for _, h := range tm.holes {
		add(tm.head[last:h.off], last)
		if h.index < len(row.cells) {
			c := row.cells[h.index]
			add([]byte(c.text), c.off)
		}
		last = h.end
	}
	add(tm.head[last:], last)
	return out, segs
}

// ParseNV parses an NVIDIA .test file. An ordinary file yields one Test
// with Instance 0; a template yields one Test per table row, Instance K for
// row K. On failure the error is a source.List holding every problem found,
// each template-instance problem marked with its row.
func ParseNV(file string, src []byte) ([]*Test, error) {
	return parseNVFile(file, src, nil)
}

// parseNVFile is ParseNV, ended early by stop.
func parseNVFile(file string, src []byte, stop *parseStop) ([]*Test, error) {
	var errs source.List
	pm := newPosMap(file, src)
	base := testName(file)
	finish := func(tests []*Test) ([]*Test, error) {
		if errs.HasErrors() {
			errs.Sort()
			errs.AttachLines(file, string(src))
			return nil, errs
		}
		w := fileWarnings(errs, file, src)
		for _, t := range tests {
			t.Warnings = w
		}
		return tests, nil
	}
	newNV := func(text []byte, pm *posMap, errs *source.List) *parser {
		p := newParser(file, text, FormatNV, pm, errs)
		p.stop = stop
		return p
	}
	tm := splitTemplate(src, newNV(src, pm, &errs))
	if tm == nil {
		return finish([]*Test{newNV(src, pm, &errs).parseNV(base, 0)})
	}
	if len(tm.rows) == 0 {
		errs.Add(pm.pos(tm.sepOff), "template has no rows after $$")
	}
	if errs.HasErrors() {
		return finish(nil)
	}
	var tests []*Test
	seen := map[string]bool{}
	for i, row := range tm.rows {
		if stop.stopped() {
			break
		}
		k := i + 1
		if len(row.cells) < tm.need {
			errs.Add(pm.pos(row.off), "template row %d has %d cells, but the template uses $%d (it needs %d cells)", k, len(row.cells), tm.need-1, tm.need)
			continue
		}
		if extra := row.extraCell(tm.need); extra != nil {
			errs.Add(pm.pos(extra.off), "template row %d has %d cells, but the template only uses %d", k, len(row.cells), tm.need)
			continue
		}
		text, segs := tm.expand(row)
		ipm := *pm
		ipm.segs = segs
		var ierrs source.List
		t := newNV(text, &ipm, &ierrs).parseNV(InstanceName(base, k), k)
		// A mistake in the template text shows in every instance; report it
		// once, marked with the first row that shows it.
		for _, e := range ierrs {
			key := e.Pos.String() + "\x00" + e.Msg
			if seen[key] {
				continue
			}
			seen[key] = true
			e.Msg += fmt.Sprintf(" (template row %d)", k)
			errs.Append(e)
		}
		tests = append(tests, t)
	}
	return finish(tests)
}

// InstanceName names row k (from 1) of a .test template whose file's base
// name is base: "MP[2]". check's herd log, diff, graph, the REPL, the page
// and the -expect report all use this one name (herd's log lexer accepts
// the brackets in a test name).
func InstanceName(base string, k int) string { return fmt.Sprintf("%s[%d]", base, k) }
