package litmus

import (
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/internal/lazyregexp"
)

// Hash is a digest of the test's normalised text, printed as Hash= in
// herd-style logs: equal tests get equal hashes whatever their name,
// comments, layout or label names. As herd7's does, it covers the initial
// state, the code and the observed locations, and leaves out the condition
// (so a test and its flipped twin hash alike). It is the hex MD5 of the
// MD5s of those three parts.
func Hash(t *Test) string {
	h := md5.New()
	for _, part := range []string{hashInit(t), hashCode(t), hashObserved(t)} {
		d := md5.Sum([]byte(part))
		h.Write(d[:])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// hashInit prints the memory declarations and register initialisations,
// sorted.
func hashInit(t *Test) string {
	var items []string
	for _, a := range t.Addresses {
		s := fmt.Sprintf("%s %s=%d", a.Space, a.Name, a.Init)
		if a.Type.Name != "" {
			s = fmt.Sprintf("%s .%s %s[%d]=%d", a.Space, a.Type.Name, a.Name, a.Elems, a.Init)
		}
		if a.AliasOf != "" {
			s = fmt.Sprintf("%s %s %s aliases %s", a.Space, a.Kind, a.Name, a.AliasOf)
		}
		if len(a.Multimem) > 0 {
			s = fmt.Sprintf("%s multimem %s", a.Name, strings.Join(a.Multimem, ","))
		}
		items = append(items, s)
	}
	for _, r := range t.RegInits {
		v := fmt.Sprint(r.Value)
		if r.Addr != "" {
			v = "&" + r.Addr
		}
		items = append(items, fmt.Sprintf("%d:%s=%s", r.Thread, r.Reg, v))
	}
	sort.Strings(items)
	return strings.Join(items, "; ")
}

var wordRE = lazyregexp.New(`[A-Za-z_$][A-Za-z0-9_$]*`)

// hashCode prints each thread's place in the hierarchy and its
// instructions, with labels renamed in order of appearance.
func hashCode(t *Test) string {
	var b strings.Builder
	lanes := usesWarpSync(t)
	for i, th := range t.Threads {
		if lanes && th.LaneNamed {
			// Lanes matter only to bar.warp.sync: other tests keep their hash.
			fmt.Fprintf(&b, "P%d@gpu %d,cluster %d,cta %d,warp %d,lane %d\n", i, th.GPU, th.Cluster, th.CTA, th.Warp, th.Lane)
		} else {
			fmt.Fprintf(&b, "P%d@gpu %d,cluster %d,cta %d\n", i, th.GPU, th.Cluster, th.CTA)
		}
		labels := map[string]string{}
		for _, in := range th.Instrs {
			if (in.Op == OpLabel || in.Op == OpBranch || in.Op == OpGoto) && labels[in.Label] == "" {
				labels[in.Label] = fmt.Sprintf("L%02d", len(labels))
			}
		}
		for _, in := range th.Instrs {
			if len(labels) == 0 {
				// Nothing to rename: most tests have no labels, and the
				// expression costs more than the rest of the hash.
				b.WriteString(in.Text + "\n")
				continue
			}
			text := wordRE().ReplaceAllStringFunc(in.Text, func(w string) string {
				if n, ok := labels[w]; ok {
					return n
				}
				return w
			})
			b.WriteString(text + "\n")
		}
	}
	return b.String()
}

// hashObserved prints the registers and locations the condition, the
// assertions and the locations clause look at, sorted.
func hashObserved(t *Test) string {
	seen := map[string]bool{}
	t.EachTerm(func(tm Term) {
		switch tm.Kind {
		case TermReg:
			seen[fmt.Sprintf("%d:%s", tm.Thread, tm.Reg)] = true
		case TermLoc:
			seen[tm.Loc] = true
		}
	})
	var out []string
	for k := range seen {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
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
