package gen

import (
	"errors"
	"fmt"

	"github.com/ptxmm/ptxmm/program"
)

// Request says which tests to generate: the cycles given (with
// alternatives), the prototypes of families, and every cycle of a
// relaxation list, each varied by Po and Sem and placed by each of
// Placements.
type Request struct {
	Cycles   []string
	Families []string
	// Po and Sem vary the program-order edges and the accesses of every
	// cycle (Vary).
	Po, Sem []string
	// Enumerate, when set, adds every cycle Family lists.
	Enumerate  *FamilyOptions
	Placements []Placement
}

// Generated are the tests of a request, named as diy7 names them (a name
// two different tests would share gets a number, as diy7's -addnum does),
// the combinations of alternatives that formed no cycle, and the cycles
// with synchronized edges asked under a placement other than their own.
type Generated struct {
	Tests []*program.Test
	// Rejected counts the combinations of alternatives that do not form
	// a cycle; FirstRejection says why the first did not.
	Rejected       int
	FirstRejection error
	// Unplaced counts the pairs of a cycle with synchronized edges (whose
	// edges place its threads) and a placement given by -placement other
	// than the default, which are left out; FirstUnplaced says why.
	Unplaced      int
	FirstUnplaced error
}

// Generate builds the tests of a request, in the order asked: each cycle
// and family in turn, then the enumerated cycles, each under each
// placement. Tests that come out the same (the same cycle asked twice)
// are kept once.
func Generate(r Request) (*Generated, error) {
	g := &Generated{}
	var specs []string
	for _, f := range r.Families {
		c, err := Prototype(f)
		if err != nil {
			return nil, err
		}
		specs = append(specs, c)
	}
	specs = append(r.Cycles, specs...)
	var cycles []*Cycle
	vary := len(r.Po) > 0 || len(r.Sem) > 0
	for _, s := range specs {
		cs, rejected, first, err := Cross(s)
		if err != nil {
			return nil, err
		}
		g.note(rejected, first)
		if !vary {
			cycles = append(cycles, cs...)
			continue
		}
		for _, c := range cs {
			v, err := Vary(c.String(), r.Po, r.Sem)
			if err != nil {
				return nil, err
			}
			vs, rejected, first, err := Cross(v)
			if err != nil {
				return nil, err
			}
			g.note(rejected, first)
			cycles = append(cycles, vs...)
		}
	}
	if r.Enumerate != nil {
		cs, err := Enumerate(*r.Enumerate)
		if err != nil {
			return nil, err
		}
		cycles = append(cycles, cs...)
	}
	placements := r.Placements
	if len(placements) == 0 {
		placements = []Placement{{}}
	}
	seenText := map[string]bool{}
	names := map[string]int{}
	for _, c := range cycles {
		for _, p := range placements {
			t, err := Build(c, p)
			if errors.Is(err, errPlacedBySync) {
				// A cycle whose edges place its threads, under another
				// placement: left out, and counted.
				g.Unplaced++
				if g.FirstUnplaced == nil {
					g.FirstUnplaced = err
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			text := t.Litmus()
			if seenText[text] {
				continue
			}
			seenText[text] = true
			if k := names[t.Name]; k > 0 {
				names[t.Name]++
				t.Name = fmt.Sprintf("%s%03d", t.Name, k)
			} else {
				names[t.Name] = 1
			}
			g.Tests = append(g.Tests, t)
		}
	}
	return g, nil
}

// note counts rejected combinations, keeping the first reason.
func (g *Generated) note(rejected int, first error) {
	g.Rejected += rejected
	if g.FirstRejection == nil {
		g.FirstRejection = first
	}
}
