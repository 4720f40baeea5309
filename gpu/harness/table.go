package harness

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/ptxmm/ptxmm/report"
)

// Table writes a Markdown table of a run's outcomes, one row per test
// (the table of docs/hardware.md, which scripts/gpu-check writes): the
// test's kind and what the model says of its condition (Ok: the condition
// holds in the model), the instances counted, the distinct
// states seen, how often the condition's outcome was seen, the alarms,
// the compiler check and what was left out.
func Table(w io.Writer, outs []*Outcome) {
	var dev *Outcome
	for _, o := range outs {
		if o.Refused == nil && o.Err == nil {
			dev = o
			break
		}
	}
	if dev != nil {
		d := dev.Device
		fmt.Fprintf(w, "GPU: %s (%s, %d SMs), CUDA %s driver; %s.\n", d.Name, d.Arch(), d.SMs, d.DriverVersion(), time.Now().UTC().Format("2006-01-02"))
		fmt.Fprintf(w, "Parameters: `%s`.\n\n", dev.Params)
	} else {
		fmt.Fprint(w, "GPU: none of the tests ran.\nParameters: none.\n\n")
	}
	fmt.Fprintln(w, "| test | model | instances | states | condition seen | rate (per million) | alarms | compiler | notes |")
	fmt.Fprintln(w, "| --- | --- | ---: | ---: | ---: | ---: | ---: | --- | --- |")
	for _, o := range outs {
		name := report.LogName(o.Test)
		switch {
		case o.Refused != nil:
			continue
		case o.Err != nil:
			fmt.Fprintf(w, "| %s | | | | | | | | error: %s |\n", name, cell(o.Err.Error()))
			continue
		}
		model := "-"
		if o.Model != nil {
			model = o.Model.Verdict
			if model == "" {
				model = modelAssertions(o)
			}
		}
		if kind := report.TestKind(o.Test); kind != "" {
			model = kind + " " + model
		}
		pos, _ := o.counts()
		perMillion := 0.0
		if n := o.Counted(); n > 0 {
			perMillion = float64(pos) * 1e6 / float64(n)
		}
		compiler := "-"
		if c := o.Compiler; c != nil {
			compiler = "kept"
			var changed []string
			for _, th := range c.Threads {
				if th.Changed != "" {
					changed = append(changed, th.Name+": "+th.Changed)
				}
			}
			if len(changed) > 0 {
				compiler = "changed (" + strings.Join(changed, "; ") + ")"
			}
		}
		var notes []string
		if o.Bounded > 0 {
			notes = append(notes, fmt.Sprintf("%d hit the loop bound", o.Bounded))
		}
		if o.Filtered > 0 {
			notes = append(notes, fmt.Sprintf("%d filtered", o.Filtered))
		}
		if len(o.Unseen) > 0 {
			notes = append(notes, fmt.Sprintf("%d allowed state(s) not seen", len(o.Unseen)))
		}
		fmt.Fprintf(w, "| %s | %s | %d | %d | %d | %.1f | %d | %s | %s |\n", name, model, o.Counted(), len(o.States), pos, perMillion, len(o.Alarms()), cell(compiler), cell(strings.Join(notes, "; ")))
	}
}

// modelAssertions is the model's word on a .test file without a herd
// condition: Ok when its asserts and permits hold.
func modelAssertions(o *Outcome) string {
	for _, a := range o.Model.Assertions {
		if a.Kind.String() != "check" && !a.Holds {
			return "No"
		}
	}
	return "Ok"
}

// cell escapes a table cell.
func cell(s string) string {
	s = strings.ReplaceAll(s, "|", "\\|")
	return strings.ReplaceAll(s, "\n", " ")
}
