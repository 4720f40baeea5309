package oracle

import (
	"encoding/json"

	"github.com/ptxmm/ptxmm"
)

// Request is one request: its Op says what it asks, and defaults to
// "evaluate" when Execution or Build is given, to "check" when Litmus is.
type Request struct {
	// ID, any JSON value, is copied into the answer.
	ID json.RawMessage `json:"id,omitempty"`
	Op string          `json:"op,omitempty"`
	// Execution is the execution to evaluate, as ptxmm.Execution takes it;
	// Build describes it by its events instead (ptxmm.ExecutionBuilder).
	Execution *ptxmm.Execution        `json:"execution,omitempty"`
	Build     *ptxmm.ExecutionBuilder `json:"build,omitempty"`
	// Relations names derived relations (or base ones, or orders) whose
	// tuples the answer gives, as the execution's consistent choice of
	// the orders has them.
	Relations []string `json:"relations,omitempty"`
	// Litmus is the text of a litmus file to check, Name its file name
	// (.litmus by default; .test for a template).
	Litmus string `json:"litmus,omitempty"`
	Name   string `json:"name,omitempty"`
}

// The operations.
const (
	OpEvaluate = "evaluate"
	OpCheck    = "check"
	OpModel    = "model"
)

// Answer is the answer to one request: Error, or what the operation gives.
type Answer struct {
	ID    json.RawMessage `json:"id,omitempty"`
	Error string          `json:"error,omitempty"`
	// An evaluation: Consistent, every check's verdict (failing ones with
	// their witness), the flags raised (when consistent), whether one of
	// them is an .undefined test, and the relations asked for.
	Consistent *bool                 `json:"consistent,omitempty"`
	Undefined  bool                  `json:"undefined,omitempty"`
	Checks     []ptxmm.CheckVerdict  `json:"checks,omitempty"`
	Flags      []ptxmm.Flag          `json:"flags,omitempty"`
	Relations  map[string][][]string `json:"relations,omitempty"`
	// A check: one object per test of the file, as ptxmm check -json
	// prints them.
	Results []json.RawMessage `json:"results,omitempty"`
	// The model: what it reads, checks and chooses.
	Model *ModelInfo `json:"model,omitempty"`
}

// ModelInfo describes the model the oracle answers for.
type ModelInfo struct {
	Name      string           `json:"name"`
	Inputs    []string         `json:"inputs"`
	Checks    []string         `json:"checks"`
	Flags     []ptxmm.FlagTest `json:"flags"`
	Orders    []ptxmm.Order    `json:"orders"`
	Relations []string         `json:"relations"`
}
