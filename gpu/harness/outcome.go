package harness

import (
	"time"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/gpu"
	"github.com/ptxmm/ptxmm/gpu/ptxgen"
	"github.com/ptxmm/ptxmm/gpu/sass"
	"github.com/ptxmm/ptxmm/litmus"
)

// Outcome is what running one test found.
type Outcome struct {
	Test   *litmus.Test
	Device gpu.Device
	// Params are the parameters asked for; Notes say what was cut to fit
	// the device.
	Params Params
	Notes  []string
	// Refused says why the test cannot run on the device (nil when it
	// ran); Err why running it failed.
	Refused error
	Err     error
	// Model is the model's verdict on the test (with its forbidden
	// outcomes explained); ModelErr why there is none.
	Model    *checker.Result
	ModelErr error
	// Plan is the test's layout on the GPU, Module its PTX.
	Plan   *ptxgen.Plan
	Module string
	// States are the observed final states with their counts, in the
	// order first seen.
	States []*Observed
	// Instances counts the instances run; Bounded those in which a
	// thread's loop hit -spin-bound, Filtered those a .test load filter
	// left out: neither is in States.
	Instances, Bounded, Filtered int
	// Launches is the number of launches; Elapsed the time they took.
	Launches int
	Elapsed  time.Duration
	// Unseen are the states the model allows that the GPU never showed.
	Unseen []checker.State
	// Compiler is the -sass check of the compiled code, nil without -sass.
	Compiler *sass.Report

	// printing is a result holding the test, its layout and the
	// observables, for printing states herd-style.
	printing *checker.Result
}

// Verdict is the model's word on an observed state.
type Verdict int

const (
	// Allowed: a consistent execution of the model reaches the state.
	Allowed Verdict = iota
	// Forbidden: candidate executions reach it, and the model rejects
	// each: an alarm.
	Forbidden
	// Unreached: no candidate execution reaches it at all (values the
	// model's executions never produce): an alarm.
	Unreached
	// Undefined: the model says the program's behaviour is undefined (a
	// data race of mixed sizes, ...), so any state may be observed.
	Undefined
	// Unknown: the model's unrolling bound cut executions, so states past
	// it were not explored (raise -unroll), or there is no model verdict.
	Unknown
)

var verdictNames = [...]string{"allowed", "forbidden", "unreached", "undefined", "unknown"}

func (v Verdict) String() string { return verdictNames[v] }

// Alarm reports whether the GPU showing the state contradicts the model.
func (v Verdict) Alarm() bool { return v == Forbidden || v == Unreached }

// Observed is one final state the GPU showed.
type Observed struct {
	State checker.State
	Count int
	// Satisfies says whether the state satisfies the herd condition
	// (false when the test has none).
	Satisfies bool
	Verdict   Verdict
	// Why is the model's witness of a forbidden state.
	Why *checker.Forbidden
}

// Alarms lists the observed states that contradict the model.
func (o *Outcome) Alarms() []*Observed {
	var out []*Observed
	for _, s := range o.States {
		if s.Verdict.Alarm() {
			out = append(out, s)
		}
	}
	return out
}

// Counted is the number of instances in the histogram.
func (o *Outcome) Counted() int { return o.Instances - o.Bounded - o.Filtered }
