package synth

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ptxmm/ptxmm/program"
)

// canonical spells a test so that two tests get the same spelling exactly
// when they differ by a renaming of threads, locations and written
// values: the least spelling over the orders of the threads, locations
// and values numbered in order of first use, and of the CTAs, clusters
// and GPUs the threads run in. (Where each thread runs in a CTA of its own
// on one GPU, the placement is left out.)
func canonical(t *program.Test) string {
	best := ""
	placed := !ownCTAs(t)
	permute(len(t.Threads), func(order []int) {
		var places *placeSpeller
		if placed {
			places = newPlaceSpeller()
		}
		locs := map[int]int{}
		vals := map[[2]int64]int64{}
		physical := func(a int) (int, bool) {
			if x := t.Addrs[a].AliasOf; x >= 0 {
				return x, t.Addrs[a].Proxy == program.Generic
			}
			return a, false
		}
		var b strings.Builder
		pos := map[[2]int]int{}
		bars := map[int]int{}
		for i, th := range order {
			if i > 0 {
				b.WriteByte('|')
			}
			if placed {
				places.spell(&b, t.Threads[th].Place)
			}
			for k, op := range t.Threads[th].Ops {
				pos[[2]int{th, k}] = i
				fmt.Fprintf(&b, ";%d.%d.%d", op.Kind, op.Sem, op.Scope)
				if op.Kind == program.ProxyFence {
					b.WriteString(op.Proxy.String())
				}
				if bar, ok := mbarOf(op); ok {
					if _, seen := bars[bar]; !seen {
						bars[bar] = len(bars)
					}
					fmt.Fprintf(&b, "#%d", bars[bar])
				}
				if access(op.Kind) {
					loc, second := physical(op.Addr)
					if _, ok := locs[loc]; !ok {
						locs[loc] = len(locs)
					}
					fmt.Fprintf(&b, "@%d", locs[loc])
					if second {
						b.WriteByte('\'')
					}
					if p := t.Addrs[op.Addr].Proxy; p != program.Generic {
						b.WriteString("~" + p.String())
					}
					if op.Kind.Writes() {
						key := [2]int64{int64(loc), op.Value}
						if _, ok := vals[key]; !ok {
							n := int64(1)
							for k := range vals {
								if k[0] == int64(loc) {
									n++
								}
							}
							vals[key] = n
						}
						fmt.Fprintf(&b, "=%d", vals[key])
					}
				}
				if op.Dep != program.NoDep {
					fmt.Fprintf(&b, "<%s%d", op.Dep, k-op.From)
				}
			}
		}
		var pins []string
		for _, p := range t.Pins {
			if th, k, ok := bulkStoreOf(t, p); ok {
				// A bulk store's destination holds the value it read.
				loc, _ := physical(t.Threads[th].Ops[k].Addr)
				pins = append(pins, fmt.Sprintf("s%d.%d=%d", pos[[2]int{th, 0}], k, vals[[2]int64{int64(loc), p.Value}]))
				continue
			}
			if p.Thread < 0 {
				loc, _ := physical(p.Addr)
				pins = append(pins, fmt.Sprintf("m%d=%d", locs[loc], vals[[2]int64{int64(loc), p.Value}]))
				continue
			}
			op := t.Threads[p.Thread].Ops[p.Op]
			loc, _ := physical(op.Addr)
			v := int64(0)
			switch {
			case op.Kind == program.MbarWait:
				// A wait's register says whether it saw the phase
				// complete: 0 or 1, no value written.
				v = p.Value
			case p.Value != 0:
				v = vals[[2]int64{int64(loc), p.Value}]
			}
			pins = append(pins, fmt.Sprintf("r%d.%d=%d", pos[[2]int{p.Thread, 0}], p.Op, v))
		}
		sort.Strings(pins)
		b.WriteString(" : " + strings.Join(pins, ","))
		if k := b.String(); best == "" || k < best {
			best = k
		}
	})
	return best
}

// ownCTAs reports whether every thread of a test runs in a CTA of its own,
// in no named cluster, on GPU 0.
func ownCTAs(t *program.Test) bool {
	seen := map[int]bool{}
	for _, th := range t.Threads {
		p := th.Place
		if p.GPU != 0 || p.Cluster >= 0 || seen[p.CTA] {
			return false
		}
		seen[p.CTA] = true
	}
	return true
}

// mbarOf is the address of the mbarrier an arrive, a wait or a bulk load
// uses.
func mbarOf(op program.Op) (int, bool) {
	switch op.Kind {
	case program.MbarArrive, program.MbarWait:
		return op.Addr, true
	case program.BulkLoad:
		return op.Bar, true
	}
	return 0, false
}

// bulkStoreOf finds the bulk store whose destination a pin names.
func bulkStoreOf(t *program.Test, p program.Pin) (th, k int, ok bool) {
	if p.Thread >= 0 {
		return 0, 0, false
	}
	for th, thr := range t.Threads {
		for k, op := range thr.Ops {
			if op.Kind == program.BulkStore && op.Dst == p.Addr {
				return th, k, true
			}
		}
	}
	return 0, 0, false
}
