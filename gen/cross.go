package gen

import (
	"fmt"
	"strings"
)

// Cross expands a cycle written with alternatives, as diycross7 takes
// them: a token of comma-separated edges or annotations stands for each of
// them in turn, so "PodWW,Fence.sc.gpudWW Rfe PodRR Fre" is two cycles.
// An alternative may be "-", which stands for nothing (for an optional
// annotation: "Rel.gpu,- Rfe"). It returns the cycles in order, and the
// combinations that do not form a cycle with the reason of the first.
func Cross(s string) (cycles []*Cycle, rejected int, firstErr error, err error) {
	var choices [][]string
	for _, tok := range strings.Fields(s) {
		alts := strings.Split(tok, ",")
		for _, a := range alts {
			if a == "" {
				return nil, 0, nil, fmt.Errorf("cycle %q: empty alternative in %q", s, tok)
			}
		}
		choices = append(choices, alts)
	}
	if len(choices) == 0 {
		return nil, 0, nil, fmt.Errorf("empty cycle: give edges, as in 'PodWW Rfe PodRR Fre'")
	}
	pick := make([]int, len(choices))
	for {
		var parts []string
		for i, k := range pick {
			if choices[i][k] != "-" {
				parts = append(parts, choices[i][k])
			}
		}
		c, perr := ParseCycle(strings.Join(parts, " "))
		switch {
		case perr == nil:
			cycles = append(cycles, c)
		case isVocabularyError(perr):
			return nil, 0, nil, perr
		default:
			rejected++
			if firstErr == nil {
				firstErr = perr
			}
		}
		i := len(pick) - 1
		for ; i >= 0; i-- {
			pick[i]++
			if pick[i] < len(choices[i]) {
				break
			}
			pick[i] = 0
		}
		if i < 0 {
			return cycles, rejected, firstErr, nil
		}
	}
}

// isVocabularyError reports whether a cycle failed for a misspelt token,
// which every combination would share, rather than for its shape.
func isVocabularyError(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "is not an edge") || strings.Contains(msg, "annotation") || strings.Contains(msg, "empty cycle")
}
