package litmus

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"slices"
	"strconv"

	"github.com/ptxmm/ptxmm/internal/lazyregexp"
)

// Hash is a digest of the test's normalised text, printed as Hash= in
// herd-style logs: equal tests get equal hashes whatever their name,
// comments, layout or label names. As herd7's does, it covers the initial
// state, the code and the observed locations, and leaves out the condition
// (so a test and its flipped twin hash alike). It is the hex MD5 of the
// MD5s of those three parts.
//
// The parts are printed with strconv into one buffer, not with fmt: the
// herd log prints a hash per test, and over a suite of small tests fmt
// was most of its cost. TestHashText keeps the texts those of the fmt
// formats that define them.
func Hash(t *Test) string {
	var sums [3 * md5.Size]byte
	hb := hashBuf{out: make([]byte, 0, 256), text: make([]byte, 0, 128), spans: make([][2]int, 0, 8)}
	hb.init(t)
	hb.sum(sums[0:])
	hb.code(t)
	hb.sum(sums[md5.Size:])
	hb.observed(t)
	hb.sum(sums[2*md5.Size:])
	// The MD5 of the three sums written one after the other.
	d := md5.Sum(sums[:])
	return hex.EncodeToString(d[:])
}

// hashBuf prints the parts of a test's hash. A part made of items sorted
// and joined with "; " (the initial state, the observed locations) builds
// its items in text, each marked by its span, and sorts the spans.
type hashBuf struct {
	out   []byte
	text  []byte
	spans [][2]int
}

// sum writes the MD5 of the part printed into dst and empties the buffer
// for the next part.
func (hb *hashBuf) sum(dst []byte) {
	d := md5.Sum(hb.out)
	copy(dst, d[:])
	hb.out, hb.text, hb.spans = hb.out[:0], hb.text[:0], hb.spans[:0]
}

// item ends the item that started at offset start of text.
func (hb *hashBuf) item(start int) {
	hb.spans = append(hb.spans, [2]int{start, len(hb.text)})
}

// joinSorted prints the items sorted (bytewise, as sort.Strings orders
// them), dropping repeats when unique is set, separated by "; ".
func (hb *hashBuf) joinSorted(unique bool) {
	span := func(s [2]int) []byte { return hb.text[s[0]:s[1]] }
	slices.SortFunc(hb.spans, func(a, b [2]int) int { return bytes.Compare(span(a), span(b)) })
	if unique {
		hb.spans = slices.CompactFunc(hb.spans, func(a, b [2]int) bool { return bytes.Equal(span(a), span(b)) })
	}
	for i, s := range hb.spans {
		if i > 0 {
			hb.out = append(hb.out, "; "...)
		}
		hb.out = append(hb.out, span(s)...)
	}
}

// init prints the memory declarations and register initialisations,
// sorted: the text of the fmt formats "%s %s=%d" (space, name, initial
// value), "%s .%s %s[%d]=%d" for a typed declaration, "%s %s %s aliases
// %s" for an alias, "%s multimem %s" for a multimem address, and
// "%d:%s=%d" (or "=&ADDR") for a register.
func (hb *hashBuf) init(t *Test) {
	for _, a := range t.Addresses {
		start := len(hb.text)
		b := hb.text
		switch {
		case len(a.Multimem) > 0:
			b = append(b, a.Name...)
			b = append(b, " multimem "...)
			for i, m := range a.Multimem {
				if i > 0 {
					b = append(b, ',')
				}
				b = append(b, m...)
			}
		case a.AliasOf != "":
			b = append(b, a.Space.String()...)
			b = append(b, ' ')
			b = append(b, a.Kind.String()...)
			b = append(b, ' ')
			b = append(b, a.Name...)
			b = append(b, " aliases "...)
			b = append(b, a.AliasOf...)
		case a.Type.Name != "":
			b = append(b, a.Space.String()...)
			b = append(b, " ."...)
			b = append(b, a.Type.Name...)
			b = append(b, ' ')
			b = append(b, a.Name...)
			b = append(b, '[')
			b = strconv.AppendInt(b, int64(a.Elems), 10)
			b = append(b, "]="...)
			b = strconv.AppendInt(b, a.Init, 10)
		default:
			b = append(b, a.Space.String()...)
			b = append(b, ' ')
			b = append(b, a.Name...)
			b = append(b, '=')
			b = strconv.AppendInt(b, a.Init, 10)
		}
		hb.text = b
		hb.item(start)
	}
	for _, r := range t.RegInits {
		start := len(hb.text)
		b := strconv.AppendInt(hb.text, int64(r.Thread), 10)
		b = append(b, ':')
		b = append(b, r.Reg...)
		b = append(b, '=')
		if r.Addr != "" {
			b = append(b, '&')
			b = append(b, r.Addr...)
		} else {
			b = strconv.AppendInt(b, r.Value, 10)
		}
		hb.text = b
		hb.item(start)
	}
	for _, tm := range t.TensorMaps {
		start := len(hb.text)
		b := append(hb.text, tm.Name...)
		b = append(b, " tensormap "...)
		b = append(b, tm.Target...)
		b = append(b, ',')
		b = strconv.AppendInt(b, tm.Bytes, 10)
		hb.text = b
		hb.item(start)
	}
	hb.joinSorted(false)
}

