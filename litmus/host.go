package litmus

import (
	"slices"

	"github.com/ptxmm/ptxmm/source"
)

// This file checks, once a test is read, what its host threads and kernels
// must agree on (docs/litmus.md, section 8): every device thread of a test
// with host threads belongs to a kernel, every kernel is launched exactly
// once (directly or as a node of a launched graph) and runs on one GPU,
// graphs are built before they are launched and have no cycle, streams and
// CUDA events belong to one host thread, and host accesses reach global
// memory only. What depends on the path a host thread takes (a launch in a
// loop) is checked when the thread runs.

// launchSite is where a kernel or a graph is launched.
type launchSite struct {
	in   *Instr
	host *Thread
	pos  source.Pos
}

// checkHost runs the checks of this file.
func (p *parser) checkHost(t *Test) {
	var hosts []*Thread
	kernels := map[string][]*Thread{}
	var kernelOrder []string
	for _, th := range t.Threads {
		if th.Host {
			hosts = append(hosts, th)
			continue
		}
		if th.Kernel != "" {
			if kernels[th.Kernel] == nil {
				kernelOrder = append(kernelOrder, th.Kernel)
			}
			kernels[th.Kernel] = append(kernels[th.Kernel], th)
		}
	}
	if len(hosts) == 0 {
		for _, k := range kernelOrder {
			th := kernels[k][0]
			p.errs.Add(th.Pos, "%s belongs to kernel %s, but the test has no host thread to launch it: add a host thread (%s) that runs cudaLaunchKernel %s", th.Name, k, hostThreadExample(p.format), k)
		}
		return
	}
	for _, th := range t.Threads {
		if !th.Host && th.Kernel == "" {
			p.errs.Add(th.Pos, "%s names no kernel: in a test with host threads every device thread belongs to a kernel that a host thread launches (%s)", th.Name, kernelExample(p.format, th))
		}
	}
	for _, k := range kernelOrder {
		ths := kernels[k]
		for _, th := range ths[1:] {
			if th.GPU != ths[0].GPU {
				p.errs.Add(th.Pos, "kernel %s runs on gpu %d (%s) and gpu %d (%s): a kernel runs on one device", k, ths[0].GPU, ths[0].Name, th.GPU, th.Name)
				break
			}
		}
	}
	launches := map[string][]launchSite{}
	for _, h := range hosts {
		p.checkHostMemory(t, h)
		for _, site := range p.checkGraphs(h) {
			launches[site.in.API.Kernel] = append(launches[site.in.API.Kernel], site)
		}
		for _, in := range h.Instrs {
			if in.Op == OpAPI && in.API.Fn == APILaunchKernel {
				launches[in.API.Kernel] = append(launches[in.API.Kernel], launchSite{in: in, host: h, pos: in.Pos})
			}
		}
	}
	for _, k := range kernelOrder {
		sites := launches[k]
		switch {
		case len(sites) == 0:
			th := kernels[k][0]
			p.errs.Add(th.Pos, "kernel %s is never launched: launch it from a host thread (cudaLaunchKernel %s, STREAM) or add it to a graph that one launches (cudaGraphAddKernelNode G, %s)", k, k, k)
		case len(sites) > 1:
			p.errs.Add(sites[1].pos, "kernel %s is launched twice (first at line %d): a kernel is one launch of its device threads; give the second launch a kernel of its own", k, sites[0].pos.Line)
		}
	}
	for k, sites := range launches {
		if kernels[k] == nil {
			for _, s := range sites {
				p.errs.Add(s.pos, "kernel %s has no device threads: name it in the placement of the threads it runs (%s)", k, kernelExample(p.format, nil))
			}
		}
	}
	p.checkOwners(hosts)
}

// kernelExample shows how a format puts a device thread in a kernel.
func kernelExample(f Format, th *Thread) string {
	if f == FormatNV {
		name := "d0.b0.t0"
		if th != nil {
			name = th.Name
		}
		return ".kernel K0 " + name + ";"
	}
	name := "P0"
	if th != nil {
		name = th.Name
	}
	return name + "@cta 0,gpu 0,kernel K0"
}

// checkHostMemory reports host accesses to anything but generic addresses
// of global memory: the host reaches neither shared nor tensor memory, nor
// mbarriers, nor the surface, texture and constant proxies.
func (p *parser) checkHostMemory(t *Test, h *Thread) {
	for _, in := range h.Instrs {
		if in.Op != OpLoad && in.Op != OpStore && in.Op != OpAtom && in.Op != OpRed {
			continue
		}
		if in.Addr.Kind != OperandAddr {
			continue
		}
		a := t.AddressByName(in.Addr.Addr)
		if a == nil {
			continue
		}
		if a.Kind != ProxyGeneric {
			p.errs.Add(p.opPos(in.Addr.At), "%s is a %s reference: host thread %s reaches memory through generic addresses only", a.Name, a.Kind, h.Name)
			continue
		}
		root := a
		for i := 0; root.AliasOf != "" && i <= len(t.Addresses); i++ {
			next := t.AddressByName(root.AliasOf)
			if next == nil {
				break
			}
			root = next
		}
		if root.Space != SpaceGlobal || root.MBarrier > 0 {
			what := root.Space.String() + " memory"
			if root.MBarrier > 0 {
				what = "an mbarrier"
			}
			p.errs.Add(p.opPos(in.Addr.At), "%s is %s: host thread %s reaches global memory only", a.Name, what, h.Name)
		}
	}
}

