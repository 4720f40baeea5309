package gen

import (
	"fmt"
	"sort"
	"strings"
)

// Prototype returns the cycle of a family by its nickname or key (MP or
// WW+RR): each thread one access, or two to different locations in
// program order (Pod), and between threads the communication edge their
// directions call for (Rfe from a write to a read, Coe between writes,
// Fre from a read to a write). The families on one location (CoRR, CoWW,
// ...) use Pos edges.
func Prototype(name string) (string, error) {
	key, same := "", false
	for k, n := range nicknames {
		if n == name {
			key = k
		}
	}
	for k, n := range sameNicknames {
		if n == name {
			key, same = k, true
		}
	}
	if key == "" {
		key = name
	}
	threads := strings.Split(key, "+")
	var edges []string
	po := "Pod"
	if same {
		po = "Pos"
	}
	for i, th := range threads {
		if th == "" || len(th) > 2 || strings.Trim(th, "RW") != "" {
			return "", fmt.Errorf("unknown family %q: expected a nickname (%s) or a key of W and R per thread, as WW+RR", name, strings.Join(Nicknames(), ", "))
		}
		if len(th) == 2 {
			edges = append(edges, po+th)
		}
		next := threads[(i+1)%len(threads)]
		switch last, first := th[len(th)-1], next[0]; {
		case last == 'W' && first == 'R':
			edges = append(edges, "Rfe")
		case last == 'W' && first == 'W':
			edges = append(edges, "Coe")
		case last == 'R' && first == 'W':
			edges = append(edges, "Fre")
		default:
			return "", fmt.Errorf("family %q: a thread that ends with a read cannot pass to one that starts with a read", name)
		}
	}
	return strings.Join(edges, " "), nil
}

// Nicknames lists the families' nicknames, sorted.
func Nicknames() []string {
	var out []string
	for _, n := range nicknames {
		out = append(out, n)
	}
	for _, n := range sameNicknames {
		out = append(out, n)
	}
	sort.Strings(out)
	return compact(out)
}

func compact(xs []string) []string {
	var out []string
	for i, x := range xs {
		if i == 0 || x != xs[i-1] {
			out = append(out, x)
		}
	}
	return out
}