var wordRE = lazyregexp.New(`[A-Za-z_$][A-Za-z0-9_$]*`)

// code prints each thread's place in the hierarchy ("P%d@gpu %d,cluster
// %d,cta %d", with ",warp %d,lane %d" in a test that uses bar.warp.sync)
// and its instructions, with labels renamed in order of appearance
// ("L%02d").
func (hb *hashBuf) code(t *Test) {
	b := hb.out
	lanes := usesWarpSync(t)
	for i, th := range t.Threads {
		b = append(b, 'P')
		b = strconv.AppendInt(b, int64(i), 10)
		b = append(b, "@gpu "...)
		b = strconv.AppendInt(b, int64(th.GPU), 10)
		b = append(b, ",cluster "...)
		b = strconv.AppendInt(b, int64(th.Cluster), 10)
		b = append(b, ",cta "...)
		b = strconv.AppendInt(b, int64(th.CTA), 10)
		if lanes && th.LaneNamed {
			// Lanes matter only to bar.warp.sync: other tests keep their hash.
			b = append(b, ",warp "...)
			b = strconv.AppendInt(b, int64(th.Warp), 10)
			b = append(b, ",lane "...)
			b = strconv.AppendInt(b, int64(th.Lane), 10)
		}
		b = append(b, '\n')
		var labels map[string]string
		for _, in := range th.Instrs {
			if (in.Op == OpLabel || in.Op == OpBranch || in.Op == OpGoto) && labels[in.Label] == "" {
				if labels == nil {
					labels = map[string]string{}
				}
				labels[in.Label] = labelName(len(labels))
			}
		}
		for _, in := range th.Instrs {
			if len(labels) == 0 {
				// Nothing to rename: most tests have no labels, and the
				// expression costs more than the rest of the hash.
				b = append(b, in.Text...)
				b = append(b, '\n')
				continue
			}
			text := wordRE().ReplaceAllStringFunc(in.Text, func(w string) string {
				if n, ok := labels[w]; ok {
					return n
				}
				return w
			})
			b = append(b, text...)
			b = append(b, '\n')
		}
	}
	hb.out = b
}

// labelName is the n-th label's name in the hash: L00, L01, ... (at least
// two digits).
func labelName(n int) string {
	b := make([]byte, 0, 4)
	b = append(b, 'L')
	if n < 10 {
		b = append(b, '0')
	}
	return string(strconv.AppendInt(b, int64(n), 10))
}

// observed prints the registers ("%d:%s") and locations the condition, the
// assertions and the locations clause look at, each once, sorted.
func (hb *hashBuf) observed(t *Test) {
	t.EachTerm(func(tm Term) {
		start := len(hb.text)
		switch tm.Kind {
		case TermReg:
			hb.text = strconv.AppendInt(hb.text, int64(tm.Thread), 10)
			hb.text = append(hb.text, ':')
			hb.text = append(hb.text, tm.Reg...)
		case TermLoc:
			hb.text = append(hb.text, tm.Loc...)
		default:
			return
		}
		hb.item(start)
	})
	hb.joinSorted(true)
}

// usesWarpSync reports whether some thread of t executes bar.warp.sync.
func usesWarpSync(t *Test) bool {
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			if in.Op == OpBarrier && in.BarWarp {
				return true
			}
		}
	}
	return false
}
