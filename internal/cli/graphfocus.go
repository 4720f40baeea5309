package cli

import (
	"sort"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/rules"
)

// Highlight names of the edges a picture of an allowed outcome marks.
const (
	notOrderedNote = "not ordered before the read"
	noSyncNote     = "does not synchronize"
	pathNote       = "path"
)

// outcomeFocus picks what a picture of an outcome (graph -outcome without
// -show) draws: the events that explain it, with program order and
// reads-from between them, and the edges of the explanation highlighted.
// For a forbidden outcome, the witnesses of the checks that reject it and
// the writes their reads read from; for an allowed one, what -explain
// says: each read and its write and, for a newer write the read does not
// see, that write (fr from the read, highlighted), the path that was meant
// to order them and the reads-from steps of it that do not synchronize. It
// returns nil events when there is nothing to focus on (all are drawn).
func outcomeFocus(m *checker.Model, c checker.Candidate, witness map[string][]rules.Edge) (only []int, highlight map[string][]rules.Edge) {
	x := c.Execution
	keep := map[int]bool{}
	add := func(e int) {
		if e >= 0 && e < len(x.Events) {
			keep[e] = true
		}
	}
	addRead := func(r int) {
		add(r)
		if r < len(x.RF) {
			add(x.RF[r])
		}
	}
	highlight = map[string][]rules.Edge{}
	if !c.Consistent {
		for check, edges := range witness {
			highlight[check] = edges
			for _, e := range edges {
				for _, ev := range []int{e.From, e.To} {
					addRead(ev)
				}
			}
		}
	} else {
		reads, err := m.AllowedReads(c)
		if err != nil {
			return nil, witness
		}
		stale := false
		for _, rs := range reads {
			if len(rs.Unordered) > 0 {
				stale = true
			}
		}
		for _, rs := range reads {
			if stale && len(rs.Unordered) == 0 {
				continue
			}
			addRead(rs.Read)
			for _, u := range rs.Unordered {
				add(u.Write)
				highlight[notOrderedNote] = append(highlight[notOrderedNote], rules.Edge{From: rs.Read, To: u.Write, Rel: "fr"})
				for _, e := range u.Path {
					addRead(e.From)
					addRead(e.To)
					if e.Rel != "po" && e.Rel != "rf" {
						highlight[pathNote] = append(highlight[pathNote], e)
					}
				}
				for _, h := range u.Hops {
					highlight[noSyncNote] = append(highlight[noSyncNote], rules.Edge{From: h.Write, To: h.Read, Rel: "rf"})
				}
			}
		}
	}
	if len(keep) == 0 {
		return nil, witness
	}
	for e := range keep {
		only = append(only, e)
	}
	sort.Ints(only)
	return only, highlight
}
