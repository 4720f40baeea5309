package gen

import (
	"fmt"
	"strings"
)

// Vary turns a cycle into one with alternatives for Cross: each
// program-order edge (Pod.., Pos..) becomes each of po's choices that
// applies to it, and each access takes each of sem's annotations that
// applies to it.
//
// A po choice is "po" (the edge as it is), a fence without its ending
// (Fence.sc.gpu, Fence.acq_rel.cta, Fence.proxy.alias, Fenced), DpData
// (from a read to a write) or DpCtrl (from a read). A sem choice is an
// annotation (Weak, Rlx.gpu, Rel.gpu for writes, Acq.gpu for reads), or
// RelAcq.SCOPE: release for writes and acquire for reads.
func Vary(cycle string, po, sem []string) (string, error) {
	c, err := ParseCycle(cycle)
	if err != nil {
		return "", err
	}
	for _, p := range po {
		if p == "po" || p == "Fenced" || p == "DpData" || p == "DpCtrl" {
			continue
		}
		if _, err := ParseEdge(p + "dWR"); err != nil {
			return "", fmt.Errorf("-po %s: expected po, Fenced, DpData, DpCtrl or a fence such as Fence.sc.gpu", p)
		}
	}
	for _, s := range sem {
		if _, ok := relAcq(s); ok {
			continue
		}
		if _, isNote, err := ParseAnnotation(s); !isNote || err != nil {
			return "", fmt.Errorf("-sem %s: expected Weak, Rlx.SCOPE, Rel.SCOPE, Acq.SCOPE or RelAcq.SCOPE (SCOPE cta, cluster, gpu or sys)", s)
		}
	}
	var toks []string
	n := len(c.Edges)
	for i, e := range c.Edges {
		notes := c.Notes[i]
		in := c.Edges[(i+n-1)%n]
		rmw := e.Kind == Rmw || in.Kind == Rmw
		if len(sem) > 0 && len(notes) == 0 && !rmw {
			if alts := semChoices(sem, e.Src); len(alts) > 0 {
				toks = append(toks, strings.Join(alts, ","))
			}
		}
		for _, a := range notes {
			toks = append(toks, a.Text)
		}
		if e.Kind != Po || len(po) == 0 {
			toks = append(toks, e.Text)
			continue
		}
		toks = append(toks, strings.Join(poChoices(po, e), ","))
	}
	return strings.Join(toks, " "), nil
}

// relAcq reads RelAcq.SCOPE and returns the scope.
func relAcq(s string) (string, bool) {
	scope, ok := strings.CutPrefix(s, "RelAcq.")
	return scope, ok
}

// semChoices lists the annotations of sem that apply to an access of
// direction d.
func semChoices(sem []string, d Dir) []string {
	var out []string
	for _, s := range sem {
		if scope, ok := relAcq(s); ok {
			if d == W {
				out = append(out, "Rel."+scope)
			} else {
				out = append(out, "Acq."+scope)
			}
			continue
		}
		a, _, _ := ParseAnnotation(s)
		if (a.Sem.String() == "acquire" && d == W) || (a.Sem.String() == "release" && d == R) {
			continue
		}
		out = append(out, s)
	}
	return out
}

// poChoices spells each of po's choices for a program-order edge, leaving
// out those that do not apply to it (a dependency from a write).
func poChoices(po []string, e Edge) []string {
	sd := "d"
	if e.Same {
		sd = "s"
	}
	var out []string
	for _, p := range po {
		switch p {
		case "po":
			out = append(out, e.Text)
		case "DpData":
			if e.Src == R && e.Dst == W {
				out = append(out, "DpData"+sd+"W")
			}
		case "DpCtrl":
			if e.Src == R {
				out = append(out, "DpCtrl"+sd+e.Dst.String())
			}
		default:
			out = append(out, p+sd+e.Src.String()+e.Dst.String())
		}
	}
	if len(out) == 0 {
		out = append(out, e.Text)
	}
	return out
}
