package litmus

// This file gives a cluster to the threads whose placement names none
// (docs/model.md, "Threads that name no cluster"). A CTA is in exactly one
// cluster, so such a thread joins the cluster another thread of its CTA
// names. A CTA none of whose threads names a cluster is a cluster of its
// own, as in a kernel launched without clusters: it never shares a
// cluster with a CTA that a test placed explicitly. Its cluster is
// numbered like the CTA when no placement names that number on its GPU,
// and otherwise gets the next number no placement of the GPU uses.

// placeClusters sets the cluster of every thread whose placement names
// none.
func (p *parser) placeClusters() {
	type ctaKey struct{ gpu, cta int }
	named := map[ctaKey]int{}      // the cluster a placement names for a CTA
	used := map[int]map[int]bool{} // the cluster numbers in use on each GPU
	highest := map[int]int{}       // the highest cluster or CTA number on each GPU
	var unnamed []*Thread          // threads whose CTA no placement puts in a cluster
	note := func(gpu, n int) {
		if used[gpu] == nil {
			used[gpu] = map[int]bool{}
			highest[gpu] = n
		}
		used[gpu][n] = true
		highest[gpu] = max(highest[gpu], n)
	}
	for _, tb := range p.threads {
		th := tb.th
		if tb.clusterNamed {
			k := ctaKey{th.GPU, th.CTA}
			if _, ok := named[k]; !ok {
				named[k] = th.Cluster
			}
			note(th.GPU, th.Cluster)
		}
	}
	for _, tb := range p.threads {
		th := tb.th
		if tb.clusterNamed || th.Host { // a host thread is in no cluster
			continue
		}
		if c, ok := named[ctaKey{th.GPU, th.CTA}]; ok {
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
		k := ctaKey{th.GPU, th.CTA}
		if c, ok := own[k]; ok {
			th.Cluster = c
			continue
		}
		if used[th.GPU][th.CTA] {
			clashing = append(clashing, th)
			continue
		}
		own[k] = th.CTA
		th.Cluster = th.CTA
	}
	for _, th := range unnamed {
		note(th.GPU, th.CTA)
	}
	for _, th := range clashing {
		k := ctaKey{th.GPU, th.CTA}
		if c, ok := own[k]; ok {
			th.Cluster = c
			continue
		}
		c := highest[th.GPU] + 1
		note(th.GPU, c)
		own[k] = c
		th.Cluster = c
	}
}
