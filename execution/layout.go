package execution

import (
	"fmt"

	"github.com/ptxmm/ptxmm/litmus"
	"github.com/ptxmm/ptxmm/source"
)

// Layout maps a test's address names to memory locations.
//
// Every plain declaration is a memory location; an alias names another
// virtual address of an existing location. A memory operation has three
// addresses the model can compare: its virtual address (the name it uses),
// its generic address (for a surface, texture or constant reference, the
// generic address the reference aliases; for a generic address, itself) and
// its physical location. Shared-memory locations exist once per CTA.
type Layout struct {
	Addrs []AddrInfo
	// Locs lists the physical locations: global ones once, shared ones once
	// per CTA of the test.
	Locs   []LocInfo
	byName map[string]int
	// globalLoc[a] is the location of address a when it is in no CTA's
	// memory (-1 for a per-CTA address), the same seen from every CTA;
	// ctaLoc[{a, cta}] is a per-CTA address's location seen from a CTA
	// (nil when the test has none).
	globalLoc []int
	ctaLoc    map[[2]int]int
	names     []string
	// sizing is what the locations' sizes and segments come from
	// (bytes.go).
	sizing *sizing
}

// AddrInfo describes one address name.
type AddrInfo struct {
	Name    string
	Kind    litmus.Proxy
	Space   litmus.Space
	Root    int // index of the plain declaration this address resolves to
	Generic int // index of the generic address (itself for generic addresses)
	Init    int64
	// MBarrier is the expected arrival count of an mbarrier object, 0 for
	// other addresses.
	MBarrier int64
	// Type is the declared data type of a plain declaration (Name "" when
	// none is declared), DeclSize the declared variable's bytes (an array
	// has several elements of Type).
	Type     litmus.DataType
	DeclSize int
	// Multimem lists the addresses of the locations a multimem address
	// points to (8.2.3); nil for other addresses. A multimem address has no
	// location of its own: an access other than multimem.* through it,
	// which is undefined, reaches its first location.
	Multimem []int
}

// LocInfo describes one physical location.
type LocInfo struct {
	Root int // the address index of its plain declaration
	CTA  int // the CTA owning it for shared memory, -1 for global memory
	Init int64
	Name string // "x", or "x@cta1" for per-CTA shared locations
	// Space is the state space of the location.
	Space litmus.Space
	// MBarrier is the expected arrival count of an mbarrier object, 0 for
	// other locations.
	MBarrier int64
	// Size is the number of bytes of the location, Signed how its final
	// value reads, and Cuts the first byte of each of its segments, from 0
	// (bytes.go).
	Size   int
	Signed bool
	Cuts   []int
}

// InitValue is the value the initial write W0 gives the location: its
// declared value, or the initial state of an mbarrier object.
func (li LocInfo) InitValue() Value {
	if li.MBarrier > 0 {
		return mbarUpdate("init", Int(li.MBarrier), Value{}, Value{})
	}
	return Int(li.Init)
}

