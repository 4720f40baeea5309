package litmus

import (
	"fmt"
	"strconv"
	"strings"
)

// This file reads what the herd format says about host threads: the
// "Hk@host" cells of the thread header, thread references such as "H0:r0"
// in register initialisations and conditions, and the init block's
// cudaDevAttrHostNativeAtomicSupported entry (PTX ISA 8.1.1).

// NativeAtomicsAttr is the init-block entry (herd) and .attribute
// declaration (.test) saying that host atomics and .sys device atomics are
// atomic with respect to each other: the name of CUDA's device attribute
// for a host link with native atomics.
const NativeAtomicsAttr = "cudaDevAttrHostNativeAtomicSupported"

// parseHostCell parses "Hk@host", the cell of column i, the k-th host
// thread.
func (p *parser) parseHostCell(toks []token, stop token, i, k int, t *Test) {
	c := newCursor(toks, stop)
	want := fmt.Sprintf("H%d", k)
	name := c.peek()
	th := &Thread{Name: want, Index: i, Pos: p.pos(name.off), Host: true, GPU: -1, Cluster: -1, CTA: -1}
	t.Threads = append(t.Threads, th)
	p.threads = append(p.threads, &threadBuild{th: th})
	if name.text != want {
		p.errorf(name.off, "expected thread %s (host threads are named H0, H1, ... in order, device threads P0, P1, ...), found %s", want, name.describe())
		return
	}
	c.next()
	if !c.accept("@") {
		p.errorf(name.off, "host thread %s has no placement: write %s@host", want, want)
		return
	}
	if w := c.peek(); c.done() || !w.is("host") {
		p.errorf(w.off, "expected host after %s@ (a host thread runs on the CPU: write %s@host), found %s", want, want, w.describe())
		return
	}
	c.next()
	if !c.done() {
		n := c.peek()
		p.errorf(n.off, "unexpected %s after %s@host: a host thread has no other placement", n.describe(), want)
	}
}

// herdThreadName reads a herd thread reference, "P3", "3" or "H1", as the
// name of the thread it denotes ("3" is "P3").
func herdThreadName(t token) (string, bool) {
	digits, prefix := t.text, "P"
	switch {
	case t.kind == tokIdent && strings.HasPrefix(digits, "P"):
		digits = digits[1:]
	case t.kind == tokIdent && strings.HasPrefix(digits, "H"):
		digits, prefix = digits[1:], "H"
	case t.kind != tokInt:
		return "", false
	}
	n, err := strconv.Atoi(digits)
	if err != nil || n < 0 || strconv.Itoa(n) != digits {
		return "", false
	}
	return prefix + digits, true
}

// threadRange describes a test's threads for "unknown thread" messages.
func threadRange(t *Test) string {
	var dev, host int
	for _, th := range t.Threads {
		if th.Host {
			host++
		} else {
			dev++
		}
	}
	var parts []string
	if dev > 0 {
		parts = append(parts, fmt.Sprintf("P0 to P%d", dev-1))
	}
	if host > 0 {
		parts = append(parts, fmt.Sprintf("H0 to H%d", host-1))
	}
	if len(parts) == 0 {
		return "no threads"
	}
	return "threads " + andList(parts)
}

// parseNativeAtomics parses the rest of the init entry
// "cudaDevAttrHostNativeAtomicSupported = V", V being 0 or 1.
func (p *parser) parseNativeAtomics(c *cursor, t *Test, name token) {
	off := c.peek().off
	v, _, ok := p.intLit(c)
	if !ok {
		c.skipTo(";", "}")
		return
	}
	if v != 0 && v != 1 {
		p.errorf(off, "%s is 0 (host and device atomics may not be atomic with respect to each other, the default) or 1 (native host atomics), found %d", NativeAtomicsAttr, v)
		return
	}
	if p.nativeAttrLine > 0 {
		p.errorf(name.off, "%s is already given at line %d", NativeAtomicsAttr, p.nativeAttrLine)
		return
	}
	p.nativeAttrLine = p.pos(name.off).Line
	t.HostNativeAtomics = v == 1
}
