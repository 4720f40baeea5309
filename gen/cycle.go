package gen

import (
	"fmt"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// Cycle is a cycle of edges and the annotations of its events. Event i is
// the source of Edges[i] and the target of the edge before it (the last
// edge's target is event 0).
type Cycle struct {
	Edges []Edge
	// Notes[i] are the annotations of event i.
	Notes [][]Annotation
}

// ParseCycle reads a cycle: edges and annotations separated by spaces, as
// in "PodWW Rel.gpu Rfe Acq.gpu PodRR Fre". An annotation qualifies the
// event after the edge before it (one written first qualifies the source
// of the first edge). The cycle must close: each edge starts with the
// direction the edge before it ends with, and the last edge ends where
// the first starts.
func ParseCycle(s string) (*Cycle, error) {
	c := &Cycle{}
	var pending []Annotation
	for _, tok := range strings.Fields(s) {
		a, isNote, err := ParseAnnotation(tok)
		if err != nil {
			return nil, err
		}
		if isNote {
			pending = append(pending, a)
			continue
		}
		e, err := ParseEdge(tok)
		if err != nil {
			return nil, err
		}
		c.Edges = append(c.Edges, e)
		c.Notes = append(c.Notes, pending)
		pending = nil
	}
	if len(c.Edges) == 0 {
		return nil, fmt.Errorf("empty cycle: give edges, as in 'PodWW Rfe PodRR Fre'")
	}
	if len(pending) > 0 {
		// Annotations after the last edge qualify its target, event 0.
		c.Notes[0] = append(pending, c.Notes[0]...)
	}
	if err := c.check(); err != nil {
		return nil, err
	}
	return c, nil
}

// String spells the cycle with its annotations.
func (c *Cycle) String() string {
	var parts []string
	for i, e := range c.Edges {
		for _, a := range c.Notes[i] {
			parts = append(parts, a.Text)
		}
		parts = append(parts, e.Text)
	}
	return strings.Join(parts, " ")
}

// Edgestring spells the edges alone, as diy7's Cycle= line.
func (c *Cycle) edgeString() string {
	var parts []string
	for _, e := range c.Edges {
		parts = append(parts, e.Text)
	}
	return strings.Join(parts, " ")
}

// check rejects cycles that do not close or that no test can follow.
func (c *Cycle) check() error {
	n := len(c.Edges)
	for i, e := range c.Edges {
		next := c.Edges[(i+1)%n]
		if e.Dst != next.Src {
			return fmt.Errorf("cycle %q: %s ends on a %s but %s starts from a %s", c, e, dirWord(e.Dst), next, dirWord(next.Src))
		}
	}
	changes := 0
	for _, e := range c.Edges {
		if !e.Same {
			changes++
		}
	}
	if changes == 1 {
		return fmt.Errorf("cycle %q: one edge changes location (d) and no other returns to the first: a cycle changes location never or at least twice", c)
	}
	ext := 0
	for _, e := range c.Edges {
		if e.Ext {
			ext++
		}
	}
	if ext == 0 {
		return fmt.Errorf("cycle %q: no external edge (Rfe, Coe, Fre) returns to the first event: program order alone cannot (a test of one thread closes its cycle with one external edge, as in PosWR Fre)", c)
	}
	l, err := c.layout()
	if err != nil {
		return fmt.Errorf("cycle %q: %v", c, err)
	}
	if c.hasSync() {
		t := &program.Test{}
		for i := 0; i < l.nlocs; i++ {
			t.Addrs = append(t.Addrs, program.Addr{Name: "l", AliasOf: -1})
		}
		if _, err := planSync(l, Placement{}, t); err != nil {
			return fmt.Errorf("cycle %q: %v", c, err)
		}
	}
	return nil
}

// allSame reports whether every edge stays on one location.
func (c *Cycle) allSame() bool {
	for _, e := range c.Edges {
		if !e.Same {
			return false
		}
	}
	return true
}

func dirWord(d Dir) string {
	if d == R {
		return "read (R)"
	}
	return "write (W)"
}

// rotate returns the cycle started at event k.
func (c *Cycle) rotate(k int) *Cycle {
	n := len(c.Edges)
	out := &Cycle{Edges: make([]Edge, n), Notes: make([][]Annotation, n)}
	for i := range c.Edges {
		out.Edges[i] = c.Edges[(k+i)%n]
		out.Notes[i] = c.Notes[(k+i)%n]
	}
	return out
}

// threadStarts lists the events that start a thread: those after an
// external edge.
func (c *Cycle) threadStarts() []int {
	n := len(c.Edges)
	var out []int
	for i := range c.Edges {
		if c.Edges[(i+n-1)%n].Ext {
			out = append(out, i)
		}
	}
	return out
}
