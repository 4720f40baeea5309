package synth

import (
	"fmt"
	"sync"

	"github.com/ptxmm/ptxmm/catalog/fill"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/rules"
)

// pooled is an instance of the flags' program over some number of events,
// with the filler that fills it.
type pooled struct {
	inst     *rules.Instance
	fill     *fill.Filler
	events   int
	limits   rules.Limits
	searched bool
}

// reset empties the instance and its filler for another candidate.
func (p *pooled) reset() {
	p.inst.Reset(p.limits)
	p.fill.Reset()
	p.searched = false
}

// instancePool keeps the instances of a side's flags' program, by number
// of events, for the workers to reuse.
type instancePool struct {
	mu   sync.Mutex
	free map[int][]*pooled
}

// get returns an empty instance over n events.
func (ip *instancePool) get(m *checker.Model, n int, maxBytes int64) (*pooled, error) {
	ip.mu.Lock()
	if l := ip.free[n]; len(l) > 0 {
		p := l[len(l)-1]
		ip.free[n] = l[:len(l)-1]
		ip.mu.Unlock()
		p.limits = rules.Limits{MaxBytes: maxBytes}
		p.reset()
		return p, nil
	}
	ip.mu.Unlock()
	dom := rules.NewDomain()
	for i := 0; i < n; i++ {
		dom.Intern(rules.Value{Kind: rules.KindHost, Str: fmt.Sprintf("e%d", i)})
	}
	limits := rules.Limits{MaxBytes: maxBytes}
	inst, err := m.Program.NewLimitedInstance(dom, limits)
	if err != nil {
		return nil, err
	}
	return &pooled{inst: inst, fill: fill.New(m.Syntax), events: n, limits: limits}, nil
}

// put gives an instance back.
func (ip *instancePool) put(p *pooled) {
	ip.mu.Lock()
	defer ip.mu.Unlock()
	ip.free[p.events] = append(ip.free[p.events], p)
}