// NewLayout resolves the test's addresses, reporting alias cycles and
// aliases of undeclared names.
func NewLayout(t *litmus.Test) (*Layout, error) {
	l := &Layout{byName: map[string]int{}}
	var errs source.List
	for i, a := range t.Addresses {
		if _, dup := l.byName[a.Name]; dup {
			errs.Add(a.Pos, "address %s is declared twice", a.Name)
			continue
		}
		l.byName[a.Name] = i
		l.Addrs = append(l.Addrs, AddrInfo{Name: a.Name, Kind: a.Kind, Space: a.Space, Root: -1, Generic: -1, Init: a.Init, MBarrier: a.MBarrier, Type: a.Type, DeclSize: litmus.DeclSize(a.Type, a.Elems)})
		l.names = append(l.names, a.Name)
	}
	if errs.HasErrors() {
		return nil, errs
	}
	for i, a := range t.Addresses {
		for _, target := range a.Multimem {
			j, ok := l.byName[target]
			if !ok {
				errs.Add(a.Pos, "multimem address %s points to %s, which is not declared", a.Name, target)
				continue
			}
			l.Addrs[i].Multimem = append(l.Addrs[i].Multimem, j)
		}
	}
	if errs.HasErrors() {
		return nil, errs
	}
	for i := range l.Addrs {
		root, err := l.resolve(t, i)
		if err != nil {
			errs.Add(t.Addresses[i].Pos, "%v", err)
			continue
		}
		l.Addrs[i].Root = root
		l.Addrs[i].Space = l.Addrs[root].Space
		l.Addrs[i].Init = l.Addrs[root].Init
		l.Addrs[i].MBarrier = l.Addrs[root].MBarrier
	}
	if errs.HasErrors() {
		return nil, errs
	}
	// A surface/texture/constant reference must alias an address: the loop
	// below follows aliases until it reaches a generic address, and a
	// reference aliasing nothing would send it round forever. The parsers
	// reject such references; tests built by hand may still have them.
	for i, a := range l.Addrs {
		if a.Kind != litmus.ProxyGeneric && t.Addresses[i].AliasOf == "" {
			errs.Add(t.Addresses[i].Pos, "%s reference %s aliases no address", a.Kind, a.Name)
		}
	}
	if errs.HasErrors() {
		return nil, errs
	}
	for i, a := range l.Addrs {
		if a.Kind == litmus.ProxyGeneric {
			l.Addrs[i].Generic = i
			continue
		}
		// A surface/texture/constant reference reaches memory through the
		// generic address it aliases (which may itself be a generic alias).
		target := t.Addresses[i].AliasOf
		g := l.byName[target]
		for l.Addrs[g].Kind != litmus.ProxyGeneric {
			g = l.byName[t.Addresses[g].AliasOf]
		}
		l.Addrs[i].Generic = g
	}
	ctas := map[int]bool{}
	kernelOf := map[int]string{} // CTA key -> the kernel of its threads
	sameNumber := map[string]int{}
	for _, th := range t.Threads {
		if !th.Host { // host threads are in no CTA
			k := CTAKey(th)
			if !ctas[k] {
				sameNumber[ctaKeyName(k)]++
			}
			ctas[k] = true
			kernelOf[k] = th.Kernel
		}
	}
	l.globalLoc = make([]int, len(l.Addrs))
	rootLoc := map[[2]int]int{}
	for i, a := range l.Addrs {
		l.globalLoc[i] = -1
		if !a.Space.PerCTA() {
			key := [2]int{a.Root, -1}
			loc, ok := rootLoc[key]
			if !ok {
				loc = len(l.Locs)
				l.Locs = append(l.Locs, LocInfo{Root: a.Root, CTA: -1, Init: a.Init, Name: l.Addrs[a.Root].Name, Space: a.Space, MBarrier: a.MBarrier})
				rootLoc[key] = loc
			}
			l.globalLoc[i] = loc
			continue
		}
		for _, cta := range sortedKeys(ctas) {
			key := [2]int{a.Root, cta}
			loc, ok := rootLoc[key]
			if !ok {
				loc = len(l.Locs)
				name := l.Addrs[a.Root].Name
				if len(ctas) > 1 {
					name += "@" + ctaKeyName(cta)
					// CTAs of two kernels with the same number: the
					// kernel tells them apart.
					if sameNumber[ctaKeyName(cta)] > 1 {
						name += "." + kernelOf[cta]
					}
				}
				l.Locs = append(l.Locs, LocInfo{Root: a.Root, CTA: cta, Init: a.Init, Name: name, Space: a.Space, MBarrier: a.MBarrier})
				rootLoc[key] = loc
			}
			switch {
			case cta < 0:
				// No CTA key is negative; were one, it would be seen
				// from every CTA, as a global address is.
				l.globalLoc[i] = loc
			case l.ctaLoc == nil:
				l.ctaLoc = map[[2]int]int{{i, cta}: loc}
			default:
				l.ctaLoc[[2]int{i, cta}] = loc
			}
		}
	}
	if err := l.measure(t); err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Layout) resolve(t *litmus.Test, i int) (int, error) {
	seen := map[int]bool{}
	for {
		if seen[i] {
			return 0, fmt.Errorf("address %s is part of an alias cycle", t.Addresses[i].Name)
		}
		seen[i] = true
		target := t.Addresses[i].AliasOf
		if m := t.Addresses[i].Multimem; len(m) > 0 {
			target = m[0]
		}
		if target == "" {
			return i, nil
		}
		j, ok := l.byName[target]
		if !ok {
			return 0, fmt.Errorf("address %s aliases %s, which is not declared", t.Addresses[i].Name, target)
		}
		i = j
	}
}

// Addr returns the index of an address name.
func (l *Layout) Addr(name string) (int, bool) {
	i, ok := l.byName[name]
	return i, ok
}

// Loc returns the physical location an address denotes for a thread in cta.
func (l *Layout) Loc(addr, cta int) int {
	loc, _ := l.LocOf(addr, cta)
	return loc
}

// LocOf returns the physical location an address denotes in CTA cta (a
// CTAKey); ok is false for a per-CTA address in a CTA that has no thread
// in the test, whose memory is not modelled.
func (l *Layout) LocOf(addr, cta int) (int, bool) {
	if loc := l.globalLoc[addr]; loc >= 0 {
		return loc, true
	}
	loc, ok := l.ctaLoc[[2]int{addr, cta}]
	return loc, ok
}

// AddrNames lists the address names by index (for printing address values).
func (l *Layout) AddrNames() []string { return l.names }

func sortedKeys(m map[int]bool) []int {
	var out []int
	for k := range m {
		out = append(out, k)
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j] < out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// CTAKey identifies a thread's CTA across GPUs and kernel launches: CTA
// numbers restart in every grid, which is one kernel launch on one GPU
// (litmus.Thread.Launch; Table 21 and 8.3: a CTA belongs to one grid).
func CTAKey(th *litmus.Thread) int { return ctaKeyOf(th.GPU, th.Launch, th.CTA) }

// ctaBits is the width of the GPU and CTA fields of a CTA key: the parsers
// accept numbers up to 1<<20.
const ctaBits = 21

// ctaKeyOf is the CTA key of CTA cta of launch launch on GPU gpu.
func ctaKeyOf(gpu, launch, cta int) int { return (launch<<ctaBits|gpu)<<ctaBits | cta }

// ctaKeyName prints the GPU and CTA of a CTA key ("gpu0.cta1"): the kernel
// launch, when it matters, is for the caller to add.
func ctaKeyName(key int) string {
	const mask = 1<<ctaBits - 1
	return fmt.Sprintf("gpu%d.cta%d", key>>ctaBits&mask, key&mask)
}
