package gen

import (
	"fmt"

	"github.com/ptxmm/ptxmm/program"
)

// layout is where the events of a cycle go in a test: the cycle rotated
// so that event 0 starts a thread, each event's thread, location and
// value, and the final values the condition pins.
type layout struct {
	c *Cycle
	// threads lists each thread's events in program order.
	threads [][]int
	thread  []int
	// loc is each event's location, numbered in the order of first use
	// (thread by thread).
	loc   []int
	nlocs int
	// value is what a write writes or a read reads.
	value []int64
	// final maps a location with two writes or more to its final value.
	final map[int]int64
}

// layout places the cycle's events; it fails for a location the cycle
// only reads.
func (c *Cycle) layout() (*layout, error) {
	starts := c.threadStarts()
	l := &layout{c: c.rotate(starts[0]), final: map[int]int64{}}
	c = l.c
	n := len(c.Edges)
	l.thread = make([]int, n)
	th := -1
	for i := range c.Edges {
		if c.Edges[(i+n-1)%n].Ext {
			th++
			l.threads = append(l.threads, nil)
		}
		l.thread[i] = th
		l.threads[th] = append(l.threads[th], i)
	}
	chains := c.chains()
	// Locations are numbered in the order of first use.
	chainOf := make([]int, n)
	for k, ch := range chains.events {
		for _, e := range ch {
			chainOf[e] = k
		}
	}
	locOfChain := map[int]int{}
	l.loc = make([]int, n)
	for i := range c.Edges {
		k := chainOf[i]
		if _, ok := locOfChain[k]; !ok {
			locOfChain[k] = len(locOfChain)
		}
		l.loc[i] = locOfChain[k]
	}
	l.nlocs = len(locOfChain)
	l.value = make([]int64, n)
	for k, ch := range chains.events {
		if err := l.values(ch, chains.wrapCo[k]); err != nil {
			return nil, err
		}
	}
	return l, nil
}

// chainSet lists the events of each location in the order the cycle
// visits them; wrapCo marks a location whose cycle closes on a write
// coherence-after the last (a cycle on one location cut at a write-write
// edge).
type chainSet struct {
	events [][]int
	wrapCo []bool
}

// chains splits the cycle into its locations: the runs of events between
// edges that change location, or, when none does, the whole cycle cut
// before a write (after a read if it can: the read then reads the initial
// value, and coherence follows the cycle from the write).
func (c *Cycle) chains() chainSet {
	n := len(c.Edges)
	start, wrapCo := -1, false
	if c.allSame() {
		for i := range c.Edges {
			in := c.Edges[(i+n-1)%n]
			if in.Dst == W && in.Src == R {
				start = i
				break
			}
		}
		if start < 0 {
			for i := range c.Edges {
				if c.Edges[(i+n-1)%n].Dst == W {
					start, wrapCo = i, true
					break
				}
			}
		}
		if start < 0 {
			start = 0
		}
		var ch []int
		for k := 0; k < n; k++ {
			ch = append(ch, (start+k)%n)
		}
		return chainSet{events: [][]int{ch}, wrapCo: []bool{wrapCo}}
	}
	for i := range c.Edges {
		if !c.Edges[(i+n-1)%n].Same {
			start = i
			break
		}
	}
	var out chainSet
	var cur []int
	for k := 0; k < n; k++ {
		i := (start + k) % n
		cur = append(cur, i)
		if !c.Edges[i].Same {
			out.events = append(out.events, cur)
			out.wrapCo = append(out.wrapCo, false)
			cur = nil
		}
	}
	return out
}

// values numbers the writes of one location 1, 2, ... in the order the
// cycle visits them and gives each read the value the cycle says it
// reads: its reads-from source's; else the value coherence-before the
// write it is from-read-before; else the last value written before it on
// the way.
func (l *layout) values(ch []int, wrapCo bool) error {
	c := l.c
	n := len(c.Edges)
	written := false
	num := int64(0)
	for _, e := range ch {
		if c.Edges[e].Src == W {
			num++
			l.value[e] = num
			written = true
		}
	}
	if !written {
		return fmt.Errorf("a location is only read, so no edge of the cycle can hold")
	}
	last := int64(0)
	for _, e := range ch {
		if c.Edges[e].Src == W {
			last = l.value[e]
			continue
		}
		in, out := c.Edges[(e+n-1)%n], c.Edges[e]
		switch {
		case in.Kind == Rf:
			l.value[e] = l.value[(e+n-1)%n]
		case out.Kind == Fr || (out.Same && out.Dst == W && out.Kind != Rmw):
			l.value[e] = l.value[(e+1)%n] - 1
		default:
			l.value[e] = last
		}
	}
	if num >= 2 {
		final := num
		if wrapCo || l.wrapsCoherence(ch) {
			final = 1
		}
		l.final[l.loc[ch[0]]] = final
	}
	return nil
}

// wrapsCoherence reports whether a location's events close the cycle with
// a from-read edge from a read of a value written in the cycle to the
// location's first write: that write is then coherence-after every other
// (its value is final), which the way through the cycle contradicts.
func (l *layout) wrapsCoherence(ch []int) bool {
	c := l.c
	last := ch[len(ch)-1]
	out := c.Edges[last]
	return c.allSame() && out.Kind == Fr && (last+1)%len(c.Edges) == ch[0] && l.value[last] != 0
}

// placeOf is the placement of thread i of n.
type placeOf func(i, n int) program.Place
