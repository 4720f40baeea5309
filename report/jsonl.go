package report

import (
	"encoding/json"
	"io"

	"github.com/ptxmm/ptxmm/checker"
)

// jsonAssertion is one assertion outcome.
type jsonAssertion struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Holds bool   `json:"holds"`
}

// jsonFlag is one raised .flag or .undefined test.
type jsonFlag struct {
	Name       string `json:"name"`
	Undefined  bool   `json:"undefined,omitempty"`
	Executions int    `json:"executions"`
	Witness    string `json:"witness"`
}

// jsonExplained is one explained outcome: its state and the lines that
// explain it, as the herd log prints them.
type jsonExplained struct {
	State string   `json:"state"`
	Why   []string `json:"why"`
}

// jsonResult is the machine-readable form of one result, one per line: the
// fields ../shared/tools/conformance reads (file, instance, verdict,
// assertions, error) and the counts.
type jsonResult struct {
	File       string          `json:"file"`
	Instance   int             `json:"instance"`
	Name       string          `json:"name"`
	Verdict    string          `json:"verdict,omitempty"`
	Assertions []jsonAssertion `json:"assertions,omitempty"`
	Flags      []jsonFlag      `json:"flags,omitempty"`
	States     []string        `json:"states"`
	Positive   int             `json:"positive"`
	Negative   int             `json:"negative"`
	Candidates int             `json:"candidates"`
	Consistent int             `json:"consistent"`
	Sanity     bool            `json:"sanity"`
	Cut        int             `json:"cut,omitempty"`
	Hangs      int             `json:"hangs,omitempty"`
	Unjudged   int             `json:"hangs_without_final_state,omitempty"`
	Stuck      []string        `json:"stuck,omitempty"`
	// Termination is, for a test with a loop that writes memory,
	// "terminates", "livelock" or "not decided: why"; Livelock says, for
	// a livelock, where each thread that loops forever runs.
	Termination string     `json:"termination,omitempty"`
	Livelock    []string   `json:"livelock,omitempty"`
	Loop        bool       `json:"loop,omitempty"`
	Awaits      string     `json:"awaits,omitempty"`
	Empty       *jsonEmpty `json:"empty,omitempty"`
	// Speedcheck says which executions the states and counts are those
	// of: "deciding" (those that may settle the test), "stopped" (up to
	// the first that does); empty for all.
	Speedcheck string `json:"speedcheck,omitempty"`
	// Forbidden and Allowed are the explanations of -explain: each
	// forbidden outcome with the checks that reject it, each allowed
	// outcome the condition asks about with where its reads read from.
	Forbidden []jsonExplained `json:"forbidden,omitempty"`
	Allowed   []jsonExplained `json:"allowed,omitempty"`

	Warnings []string `json:"warnings,omitempty"`
	TimeMS   float64  `json:"time_ms"`
	Error    string   `json:"error,omitempty"`
}

// JSON writes one result as a single line of JSON.
func JSON(w io.Writer, r *checker.Result) error {
	t := r.Test
	out := jsonResult{File: t.File, Instance: t.Instance, Name: t.Name, Verdict: r.Verdict,
		Positive: r.Positive, Negative: r.Negative, Candidates: r.Candidates, Consistent: r.Consistent,
		Sanity: r.Sanity, Cut: r.Cut, Hangs: r.Hangs, Unjudged: r.Unjudged, Stuck: r.Stuck, Loop: r.Loop, Awaits: r.Awaits, Empty: emptyJSON(r), TimeMS: float64(r.Elapsed.Microseconds()) / 1000, States: []string{}}
	if tm := r.Termination; tm != nil {
		out.Termination, out.Livelock = tm.Verdict(), tm.Where
	}
	switch {
	case r.Stopped:
		out.Speedcheck = "stopped"
	case r.OnlyDeciding:
		out.Speedcheck = "deciding"
	}
	for _, w := range t.Warnings {
		out.Warnings = append(out.Warnings, w.Error())
	}
	if r.Err != nil {
		out.Error = r.Err.Error()
	} else {
		for _, s := range r.States {
			out.States = append(out.States, checker.FormatState(t, r.Layout, r.Observables, s))
		}
		for _, f := range r.Flags {
			out.Flags = append(out.Flags, jsonFlag{Name: f.Name, Undefined: f.Undefined, Executions: f.Executions,
				Witness: WitnessText(f.Execution, f.Witness)})
		}
		for _, a := range r.Assertions {
			out.Assertions = append(out.Assertions, jsonAssertion{Name: a.Name, Kind: a.Kind.String(), Holds: a.Holds})
		}
		for _, f := range r.Forbidden {
			out.Forbidden = append(out.Forbidden, jsonExplained{State: checker.FormatState(t, r.Layout, r.Observables, f.State),
				Why: ForbiddenText(f)})
		}
		for _, a := range r.Allowed {
			out.Allowed = append(out.Allowed, jsonExplained{State: checker.FormatState(t, r.Layout, r.Observables, a.State),
				Why: AllowedText(a)})
		}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	b = append(b, '\n')
	_, err = w.Write(b)
	return err
}

// ErrorJSON writes a line for a file that could not be parsed.
func ErrorJSON(w io.Writer, file string, err error) error {
	b, merr := json.Marshal(jsonResult{File: file, Error: err.Error(), States: []string{}})
	if merr != nil {
		return merr
	}
	_, werr := w.Write(append(b, '\n'))
	return werr
}
