package litmus

// This file gives a cluster to the threads whose placement names none
// (docs/model.md, "Threads that name no cluster"). A CTA is in exactly one
// cluster, so such a thread joins the cluster another thread of its CTA
// names. A CTA none of whose threads names a cluster is a cluster of its
// own, as in a kernel launched without clusters: it never shares a
// cluster with a CTA that a test placed explicitly. Its cluster is
// numbered like the CTA when no placement names that number in its grid,
// and otherwise gets the next number no placement of the grid uses. A
// grid is one kernel launch on one GPU (every thread of a test without
// kernels is in the grid of its GPU): CTA and cluster numbers are per grid.

// gridKey identifies the grid (kernel launch) of a device thread.
type gridKey struct{ gpu, launch int }

// ctaKey identifies a CTA: its number within its grid.
type ctaKey struct {
	grid gridKey
	cta  int
}

// ctaOf returns the CTA of a device thread.
func ctaOf(th *Thread) ctaKey { return ctaKey{gridKey{th.GPU, th.Launch}, th.CTA} }

// numberLaunches sets the Launch of every device thread (Thread.Launch):
// 1 + the index of its kernel in the order kernels first appear.
func numberLaunches(t *Test) {
	launch := map[string]int{}
	for _, th := range t.Threads {
		if th.Host || th.Kernel == "" {
			continue
		}
		if _, ok := launch[th.Kernel]; !ok {
			launch[th.Kernel] = len(launch) + 1
		}
		th.Launch = launch[th.Kernel]
	}
}

// placeClusters sets the cluster of every thread whose placement names
// none.
func (p *parser) placeClusters() {
	named := map[ctaKey]int{}          // the cluster a placement names for a CTA
	used := map[gridKey]map[int]bool{} // the cluster numbers in use in each grid
	highest := map[gridKey]int{}       // the highest cluster or CTA number in each grid
	var unnamed []*Thread              // threads whose CTA no placement puts in a cluster
	note := func(g gridKey, n int) {
		if used[g] == nil {
			used[g] = map[int]bool{}
			highest[g] = n
		}
		used[g][n] = true
		highest[g] = max(highest[g], n)
	}
	for _, tb := range p.threads {
		th := tb.th
		if tb.clusterNamed {
			k := ctaOf(th)
			if _, ok := named[k]; !ok {
				named[k] = th.Cluster
			}
			note(k.grid, th.Cluster)
		}
	}
	for _, tb := range p.threads {
		th := tb.th
		if tb.clusterNamed || th.Host { // a host thread is in no cluster
			continue
		}
		if c, ok := named[ctaOf(th)]; ok {
			th.Cluster = c
			continue
		}
		unnamed = append(unnamed, th)
	}
	// First the CTAs whose own number is free, so that a test naming no
	// cluster keeps the numbering it always had; then the others.
	own := map[ctaKey]int{}
	var clashing []*Thread
	for _, th := range unnamed {
		k := ctaOf(th)
		if c, ok := own[k]; ok {
			th.Cluster = c
			continue
		}
		if used[k.grid][th.CTA] {
			clashing = append(clashing, th)
			continue
		}
		own[k] = th.CTA
		th.Cluster = th.CTA
	}
	for _, th := range unnamed {
		note(ctaOf(th).grid, th.CTA)
	}
	for _, th := range clashing {
		k := ctaOf(th)
		if c, ok := own[k]; ok {
			th.Cluster = c
			continue
		}
		c := highest[k.grid] + 1
		note(k.grid, c)
		own[k] = c
		th.Cluster = c
	}
}
