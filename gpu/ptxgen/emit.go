package ptxgen

import (
	"fmt"
	"strings"
)

// emitter writes PTX: instructions, labels and comments, and numbers the
// temporary registers it hands out, declared at the top of the kernel.
type emitter struct {
	out                *strings.Builder
	rd, r, h, p, label int
}

func newEmitter() *emitter { return &emitter{out: &strings.Builder{}} }

// ins writes one instruction.
func (e *emitter) ins(format string, args ...any) {
	fmt.Fprintf(e.out, "\t"+format+";\n", args...)
}

// mark writes a label.
func (e *emitter) mark(l string) { fmt.Fprintf(e.out, "%s:\n", l) }

// comment writes a comment line.
func (e *emitter) comment(format string, args ...any) {
	fmt.Fprintf(e.out, "\t// "+format+"\n", args...)
}

// to switches the output to b and returns the previous one.
func (e *emitter) to(b *strings.Builder) *strings.Builder {
	old := e.out
	e.out = b
	return old
}

// The temporaries: 64-bit, 32-bit and 16-bit registers and predicates.
func (e *emitter) rd64() string { e.rd++; return fmt.Sprintf("%%rd%d", e.rd) }
func (e *emitter) r32() string  { e.r++; return fmt.Sprintf("%%r%d", e.r) }
func (e *emitter) h16() string  { e.h++; return fmt.Sprintf("%%h%d", e.h) }
func (e *emitter) pred() string { e.p++; return fmt.Sprintf("%%p%d", e.p) }

// newLabel returns a fresh label.
func (e *emitter) newLabel(prefix string) string {
	e.label++
	return fmt.Sprintf("$%s_%d", prefix, e.label)
}

// declarations declares the temporaries handed out.
func (e *emitter) declarations() string {
	var b strings.Builder
	for _, d := range []struct {
		kind, name string
		n          int
	}{{".pred", "%p", e.p}, {".b16", "%h", e.h}, {".b32", "%r", e.r}, {".b64", "%rd", e.rd}} {
		if d.n > 0 {
			fmt.Fprintf(&b, "\t.reg %s %s<%d>;\n", d.kind, d.name, d.n+1)
		}
	}
	return b.String()
}
