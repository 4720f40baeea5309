package checker

import "github.com/ptxmm/ptxmm/execution"

// notBuiltin says why the termination of loops that write is not decided
// for a model other than the embedded spec.dl.
const notBuiltin = "the model is not the embedded spec.dl, and the argument that its executions are interleavings rests on spec.dl's axioms (docs/model.md, \"Loops that write: termination under fair scheduling\")"

// termination decides, for a test with a loop that is not an await (one
// that writes memory, or whose runs the unrolling bound cut), whether
// some thread can run forever under a fair scheduler, which the unrolled
// search cannot say (execution.FairTermination). It does so for the
// models that are the embedded spec.dl and says why not for the others.
// A test whose loops are all awaits gets no verdict here: the spinning
// runs decide them, and nothing else of it can run forever.
func (s *session) termination() {
	if execution.WritingLoop(s.t) == nil && s.a.CutRuns() == 0 {
		return
	}
	var decided *execution.Termination
	for _, r := range s.runs {
		if !r.m.Builtin {
			r.res.Termination = &execution.Termination{Why: notBuiltin}
			continue
		}
		if decided == nil {
			d := execution.FairTermination(s.t, 0)
			decided = &d
		}
		r.res.Termination = decided
	}
}
