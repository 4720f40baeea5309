package gen

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// Placement says where the threads of a test run: all in one CTA, each in
// a CTA of its own (in one cluster, or without clusters), each on a GPU
// of its own, or in groups that share a CTA.
type Placement struct {
	// Name is how the placement is written (-placement) and the suffix
	// it adds to test names ("" for the default, every thread in a CTA of
	// its own on one GPU).
	Name string
	// groups[i] is the CTA of thread i, for a placement by groups.
	groups map[int]int
	kind   string
}

// placementNames are the named placements, each with what it means.
var placementNames = []struct{ name, doc string }{
	{"gpu", "every thread in a CTA of its own, on one GPU (the default)"},
	{"cta", "every thread in one CTA"},
	{"cluster", "every thread in a CTA of its own, the CTAs in one cluster"},
	{"sys", "every thread on a GPU of its own"},
}

// ParsePlacement reads a placement: gpu, cta, cluster, sys, or groups of
// thread numbers that share a CTA, separated by '.', as in 01.2 (P0 and
// P1 in CTA 0, P2 in CTA 1, on one GPU).
func ParsePlacement(s string) (Placement, error) {
	for _, p := range placementNames {
		if s == p.name {
			name := s
			if s == "gpu" {
				name = ""
			}
			return Placement{Name: name, kind: s}, nil
		}
	}
	groups := map[int]int{}
	parts := strings.Split(s, ".")
	for g, part := range parts {
		if part == "" {
			return Placement{}, placementError(s, "an empty group")
		}
		for _, d := range part {
			k, err := strconv.Atoi(string(d))
			if err != nil {
				return Placement{}, placementError(s, fmt.Sprintf("%q is not a thread number", string(d)))
			}
			if _, dup := groups[k]; dup {
				return Placement{}, placementError(s, fmt.Sprintf("thread %d is in two groups", k))
			}
			groups[k] = g
		}
	}
	for k := range groups {
		if k >= len(groups) {
			return Placement{}, placementError(s, fmt.Sprintf("thread %d is named but not every thread below it is", k))
		}
	}
	return Placement{Name: "ctas" + strings.ReplaceAll(s, ".", "-"), groups: groups, kind: "groups"}, nil
}

func placementError(s, why string) error {
	var names []string
	for _, p := range placementNames {
		names = append(names, p.name+" ("+p.doc+")")
	}
	return fmt.Errorf("placement %q: %s; expected %s, or groups of threads that share a CTA, as 01.2", s, why, strings.Join(names, ", "))
}

// place returns where thread i of n runs; it fails for a placement by
// groups that does not name exactly the test's threads.
func (p Placement) place(n int) ([]program.Place, error) {
	out := make([]program.Place, n)
	for i := range out {
		switch p.kind {
		case "cta":
			out[i] = program.Place{Cluster: -1}
		case "cluster":
			out[i] = program.Place{CTA: i, Cluster: 0}
		case "sys":
			out[i] = program.Place{GPU: i, Cluster: -1}
		case "groups":
			if len(p.groups) != n {
				return nil, fmt.Errorf("placement %s names %d threads, but the test has %d", p.Name, len(p.groups), n)
			}
			out[i] = program.Place{CTA: p.groups[i], Cluster: -1}
		default:
			out[i] = program.Place{CTA: i, Cluster: -1}
		}
	}
	return out, nil
}
