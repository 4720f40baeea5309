package gen

import (
	"sort"
	"strings"
)

// Test names follow diy7's scheme. A family name says, thread by thread,
// whether the thread's first and last events read or write ("WW+RR" is
// a thread that writes twice and one that reads twice); the most common
// families have nicknames (MP for WW+RR). Tags follow, one per thread with
// program-order edges, naming those edges (po, pos, fence.sc.gpu, data,
// ctrl, rmw, rfi, ...) and, where an edge's events are annotated, their
// annotations (p for a plain access): "MP+poprel.gpu+poacq.gpup". When
// every thread has the same tag it is written once with an s (SB+fence.sc.gpus),
// and plain po is left out (MP). A placement other than the default adds
// its name (MP+cta). A synchronized edge (BarSync, Mbar, Tma, ...) between
// two threads adds its name as written (W+R+MbarsWR).

// nicknames are diy7's names of the common families, by family key.
var nicknames = map[string]string{
	"WW+RR": "MP", "WR+WR": "SB", "RW+RW": "LB", "WW+WR": "R", "WW+RW": "S", "WW+WW": "2+2W",
	"WR+WR+WR": "3.SB", "WR+WR+WR+WR": "4.SB", "RW+RW+RW": "3.LB", "RW+RW+RW+RW": "4.LB",
	"WW+WW+WW": "3.2W", "WW+WW+WW+WW": "4.2W",
	"W+RW+RR": "WRC", "W+RR+WR": "RWC", "W+RW+RW": "WWC", "W+RW+WR": "WRW+WR", "W+RR+WW": "WRR+2W",
	"W+RW+WW": "WRW+2W", "WW+RR+WR": "W+RWC", "WW+RW+RR": "ISA2", "W+RR+W+RR": "IRIW",
	"W+RR+W+RW": "IRRWIW", "W+RW+W+RR": "IRRWIW", "W+RW+W+RW": "IRWIW",
	"WW+RW+WR": "Z6.0", "WW+WW+RW": "Z6.1", "WW+RW+RW": "Z6.2", "WW+WW+RR": "Z6.3", "WW+WR+WR": "Z6.4", "WW+WW+WR": "Z6.5",
}

// sameNicknames are the nicknames of families on one location.
var sameNicknames = map[string]string{
	"WW": "CoWW", "RW": "CoRW1", "W+RW": "CoRW2", "W+WR": "CoWR", "W+RR": "CoRR", "WR": "CoWR0",
}

// pointRank orders a thread's points as diy7 does when it picks the
// representative rotation of a family: W < WW < RR < RW < WR < R.
var pointRank = map[string]int{"W": 0, "WW": 1, "RR": 2, "RW": 3, "WR": 4, "R": 5}

// points spells a thread's first and last directions: "W" for a thread of
// one write, "WR" for one that starts with a write and ends with a read.
func (l *layout) points(th int) string {
	evs := l.threads[th]
	first := l.c.Edges[evs[0]].Src
	if len(evs) == 1 {
		return first.String()
	}
	return first.String() + l.c.Edges[evs[len(evs)-1]].Src.String()
}

// normal returns the cycle rotated to its representative thread: the
// rotation whose sequence of points is least, ties broken by the
// spelling of the cycle.
func (c *Cycle) normal() *Cycle {
	type cand struct {
		ranks []int
		text  string
		c     *Cycle
	}
	var cands []cand
	for _, s := range c.threadStarts() {
		r := c.rotate(s)
		l, err := r.layout()
		if err != nil {
			return c
		}
		var ranks []int
		for th := range l.threads {
			ranks = append(ranks, pointRank[l.points(th)])
		}
		cands = append(cands, cand{ranks, r.String(), r})
	}
	sort.SliceStable(cands, func(i, j int) bool {
		a, b := cands[i], cands[j]
		for k := range a.ranks {
			if a.ranks[k] != b.ranks[k] {
				return a.ranks[k] < b.ranks[k]
			}
		}
		return a.text < b.text
	})
	return cands[0].c
}

// FamilyName returns the family of a cycle: its key ("WW+RR") and nickname
// ("MP"), or the key when it has none.
func FamilyName(c *Cycle) string {
	n := c.normal()
	l, err := n.layout()
	if err != nil {
		return ""
	}
	var pts []string
	for th := range l.threads {
		pts = append(pts, l.points(th))
	}
	key := strings.Join(pts, "+")
	if c.allSame() {
		if nick, ok := sameNicknames[key]; ok {
			return nick
		}
	}
	if nick, ok := nicknames[key]; ok {
		return nick
	}
	return key
}

// Name returns the name diy7 gives the test of a cycle, with the
// placement's suffix.
func Name(c *Cycle, p Placement) string {
	n := c.normal()
	l, err := n.layout()
	if err != nil {
		return "invalid"
	}
	var tags []string
	var isolated []string
	annotatedIsolated := false
	for _, evs := range l.threads {
		if len(evs) == 1 {
			isolated = append(isolated, annotationName(n.Notes[evs[0]]))
			annotatedIsolated = annotatedIsolated || len(n.Notes[evs[0]]) > 0
			continue
		}
		var parts []string
		for k := 0; k+1 < len(evs); k++ {
			e := evs[k]
			edge := n.Edges[e]
			tag := edge.tag()
			if len(n.Notes[e]) > 0 || len(n.Notes[evs[k+1]]) > 0 {
				tag += annotationName(n.Notes[e]) + annotationName(n.Notes[evs[k+1]])
			}
			parts = append(parts, tag)
		}
		tags = append(tags, strings.Join(parts, "-"))
	}
	name := []string{FamilyName(c)}
	switch {
	case len(tags) == 0:
	case allEqual(tags) && tags[0] == "po":
	case allEqual(tags) && len(tags) == 1 && tags[0] == "pos":
	case allEqual(tags) && len(tags) > 1:
		name = append(name, tags[0]+"s")
	default:
		name = append(name, tags...)
	}
	if annotatedIsolated {
		name = append(name, strings.Join(isolated, ""))
	}
	// Synchronized edges run between threads, where no tag names them:
	// each is named as written (MbarsWR), in the order of the cycle.
	for _, e := range n.Edges {
		if e.Kind == Synced {
			name = append(name, e.Text)
		}
	}
	if p.Name != "" {
		name = append(name, p.Name)
	}
	return strings.Join(name, "+")
}

func allEqual(xs []string) bool {
	for _, x := range xs {
		if x != xs[0] {
			return false
		}
	}
	return true
}
