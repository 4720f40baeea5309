package gen

import (
	"fmt"
	"sort"
	"strings"
)

// FamilyOptions bound the cycles Enumerate lists, as diy7's options do.
type FamilyOptions struct {
	// Relax are the edges every cycle uses at least once (diy7 -relax);
	// Safe the others it may use (-safe). With no Relax, cycles use Safe
	// only.
	Relax, Safe []Edge
	// Size is the most edges a cycle has (-size), Procs the most threads
	// (-nprocs).
	Size, Procs int
}

// ParseEdges reads a list of edges separated by commas or spaces; a '*'
// in place of a direction stands for both (PodR* is PodRR and PodRW).
func ParseEdges(s string) ([]Edge, error) {
	var out []Edge
	seen := map[string]bool{}
	for _, tok := range strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' }) {
		for _, name := range expandStar(tok) {
			e, err := ParseEdge(name)
			if err != nil {
				return nil, err
			}
			if !seen[e.Text] {
				seen[e.Text] = true
				out = append(out, e)
			}
		}
	}
	return out, nil
}

// expandStar expands each '*' of an edge name into R and W.
func expandStar(s string) []string {
	i := strings.IndexByte(s, '*')
	if i < 0 {
		return []string{s}
	}
	var out []string
	for _, d := range []string{"R", "W"} {
		out = append(out, expandStar(s[:i]+d+s[i+1:])...)
	}
	return out
}

// Enumerate lists every cycle of at most o.Size edges and o.Procs threads
// made of o.Relax and o.Safe edges with at least one of o.Relax, each once
// up to rotation, in order of size and then of spelling.
func Enumerate(o FamilyOptions) ([]*Cycle, error) {
	if o.Size < 2 {
		return nil, fmt.Errorf("-size %d: a cycle has at least two edges", o.Size)
	}
	if o.Procs < 1 {
		return nil, fmt.Errorf("-nprocs %d: a test has at least one thread", o.Procs)
	}
	first := o.Relax
	pool := append(append([]Edge(nil), o.Relax...), o.Safe...)
	if len(first) == 0 {
		first = o.Safe
	}
	if len(first) == 0 {
		return nil, fmt.Errorf("no edges: give -relax, -safe or both")
	}
	seen := map[string]bool{}
	var out []*Cycle
	isRelax := map[string]bool{}
	for _, e := range o.Relax {
		isRelax[e.Text] = true
	}
	var walk func(seq []Edge, ext int)
	walk = func(seq []Edge, ext int) {
		last := seq[len(seq)-1]
		if len(seq) >= 2 && last.Dst == seq[0].Src {
			c := &Cycle{Edges: append([]Edge(nil), seq...), Notes: make([][]Annotation, len(seq))}
			if key := c.canonical(); !seen[key] && c.check() == nil {
				seen[key] = true
				out = append(out, c.normal())
			}
		}
		if len(seq) == o.Size {
			return
		}
		for _, e := range pool {
			if e.Src != last.Dst {
				continue
			}
			x := ext
			if e.Ext {
				x++
			}
			if x > o.Procs {
				continue
			}
			walk(append(seq, e), x)
		}
	}
	for _, e := range first {
		ext := 0
		if e.Ext {
			ext = 1
		}
		walk([]Edge{e}, ext)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].Edges) != len(out[j].Edges) {
			return len(out[i].Edges) < len(out[j].Edges)
		}
		return out[i].String() < out[j].String()
	})
	return out, nil
}

// canonical spells the cycle's least rotation, which identifies it up to
// rotation.
func (c *Cycle) canonical() string {
	best := ""
	for k := range c.Edges {
		s := c.rotate(k).String()
		if best == "" || s < best {
			best = s
		}
	}
	return best
}
