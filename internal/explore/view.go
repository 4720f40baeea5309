package explore

import (
	"fmt"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/execution"
	"github.com/ptxmm/ptxmm/rules"
)

// View is one candidate execution of a model, evaluated with provenance.
type View struct {
	Model *checker.Model
	Cand  checker.Candidate
	Inst  *rules.Instance
}

// Event is one event of the execution.
type Event struct {
	ID    int
	Label string
	// Thread names the event's thread; "" for an initial write.
	Thread string
}

func (v *View) execution() *execution.Execution { return v.Cand.Execution }

// IsEvent reports whether atom a is an event of the execution.
func (v *View) IsEvent(a int) bool { return a >= 0 && a < len(v.execution().Events) }

// Label names atom a: an event as "e3 P0:st.weak x, 1", any other atom
// (a value) by its value.
func (v *View) Label(a int) string {
	x := v.execution()
	if v.IsEvent(a) {
		return fmt.Sprintf("e%d %s", a, x.Label(a))
	}
	if v.Inst != nil && a >= 0 && a < v.Inst.Domain().Len() {
		return v.Inst.Domain().Value(a).String()
	}
	return fmt.Sprint(a)
}

// Labels names each atom of a tuple.
func (v *View) Labels(t []int) []string {
	out := make([]string, len(t))
	for i, a := range t {
		out[i] = v.Label(a)
	}
	return out
}

// Events lists the events of the execution.
func (v *View) Events() []Event {
	x := v.execution()
	out := make([]Event, len(x.Events))
	for i, ev := range x.Events {
		th := ""
		if !ev.IsInit() {
			th = x.Test.Threads[ev.Thread].Name
		}
		out[i] = Event{ID: i, Label: x.Label(i), Thread: th}
	}
	return out
}

// ChoseOrder reports whether the instance holds a chosen pair of some
// run-time order of the model: only then do the verdicts shown depend on
// that choice.
func (v *View) ChoseOrder() bool {
	return choseOrder(v.Inst, v.Model.Syntax.Orders)
}

func choseOrder(inst *rules.Instance, orders []*datalog.Order) bool {
	for _, o := range orders {
		if r, err := inst.Rel(o.Name); err == nil && r.Len() > 0 {
			return true
		}
	}
	return false
}

// OrderNote is what is said of a forbidden execution's checks when
// ChoseOrder: they are shown under one choice of the orders.
const OrderNote = "shown under the first choice of the run-time orders found failing; every choice fails some check"
