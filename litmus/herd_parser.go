package litmus

import (
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/source"
)

// ParseHerd parses a herd-style PTX litmus test (.litmus). On failure the
// error is a source.List holding every problem found.
func ParseHerd(file string, src []byte) (*Test, error) {
	return parseHerdFile(file, src, nil)
}

// parseHerdFile is ParseHerd, ended early by stop.
func parseHerdFile(file string, src []byte, stop *parseStop) (*Test, error) {
	var errs source.List
	p := newParser(file, src, FormatHerd, newPosMap(file, src), &errs)
	p.stop = stop
	t := p.parseHerd()
	if errs.HasErrors() {
		errs.Sort()
		errs.AttachLines(file, string(src))
		return nil, errs
	}
	t.Warnings = fileWarnings(errs, file, src)
	return t, nil
}

// parseHerd reads the whole file: header, quoted comments, init block,
// thread table and condition.
func (p *parser) parseHerd() *Test {
	t := &Test{File: p.file, Format: FormatHerd}
	lx := newLexer(p.src, FormatHerd, p.pm, p.errs)
	lx.stop = p.stop
	arch := lx.next()
	t.Pos = p.pos(arch.off)
	if arch.kind != tokIdent {
		p.errorf(arch.off, "expected the header line \"PTX NAME\", found %s", arch.describe())
		return t
	}
	if arch.text != "PTX" {
		p.errorf(arch.off, "unsupported architecture %q: expected PTX", arch.text)
		return t
	}
	name := lx.scanWord()
	if name.text == "" {
		p.errorf(name.off, "expected the test name after PTX")
	}
	t.Name = name.text
	if off := lx.restOfLine(); off >= 0 {
		end := off
		for end < len(p.src) && !isSpace(p.src[end]) {
			end++
		}
		p.errorf(off, "unexpected %q after the test name: the header is \"PTX NAME\"", p.src[off:end])
		for lx.off < len(p.src) && p.src[lx.off] != '\n' {
			lx.off++
		}
	}
	toks, release := lx.lexAll()
	defer release()
	c := newCursor(toks[:len(toks)-1], toks[len(toks)-1])
	for !c.done() && c.peek().kind == tokString {
		c.next() // quoted comments
	}
	regInits := p.parseInit(c, t)
	if regInits == nil {
		return t
	}
	if !p.parseThreadHeader(c, t) {
		return t
	}
	p.parseRows(c, t)
	if p.stop.stopped() {
		return t
	}
	p.warnDialect()
	p.checkRegInits(t, *regInits)
	p.resolve(t)
	p.checkTensorMaps(t)
	p.checkPlacement(t)
	p.checkHost(t)
	p.parseCondition(c, t)
	p.checkMultimemTerms(t)
	p.lint(t)
	return t
}

// parseThreadHeader parses "P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;". It returns
// false when there is no header row at all.
func (p *parser) parseThreadHeader(c *cursor, t *Test) bool {
	first := c.peek()
	if c.done() || first.kind != tokIdent || (first.text != "P0" && first.text != "H0") {
		p.errorf(first.off, "expected the thread header row (P0@cta 0,gpu 0 | P1@cta 1,gpu 0 ;, or H0@host for a host thread), found %s", first.describe())
		return false
	}
	start := c.i
	for !c.done() && !c.peek().is(";") {
		c.next()
	}
	row := c.toks[start:c.i]
	stop := c.peek()
	if c.done() {
		p.errorf(stop.off, "expected ';' at the end of the thread header row, found %s", stop.describe())
	} else {
		c.next()
	}
	var nDevice, nHost int
	p.cells = splitCells(p.cells[:0], row, stop)
	for i, cell := range p.cells {
		if p.stop.stopped() {
			return false
		}
		if len(cell.toks) > 0 && strings.HasPrefix(cell.toks[0].text, "H") {
			p.parseHostCell(cell.toks, cell.stop, i, nHost, t)
			nHost++
			continue
		}
		p.parseThreadCell(cell.toks, cell.stop, i, nDevice, t)
		nDevice++
	}
	return true
}

// cellToks is one cell of a herd row and the token that ends it.
type cellToks struct {
	toks []token
	stop token
}

// splitCells splits a row's tokens at '|', appending the cells to cells.
func splitCells(cells []cellToks, row []token, stop token) []cellToks {
	start := 0
	for i, tk := range row {
		if tk.kind == tokPunct && tk.text == "|" {
			cells = append(cells, cellToks{toks: row[start:i], stop: tk})
			start = i + 1
		}
	}
	return append(cells, cellToks{toks: row[start:], stop: stop})
}