// checkGraphs builds the graphs of host thread h from its graph calls, in
// text order, attaches each to its cudaGraphLaunch, and returns the kernel
// nodes of the graphs launched, as launches of their kernels. An
// executable graph (cudaGraphInstantiate) is a copy of its graph as built
// so far: later changes to the graph do not change it.
func (p *parser) checkGraphs(h *Thread) []launchSite {
	graphs := map[string]*GraphDef{}
	created := map[string]*Instr{}
	execs := map[string]*GraphDef{}
	launched := map[string]*Instr{}
	var sites []launchSite
	for _, in := range h.Instrs {
		if in.Op != OpAPI {
			continue
		}
		call := in.API
		switch call.Fn {
		case APIGraphCreate:
			if first := created[call.Graph]; first != nil {
				p.errs.Add(in.Pos, "graph %s is already created at line %d", call.Graph, first.Pos.Line)
			} else if graphs[call.Graph] != nil || execs[call.Graph] != nil {
				p.errs.Add(in.Pos, "graph %s already exists: create a graph before adding its nodes", call.Graph)
			}
			created[call.Graph] = in
			continue
		case APIGraphInstantiate:
			g := graphs[call.Graph]
			switch {
			case graphs[call.Exec] != nil || execs[call.Exec] != nil || created[call.Exec] != nil:
				p.errs.Add(in.Pos, "%s already names a graph: give the executable graph a name of its own", call.Exec)
			case g == nil:
				p.errs.Add(in.Pos, "graph %s has no nodes: add them before instantiating it (cudaGraphAddKernelNode %s, K or cudaGraphAddEmptyNode %s, N)", call.Graph, call.Graph, call.Graph)
			default:
				execs[call.Exec] = g.copyAs(call.Exec)
			}
			continue
		case APIGraphAddKernelNode, APIGraphAddEmptyNode, APIGraphAddDependencies:
			if execs[call.Graph] != nil {
				p.errs.Add(in.Pos, "%s is an executable graph: change the graph it was instantiated from, and instantiate it again", call.Graph)
				continue
			}
		case APIGraphLaunch:
			g := graphs[call.Graph]
			if x := execs[call.Graph]; x != nil {
				g = x
			}
			if g == nil {
				p.errs.Add(in.Pos, "graph %s has no nodes: add them before launching it (cudaGraphAddKernelNode %s, K or cudaGraphAddEmptyNode %s, N)", call.Graph, call.Graph, call.Graph)
				continue
			}
			if first := launched[call.Graph]; first != nil {
				p.errs.Add(in.Pos, "graph %s is launched twice (first at line %d): its kernel nodes would launch their kernels twice", call.Graph, first.Pos.Line)
				continue
			}
			launched[call.Graph] = in
			call.Def = g
			for _, n := range g.Nodes {
				if n.Kernel != "" {
					sites = append(sites, launchSite{in: &Instr{Op: OpAPI, Pos: in.Pos, API: &APICall{Fn: APIGraphAddKernelNode, Kernel: n.Kernel}}, host: h, pos: in.Pos})
				}
			}
			continue
		default:
			continue
		}
		if first := launched[call.Graph]; first != nil {
			p.errs.Add(in.Pos, "%s changes graph %s after it is launched (line %d): build the graph before launching it", call.Fn, call.Graph, first.Pos.Line)
			continue
		}
		g := graphs[call.Graph]
		if g == nil {
			g = &GraphDef{Name: call.Graph}
			graphs[call.Graph] = g
		}
		index := func(name string) int {
			for i, n := range g.Nodes {
				if n.Name == name {
					return i
				}
			}
			return -1
		}
		if call.Fn == APIGraphAddDependencies {
			from, to := index(call.Node), index(call.To)
			for _, miss := range []string{call.Node, call.To} {
				if index(miss) < 0 {
					p.errs.Add(in.Pos, "graph %s has no node %s yet: add nodes before their dependencies", g.Name, miss)
				}
			}
			if from < 0 || to < 0 {
				continue
			}
			if from == to || reaches(g, from, to) {
				p.errs.Add(in.Pos, "the dependency %s -> %s makes a cycle in graph %s: a CUDA graph is acyclic", call.Node, call.To, g.Name)
				continue
			}
			g.Nodes[to].Deps = append(g.Nodes[to].Deps, from)
			continue
		}
		if index(call.Node) >= 0 {
			p.errs.Add(in.Pos, "graph %s already has a node %s", g.Name, call.Node)
			continue
		}
		n := &GraphNode{Name: call.Node, Kernel: call.Kernel}
		bad := false
		for _, d := range call.Deps {
			j := index(d)
			if j < 0 {
				p.errs.Add(in.Pos, "graph %s has no node %s: a node depends on nodes added before it", g.Name, d)
				bad = true
				continue
			}
			n.Deps = append(n.Deps, j)
		}
		if !bad {
			g.Nodes = append(g.Nodes, n)
		}
	}
	return sites
}

