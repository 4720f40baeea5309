package ptxmm

import (
	"fmt"
	"sync"

	"github.com/ptxmm/ptxmm/rules"
)

// Building an evaluation instance allocates every relation of the model;
// for an execution of a handful of events that costs more than evaluating
// it. A model keeps the instances of closed evaluations (Evaluation.Close)
// and resets one for the next execution of the same size, as the checker
// does between tests.

// maxPooled bounds the instances a model keeps.
const maxPooled = 16

type poolKey struct {
	prog *rules.Program
	n    int
}

// instancePool holds the instances of closed evaluations, by program and
// number of events.
type instancePool struct {
	mu    sync.Mutex
	free  map[poolKey][]*rules.Instance
	count int
}

// instance returns an instance of prog over n events (named e0, e1, ...:
// an evaluation names them itself), reset from the pool when one is free.
func (p *instancePool) instance(prog *rules.Program, n int, l rules.Limits) (*rules.Instance, error) {
	key := poolKey{prog, n}
	p.mu.Lock()
	var in *rules.Instance
	if list := p.free[key]; len(list) > 0 {
		in = list[len(list)-1]
		p.free[key] = list[:len(list)-1]
		p.count--
	}
	p.mu.Unlock()
	if in != nil && (l.MaxBytes <= 0 || prog.EstimateBytes(in.Domain().Len()) <= l.MaxBytes) {
		in.Reset(l)
		return in, nil
	}
	dom := rules.NewDomain()
	for i := range n {
		dom.Intern(rules.Value{Kind: rules.KindHost, Str: fmt.Sprintf("e%d", i)})
	}
	return prog.NewLimitedInstance(dom, l)
}

// release keeps an instance for the next evaluation of its size.
func (p *instancePool) release(n int, in *rules.Instance) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.count >= maxPooled {
		return
	}
	if p.free == nil {
		p.free = map[poolKey][]*rules.Instance{}
	}
	key := poolKey{in.Program(), n}
	p.free[key] = append(p.free[key], in)
	p.count++
}
