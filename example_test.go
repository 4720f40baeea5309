package ptxmm_test

import (
	"fmt"

	"github.com/ptxmm/ptxmm"
)

// A message-passing test in herd syntax: the release/acquire pair
// synchronizes, so the stale read of x is forbidden.
const mp = `PTX MP
{ x=0; flag=0; }
 P0@cta 0,gpu 0         | P1@cta 1,gpu 0           ;
 st.weak x, 1           | ld.acquire.gpu r0, flag  ;
 st.release.gpu flag, 1 | ld.weak r1, x            ;
exists (P1:r0 == 1 /\ P1:r1 == 0)
`

// Check a litmus test against the embedded PTX model.
func Example() {
	m, err := ptxmm.DefaultModel()
	if err != nil {
		panic(err)
	}
	tests, err := ptxmm.ParseTests("MP.litmus", []byte(mp))
	if err != nil {
		panic(err)
	}
	r := m.Check(tests[0])
	fmt.Println(tests[0].Name, r.Verdict, len(r.States), "states")
	// Output: MP No 3 states
}

// Evaluate an execution built by another tool: the MP execution in which
// the acquire reads the release but the data load misses the data store.
// The causality axiom rejects it, with a witness.
func ExampleModel_Evaluate() {
	m, err := ptxmm.DefaultModel()
	if err != nil {
		panic(err)
	}
	const (
		initX, initF, stX, stF, ldF, ldX = 0, 1, 2, 3, 4, 5
	)
	x := &ptxmm.Execution{
		Events: []string{"init x", "init flag", "P0: st.weak x,1", "P0: st.release.gpu flag,1", "P1: ld.acquire.gpu flag", "P1: ld.weak x"},
		Sets: map[string][]int{
			"E": {0, 1, 2, 3, 4, 5}, "IW": {initX, initF}, "M": {0, 1, 2, 3, 4, 5},
			"W": {initX, initF, stX, stF}, "R": {ldF, ldX},
			"REL": {stF}, "ACQ": {ldF}, "GPU": {stF, ldF}, "GEN": {0, 1, 2, 3, 4, 5},
		},
		Relations: map[string][][2]int{
			"po":         {{stX, stF}, {ldF, ldX}},
			"rf":         {{stF, ldF}, {initX, ldX}},
			"loc":        {{initX, stX}, {stX, initX}, {initX, ldX}, {ldX, initX}, {stX, ldX}, {ldX, stX}, {initF, stF}, {stF, initF}, {initF, ldF}, {ldF, initF}, {stF, ldF}, {ldF, stF}, {0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}},
			"vaddr":      {{initX, stX}, {stX, initX}, {initX, ldX}, {ldX, initX}, {stX, ldX}, {ldX, stX}, {initF, stF}, {stF, initF}, {initF, ldF}, {ldF, initF}, {stF, ldF}, {ldF, stF}, {0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}},
			"gaddr":      {{initX, stX}, {stX, initX}, {initX, ldX}, {ldX, initX}, {stX, ldX}, {ldX, stX}, {initF, stF}, {stF, initF}, {initF, ldF}, {ldF, initF}, {stF, ldF}, {ldF, stF}, {0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}},
			"same_bytes": {{initX, stX}, {stX, initX}, {initX, ldX}, {ldX, initX}, {stX, ldX}, {ldX, stX}, {initF, stF}, {stF, initF}, {initF, ldF}, {ldF, initF}, {stF, ldF}, {ldF, stF}, {0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}, {5, 5}},
			"sgpu":       {{2, 2}, {2, 3}, {2, 4}, {2, 5}, {3, 2}, {3, 3}, {3, 4}, {3, 5}, {4, 2}, {4, 3}, {4, 4}, {4, 5}, {5, 2}, {5, 3}, {5, 4}, {5, 5}},
		},
	}
	ev, err := m.Evaluate(x)
	if err != nil {
		panic(err)
	}
	fmt.Println("consistent:", ev.Consistent)
	for _, c := range ev.Checks {
		if !c.Holds {
			fmt.Printf("%s fails at %q\n", c.Name, c.Witness)
		}
	}
	sync, _ := ev.Relation("sync")
	fmt.Println("sync:", sync)
	// Output:
	// consistent: false
	// causality fails at ["P1: ld.weak x"]
	// sync: [[P0: st.release.gpu flag,1 P1: ld.acquire.gpu flag]]
}
