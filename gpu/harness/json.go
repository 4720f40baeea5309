package harness

import (
	"encoding/json"
	"io"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/report"
)

// jsonState is one observed state.
type jsonState struct {
	State     string  `json:"state"`
	Count     int     `json:"count"`
	Rate      float64 `json:"rate_per_s"`
	Condition bool    `json:"condition"`
	// Model is the model's verdict: allowed, forbidden, unreached,
	// undefined or unknown.
	Model   string   `json:"model"`
	Witness []string `json:"witness,omitempty"`
}

type jsonThread struct {
	Name    string   `json:"name"`
	PTX     []string `json:"ptx"`
	Machine []string `json:"machine"`
	Changed string   `json:"changed,omitempty"`
}

type jsonCompiler struct {
	Tool    string       `json:"tool"`
	Changed bool         `json:"changed"`
	Threads []jsonThread `json:"threads"`
}

type jsonGPU struct {
	Name   string `json:"name"`
	Arch   string `json:"arch"`
	SMs    int    `json:"sms"`
	Driver string `json:"driver"`
}

// jsonOutcome is the machine-readable form of an outcome, one per line,
// with the fields of ptxmm check's JSON where they mean the same (file,
// instance, name, verdict, states, error).
type jsonOutcome struct {
	File      string        `json:"file"`
	Instance  int           `json:"instance"`
	Name      string        `json:"name"`
	Kind      string        `json:"kind,omitempty"`
	Verdict   string        `json:"verdict,omitempty"`
	States    []jsonState   `json:"states"`
	Unseen    []string      `json:"unseen,omitempty"`
	Alarms    int           `json:"alarms"`
	Instances int           `json:"instances"`
	Bounded   int           `json:"bounded,omitempty"`
	Filtered  int           `json:"filtered,omitempty"`
	Launches  int           `json:"launches"`
	Compiler  *jsonCompiler `json:"compiler,omitempty"`
	Notes     []string      `json:"notes,omitempty"`
	Model     string        `json:"model_error,omitempty"`
	GPU       jsonGPU       `json:"gpu"`
	Params    string        `json:"params"`
	TimeMS    float64       `json:"time_ms"`
	Refused   string        `json:"refused,omitempty"`
	Error     string        `json:"error,omitempty"`
}

// JSON writes an outcome as one line of JSON.
func JSON(w io.Writer, o *Outcome) error {
	t := o.Test
	d := o.Device
	out := jsonOutcome{File: t.File, Instance: t.Instance, Name: t.Name, Kind: report.TestKind(t), States: []jsonState{},
		Instances: o.Instances, Bounded: o.Bounded, Filtered: o.Filtered, Launches: o.Launches, Notes: o.Notes,
		GPU: jsonGPU{Name: d.Name, Arch: d.Arch(), SMs: d.SMs, Driver: d.DriverVersion()}, Params: o.Params.String(),
		TimeMS: float64(o.Elapsed.Microseconds()) / 1000}
	switch {
	case o.Refused != nil:
		out.Refused = o.Refused.Error()
	case o.Err != nil:
		out.Error = o.Err.Error()
	default:
		out.Verdict = o.validation()
		for _, s := range o.sortedStates() {
			js := jsonState{State: o.format(s.State), Count: s.Count, Rate: o.rate(s.Count), Condition: s.Satisfies, Model: s.Verdict.String()}
			if s.Why != nil {
				for _, c := range s.Why.Failures {
					js.Witness = append(js.Witness, report.WitnessText(s.Why.Execution, c))
				}
			}
			if s.Verdict.Alarm() {
				out.Alarms++
			}
			out.States = append(out.States, js)
		}
		for _, st := range o.Unseen {
			out.Unseen = append(out.Unseen, o.format(st))
		}
	}
	if o.ModelErr != nil && o.Refused == nil {
		out.Model = o.ModelErr.Error()
	}
	if c := o.Compiler; c != nil {
		jc := &jsonCompiler{Tool: c.Tool, Changed: c.Changed()}
		for _, th := range c.Threads {
			jc.Threads = append(jc.Threads, jsonThread{Name: th.Name, PTX: th.Want, Machine: th.Got, Changed: th.Changed})
		}
		out.Compiler = jc
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// format prints a state with the test's names ("P1:r0=1; x=2;").
func (o *Outcome) format(st checker.State) string {
	return checker.FormatState(o.Test, o.printing.Layout, o.printing.Observables, st)
}