// copyAs returns a copy of the graph named name (an executable graph).
func (g *GraphDef) copyAs(name string) *GraphDef {
	c := &GraphDef{Name: name}
	for _, n := range g.Nodes {
		cp := *n
		cp.Deps = slices.Clone(n.Deps)
		c.Nodes = append(c.Nodes, &cp)
	}
	return c
}

// reaches reports whether node to already reaches node from through
// dependencies, so that a dependency from -> to would close a cycle.
func reaches(g *GraphDef, from, to int) bool {
	// Dependencies point from a node to the nodes it depends on: a path
	// from "from" back to "to" along them means to precedes from.
	seen := map[int]bool{}
	var visit func(i int) bool
	visit = func(i int) bool {
		if i == to {
			return true
		}
		if seen[i] {
			return false
		}
		seen[i] = true
		for _, d := range g.Nodes[i].Deps {
			if visit(d) {
				return true
			}
		}
		return false
	}
	return visit(from)
}

// checkOwners reports streams and CUDA events used by several host threads
// and streams created after their first use. ptxmm orders a stream's tasks
// by the program order of the host thread that enqueues them, so each
// stream (the legacy default stream included) and each CUDA event belongs
// to one host thread; the legacy default stream synchronizes with the
// blocking streams of every host thread, so it may be used only when no
// other host thread uses a blocking stream.
func (p *parser) checkOwners(hosts []*Thread) {
	streamOwner := map[string]*Thread{}
	eventOwner := map[string]*Thread{}
	var legacyUser *Thread
	nonBlocking := map[string]bool{}
	for _, h := range hosts {
		used := map[string]*Instr{}
		for _, in := range h.Instrs {
			if in.Op != OpAPI {
				continue
			}
			call := in.API
			if call.Fn == APIStreamCreate {
				if first := used[call.Stream]; first != nil {
					what := "used"
					if first.API.Fn == APIStreamCreate {
						what = "created"
					}
					p.errs.Add(in.Pos, "stream %s is already %s at line %d: create a stream once, before it is used", call.Stream, what, first.Pos.Line)
				}
				nonBlocking[call.Stream] = call.NonBlocking
			}
			if call.Stream != "" && used[call.Stream] == nil {
				used[call.Stream] = in
			}
			if s := call.Stream; s != "" && s != PerThreadStream {
				if s == LegacyStream {
					if legacyUser != nil && legacyUser != h {
						p.errs.Add(in.Pos, "the legacy default stream is used by %s and %s: ptxmm orders a stream's tasks by the program order of the one host thread that uses it", legacyUser.Name, h.Name)
					}
					legacyUser = h
				} else if owner := streamOwner[s]; owner != nil && owner != h {
					p.errs.Add(in.Pos, "stream %s is used by %s and %s: ptxmm orders a stream's tasks by the program order of the one host thread that uses it", s, owner.Name, h.Name)
				} else {
					streamOwner[s] = h
				}
			}
			if e := call.Event; e != "" {
				if owner := eventOwner[e]; owner != nil && owner != h {
					p.errs.Add(in.Pos, "CUDA event %s is used by %s and %s: a CUDA event belongs to one host thread in ptxmm", e, owner.Name, h.Name)
				} else {
					eventOwner[e] = h
				}
			}
		}
	}
	if legacyUser == nil {
		return
	}
	for _, h := range hosts {
		if h == legacyUser {
			continue
		}
		for _, in := range h.Instrs {
			if in.Op == OpAPI && in.API.Stream != "" && in.API.Stream != LegacyStream && !nonBlocking[in.API.Stream] {
				p.errs.Add(in.Pos, "%s uses blocking stream %s while %s uses the legacy default stream, which synchronizes with the blocking streams of every host thread in an order ptxmm does not model: create %s with cudaStreamCreateWithFlags %s, cudaStreamNonBlocking", h.Name, in.API.Stream, legacyUser.Name, in.API.Stream, in.API.Stream)
				return
			}
		}
	}
}