// parseThreadCell parses "Pk@cta N,gpu M[,cluster K][,kernel NAME]"
// (components in any order) and adds the thread of column i, the k-th
// device thread.
func (p *parser) parseThreadCell(toks []token, stop token, i, k int, t *Test) {
	c := newCursor(toks, stop)
	want := "P" + strconv.Itoa(k)
	name := c.peek()
	th := &Thread{Name: want, Index: i, Pos: p.pos(name.off)}
	t.Threads = append(t.Threads, th)
	p.threads = append(p.threads, &threadBuild{th: th})
	if c.done() || name.kind != tokIdent || name.text != want {
		p.errorf(name.off, "expected thread %s (threads are named P0, P1, ... in order), found %s", want, name.describe())
		return
	}
	c.next()
	if !c.accept("@") {
		p.errorf(name.off, "thread %s has no placement: write %s@cta N,gpu M", want, want)
		return
	}
	seen := map[string]bool{}
	for {
		w := c.peek()
		if c.done() || w.kind != tokIdent || (w.text != "cta" && w.text != "gpu" && w.text != "cluster" && w.text != "kernel" && w.text != "warp" && w.text != "lane") {
			p.errorf(w.off, "expected a placement component (cta N, gpu N, cluster N, warp N, lane N or kernel NAME) for %s, found %s", want, w.describe())
			return
		}
		c.next()
		if seen[w.text] {
			p.errorf(w.off, "%s is given twice in the placement of %s", w.text, want)
			return
		}
		seen[w.text] = true
		if !p.placementComponent(c, w.text, want, th) {
			return
		}
		if c.done() {
			break
		}
		if !c.accept(",") {
			n := c.peek()
			p.errorf(n.off, "expected ',' or the end of the placement of %s, found %s", want, n.describe())
			return
		}
	}
	var missing []string
	for _, k := range []string{"cta", "gpu"} {
		if !seen[k] {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		p.errorf(name.off, "the placement of %s lacks %s: write %s@cta N,gpu M", want, strings.Join(missing, " and "), want)
	}
	if seen["warp"] && !seen["lane"] {
		p.errorf(name.off, "the placement of %s gives a warp but no lane: write %s@cta N,gpu M,warp W,lane L", want, want)
	}
	th.LaneNamed = seen["lane"]
	// A thread that names no cluster gets one once every placement is
	// known (placeClusters).
	p.threads[i].clusterNamed = seen["cluster"]
}

// placementComponent parses the value of placement component name (cta,
// gpu, cluster: a number; kernel: a name) of thread want into th, and
// reports whether it could.
func (p *parser) placementComponent(c *cursor, name, want string, th *Thread) bool {
	if name == "kernel" {
		return p.apiName(c, &th.Kernel, "the placement of "+want, "kernel")
	}
	v, off, ok := p.intLit(c)
	if !ok {
		return false
	}
	if v < 0 || v > 1<<20 || (name == "lane" && v > 31) {
		p.errorf(off, "%s number %d is out of range", name, v)
		return false
	}
	switch name {
	case "warp":
		th.Warp = int(v)
	case "lane":
		th.Lane = int(v)
	case "cta":
		th.CTA = int(v)
	case "gpu":
		th.GPU = int(v)
	default:
		th.Cluster = int(v)
	}
	return true
}

// parseRows parses the instruction rows, one cell per thread, up to the
// condition.
func (p *parser) parseRows(c *cursor, t *Test) {
	for !c.done() && !atCondition(c) {
		start := c.i
		for !c.done() && !c.peek().is(";") && !atCondition(c) {
			c.next()
		}
		row := c.toks[start:c.i]
		stop := c.peek()
		if !c.done() && stop.is(";") {
			c.next()
		} else {
			p.errorf(stop.off, "expected ';' at the end of the row, found %s", stop.describe())
		}
		p.cells = splitCells(p.cells[:0], row, stop)
		cells := p.cells
		switch {
		case len(cells) > len(t.Threads):
			p.errorf(cells[len(t.Threads)-1].stop.off, "row has %d cells, expected %d (one per thread)", len(cells), len(t.Threads))
		case len(cells) < len(t.Threads):
			p.errorf(stop.off, "row has %d cells, expected %d (one per thread)", len(cells), len(t.Threads))
		}
		for i, cell := range cells {
			if p.stop.stopped() {
				return
			}
			if i < len(p.threads) {
				p.parseStatement(cell.toks, cell.stop, p.threads[i])
			}
		}
	}
}
