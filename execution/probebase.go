package execution

import "slices"

// The spin reduction argues from one fact about the runs it leaves out: a
// probe run (one that goes round an await after failing it) with its
// failed iterations' events removed is a run the search enumerates, the
// one taking the same path but passing each await at once (the failed
// iterations wrote nothing and left no live register). An execution of a
// combination of probe runs that the model finds consistent therefore
// gives, without those events, a consistent execution of the combination
// of those base runs (the model being event-monotone). Bases names them,
// so that a host that knows which combinations of runs have no consistent
// execution can leave out the probe combinations built on them.

// Bases returns, for each thread t and each of its probe runs
// a.Probes[t][i], the indices in a.Runs[t] of the runs whose events are
// the probe's with its failed iterations' events left out: the same
// instructions making events of the same kinds in the same order, and the
// same status. The run of the same path is among them (several runs may
// match where two paths execute the same instructions); an empty list
// says none matched, and the host must then keep the probe's
// combinations.
func (a *Analysis) Bases() [][][]int {
	out := make([][][]int, len(a.Probes))
	for t, probes := range a.Probes {
		out[t] = make([][]int, len(probes))
		for i, p := range probes {
			for j, r := range a.Runs[t] {
				if passesAtOnce(p, r) {
					out[t][i] = append(out[t][i], j)
				}
			}
		}
	}
	return out
}

// passesAtOnce reports whether run r has probe p's events less its failed
// iterations', as instructions and kinds, and p's status.
func passesAtOnce(p, r *Run) bool {
	if p.Status != r.Status {
		return false
	}
	j := 0
	for i := range p.Events {
		if slices.Contains(p.Failed, i) {
			continue
		}
		if j == len(r.Events) {
			return false
		}
		pe, re := &p.Events[i], &r.Events[j]
		if pe.Kind != re.Kind || pe.Instr != re.Instr {
			return false
		}
		j++
	}
	return j == len(r.Events)
}
