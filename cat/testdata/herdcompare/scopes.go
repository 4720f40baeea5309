package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/litmus"
)

// scopeTree writes the placement of t's threads as a herd scope tree,
// "scopes: (sys (gpu (cta P0 P1) (cta P2)))", so that a model whose bell
// declares the levels sys, gpu and cta (an enum scopes with a narrower
// function) reads which threads share a CTA or a GPU, with tag2scope,
// instead of taking every thread to be in one scope. The tree has no
// cluster level: a test with a .cluster scope has no such port.
func scopeTree(t *litmus.Test) (string, error) {
	for _, th := range t.Threads {
		for _, in := range th.Instrs {
			if in.Scope == litmus.ScopeCluster {
				return "", fmt.Errorf("%q: .cluster scope, which the scope tree has no level for", in.Text)
			}
		}
	}
	// gpus[g][c] lists the threads of CTA c of GPU g, in thread order.
	gpus := map[int]map[int][]string{}
	for i, th := range t.Threads {
		if gpus[th.GPU] == nil {
			gpus[th.GPU] = map[int][]string{}
		}
		gpus[th.GPU][th.CTA] = append(gpus[th.GPU][th.CTA], fmt.Sprintf("P%d", i))
	}
	var b strings.Builder
	b.WriteString("scopes: (sys")
	for _, g := range sortedKeys(gpus) {
		b.WriteString(" (gpu")
		for _, c := range sortedKeys(gpus[g]) {
			fmt.Fprintf(&b, " (cta %s)", strings.Join(gpus[g][c], " "))
		}
		b.WriteString(")")
	}
	b.WriteString(")\n")
	return b.String(), nil
}

// sortedKeys is m's keys in increasing order.
func sortedKeys[V any](m map[int]V) []int {
	var ks []int
	for k := range m {
		ks = append(ks, k)
	}
	sort.Ints(ks)
	return ks
}
