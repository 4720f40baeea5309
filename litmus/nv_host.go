package litmus

import (
	"strconv"
	"strings"
)

// This file reads what the .test format says about host threads: host
// threads "hN { ... }", the ".kernel K THREAD, ...;" declarations that put
// device threads in kernels, and ".attribute
// cudaDevAttrHostNativeAtomicSupported = V;" (PTX ISA 8.1.1).

// nvKernel is a .kernel declaration, applied once every thread is known.
type nvKernel struct {
	name    string
	threads []token
}

// parseHostThreadName reads a host thread's name, "h0", "h1", ...
func parseHostThreadName(s string) (int, bool) {
	if !strings.HasPrefix(s, "h") {
		return 0, false
	}
	n, err := strconv.Atoi(s[1:])
	if err != nil || n < 0 || n > 1<<20 || strconv.Itoa(n) != s[1:] {
		return 0, false
	}
	return n, true
}

// parseNVKernel parses the rest of ".kernel K THREAD {, THREAD};".
func (p *parser) parseNVKernel(c *cursor, d token) {
	var k nvKernel
	if !p.apiName(c, &k.name, d.text, "kernel name") {
		p.skipStatement(c)
		return
	}
	for {
		th := c.peek()
		if c.done() || th.kind != tokIdent {
			p.errorf(th.off, "expected a device thread of kernel %s (such as d0.b0.t0), found %s", k.name, th.describe())
			p.skipStatement(c)
			return
		}
		c.next()
		k.threads = append(k.threads, th)
		if !c.accept(",") {
			break
		}
	}
	if semi := c.peek(); c.done() || !semi.is(";") {
		p.errorf(semi.off, "expected ',' or ';' after the threads of kernel %s, found %s", k.name, semi.describe())
		if !startsTopLevel(c) {
			p.skipStatement(c)
		}
	} else {
		c.next()
	}
	p.nvKernels = append(p.nvKernels, k)
}

// applyNVKernels puts the threads the .kernel declarations name in their
// kernels.
func (p *parser) applyNVKernels(t *Test) {
	where := map[*Thread]token{}
	for _, k := range p.nvKernels {
		for _, tk := range k.threads {
			th := t.ThreadByName(tk.text)
			switch {
			case th == nil:
				p.errorf(tk.off, "kernel %s names %s, which is not a thread of the test", k.name, tk.text)
			case th.Host:
				p.errorf(tk.off, "kernel %s names host thread %s: kernels are made of device threads", k.name, tk.text)
			case th.Kernel != "":
				p.errorf(tk.off, "%s is already in kernel %s (line %d): a device thread belongs to one kernel", tk.text, th.Kernel, p.pos(where[th].off).Line)
			default:
				th.Kernel = k.name
				where[th] = tk
			}
		}
	}
}

// parseNVAttribute parses the rest of ".attribute
// cudaDevAttrHostNativeAtomicSupported = V;".
func (p *parser) parseNVAttribute(c *cursor, t *Test, d token) {
	name := c.peek()
	if c.done() || !name.is(NativeAtomicsAttr) {
		p.errorf(name.off, "expected %s after .attribute (the one device attribute ptxmm reads), found %s", NativeAtomicsAttr, name.describe())
		p.skipStatement(c)
		return
	}
	c.next()
	if eq := c.peek(); c.done() || !eq.is("=") {
		p.errorf(eq.off, "expected '=' after %s, found %s", NativeAtomicsAttr, eq.describe())
		p.skipStatement(c)
		return
	}
	c.next()
	p.parseNativeAtomics(c, t, name)
	if semi := c.peek(); c.done() || !semi.is(";") {
		p.errorf(semi.off, "expected ';' after the attribute, found %s", semi.describe())
		if !startsTopLevel(c) {
			p.skipStatement(c)
		}
		return
	}
	c.next()
}
