package serve

// The JSON API. docs/serve.md documents every field; the page (static/)
// uses nothing else. Requests carry the whole test and model as text, so
// the server keeps no session: repeated requests are answered from the
// caches, keyed by content hash.

// TestSource is a litmus test as text.
type TestSource struct {
	// Name is a file name ending in .litmus (herd format) or .test
	// (NVIDIA's format); it picks the format and appears in messages.
	Name string `json:"name"`
	Text string `json:"text"`
	// Instance is the template row of a .test file, from 1 (0 means 1).
	Instance int `json:"instance,omitempty"`
}

// ModelSource is a model as text, with the page's edits.
type ModelSource struct {
	// Name is a slash-separated path ending in .dl, such as "spec.dl" or
	// "variants/ptx-v6.0.dl": its includes resolve relative to it.
	Name string `json:"name"`
	Text string `json:"text"`
	// Extra holds rules, definitions and checks added as in the REPL, each
	// read as its own input ("input#1", ...); a rule's head needs no .decl.
	Extra []string `json:"extra,omitempty"`
	// Disabled names checks (axioms) to leave out, as .uncheck would.
	Disabled []string `json:"disabled,omitempty"`
}

// RunRequest asks for a test's verdict and candidate executions.
type RunRequest struct {
	Test  TestSource  `json:"test"`
	Model ModelSource `json:"model"`
}

// ExecRequest asks for one candidate execution: its checks and picture.
type ExecRequest struct {
	Test  TestSource  `json:"test"`
	Model ModelSource `json:"model"`
	// Exec numbers the execution as RunResponse.Executions does, from 1.
	Exec int `json:"exec"`
	// Hidden are relations not to draw; Added are relations to draw besides
	// po, rf, co, fr and the relations of the failing checks' witnesses.
	Hidden []string `json:"hidden,omitempty"`
	Added  []string `json:"added,omitempty"`
}

// WhyRequest asks how a tuple of a relation is derived in one execution.
type WhyRequest struct {
	Test  TestSource  `json:"test"`
	Model ModelSource `json:"model"`
	Exec  int         `json:"exec"`
	Rel   string      `json:"rel"`
	// Args are event numbers (e3 is 3).
	Args []int `json:"args"`
}

// QueryRequest runs a REPL line over one execution: "?- BODY." or
// ":show REL".
type QueryRequest struct {
	Test  TestSource  `json:"test"`
	Model ModelSource `json:"model"`
	Exec  int         `json:"exec"`
	Query string      `json:"query"`
}

// DiffRequest compares two models on the test.
type DiffRequest struct {
	Test TestSource  `json:"test"`
	A    ModelSource `json:"a"`
	B    ModelSource `json:"b"`
}

// Diagnostic is one error or warning at a place in the submitted text.
type Diagnostic struct {
	// Source says which text it is about: "test", "model", "extra" (an
	// item of ModelSource.Extra, numbered by Item from 1), "unticked"
	// (ModelSource.Disabled), or "include" (a file the model includes,
	// named by File).
	Source   string `json:"source"`
	Item     int    `json:"item,omitempty"`
	File     string `json:"file,omitempty"`
	Line     int    `json:"line,omitempty"`
	Col      int    `json:"col,omitempty"`
	Message  string `json:"message"`
	Severity string `json:"severity"` // "error" or "warning"
}

// ErrorResponse is the body of every 4xx and 5xx answer.
type ErrorResponse struct {
	Error string `json:"error"`
	// Advice, for a limit the request reached, says what a user of the
	// page can do about it: the limit's flag is the server's, not theirs.
	Advice      string       `json:"advice,omitempty"`
	Diagnostics []Diagnostic `json:"diagnostics,omitempty"`
}

// LibraryResponse lists what the page can load.
type LibraryResponse struct {
	// Examples are the litmus tests shipped in examples/ (subfolders
	// included); Models are spec.dl and the variants.
	Examples []string `json:"examples"`
	Models   []string `json:"models"`
	// Default is the model the page starts with (-model, or spec.dl).
	Default ModelSource `json:"default"`
	// Limits are the bounds every request runs under.
	Limits Limits `json:"limits"`
}

// Limits are the per-request bounds.
type Limits struct {
	MaxCandidates   int     `json:"max_candidates"`
	TimeoutSeconds  float64 `json:"timeout_seconds"`
	Unroll          int     `json:"unroll"`
	MaxRuns         int     `json:"max_runs"`
	MaxRequestBytes int64   `json:"max_request_bytes"`
	MaxTestSize     int     `json:"max_test_size"`
}

// TestInfo describes the test that ran.
type TestInfo struct {
	Name      string `json:"name"`
	Format    string `json:"format"` // "herd" or "nv-test"
	Instance  int    `json:"instance"`
	Instances int    `json:"instances"`
	// Conditions are what an execution's final state can satisfy: the herd
	// condition, or each assertion of a .test file, as text.
	Conditions []string `json:"conditions"`
}

// ModelInfo describes the model that ran.
type ModelInfo struct {
	Name string `json:"name"`
	// Checks are the model's checks (axioms) before Disabled removed any.
	Checks   []string     `json:"checks"`
	Disabled []string     `json:"disabled"`
	Warnings []Diagnostic `json:"warnings"`
}

// AssertionInfo is the outcome of one assert/permit/check of a .test file.
type AssertionInfo struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Condition string `json:"condition"`
	Holds     bool   `json:"holds"`
	Sometimes bool   `json:"sometimes"`
}

// ExecSummary is one candidate execution in the list.
type ExecSummary struct {
	Index      int  `json:"index"`
	Consistent bool `json:"consistent"`
	// Failures are the checks that reject it (empty when consistent).
	Failures []string `json:"failures"`
	State    string   `json:"state"`
	// NoFinalState says why the execution has no final state (thin-air
	// values, or a thread waiting forever with instructions left), so
	// that State is not an outcome; empty when it has one.
	NoFinalState string `json:"no_final_state,omitempty"`
	// Satisfies[i] tells whether the final state satisfies Conditions[i].
	Satisfies []bool `json:"satisfies"`
	// Unticked names the disabled checks that would reject this
	// execution: it is consistent only because they are unticked.
	Unticked []string `json:"unticked,omitempty"`
}

// UntickedInfo says what the disabled checks alone forbid.
type UntickedInfo struct {
	Checks []string `json:"checks"`
	// NowAllowed are the final states allowed without those checks that
	// the whole model forbids.
	NowAllowed []string `json:"now_allowed"`
}

// RunResponse is a test's result.
type RunResponse struct {
	Test  TestInfo  `json:"test"`
	Model ModelInfo `json:"model"`
	// Herd is the result as ptxmm check prints it (herd7's layout, with
	// the forbidden outcomes explained).
	Herd        string          `json:"herd"`
	Verdict     string          `json:"verdict"`
	Observation string          `json:"observation,omitempty"`
	Positive    int             `json:"positive"`
	Negative    int             `json:"negative"`
	Candidates  int             `json:"candidates"`
	Consistent  int             `json:"consistent"`
	States      []string        `json:"states"`
	Assertions  []AssertionInfo `json:"assertions,omitempty"`
	Executions  []ExecSummary   `json:"executions"`
	Unticked    *UntickedInfo   `json:"unticked,omitempty"`
	// Cached tells whether the result came from the result cache.
	Cached    bool    `json:"cached"`
	ElapsedMS float64 `json:"elapsed_ms"`
}

// EventInfo is one event of an execution.
type EventInfo struct {
	ID     int    `json:"id"`
	Label  string `json:"label"`
	Thread string `json:"thread"` // "" for initial writes
}

// EdgeInfo is one step of a witness: From precedes To in Rel, or To
// precedes From when Inverse is set.
type EdgeInfo struct {
	From    int    `json:"from"`
	To      int    `json:"to"`
	Rel     string `json:"rel"`
	Inverse bool   `json:"inverse,omitempty"`
}

// CheckInfo is one check's verdict on an execution.
type CheckInfo struct {
	Name     string `json:"name"`
	Holds    bool   `json:"holds"`
	Unticked bool   `json:"unticked,omitempty"`
	// Chain is a failing check's witness in instruction terms, Edges the
	// same as data.
	Chain string     `json:"chain,omitempty"`
	Edges []EdgeInfo `json:"edges,omitempty"`
}

// RelationInfo is a relation the picture offers.
type RelationInfo struct {
	Name  string `json:"name"`
	Color string `json:"color"`
	Shown bool   `json:"shown"`
	// Pairs counts the relation's pairs in this execution (po: immediate
	// successors only, as drawn).
	Pairs int `json:"pairs"`
	// Witness tells whether a failing check's witness uses it.
	Witness bool `json:"witness,omitempty"`
}

// ExecResponse is one execution in detail.
type ExecResponse struct {
	Index      int         `json:"index"`
	Count      int         `json:"count"`
	Consistent bool        `json:"consistent"`
	State      string      `json:"state"`
	Failures   []string    `json:"failures"`
	Unticked   []string    `json:"unticked,omitempty"`
	Events     []EventInfo `json:"events"`
	Checks     []CheckInfo `json:"checks"`
	// OrderNote says when the verdicts shown depend on a choice of the
	// model's run-time orders.
	OrderNote string `json:"order_note,omitempty"`
	// Note says what the checks do not: why an execution every check
	// accepts is forbidden (final values no consistent choice of the
	// orders reaches, values out of thin air), or why one has no final
	// state (a thread waits forever).
	Note string `json:"note,omitempty"`
	// Explanation, for a consistent execution, says why its outcome is
	// allowed, as ptxmm check -explain does: where each read reads from,
	// and what fails to order the newer writes it does not see.
	Explanation []string       `json:"explanation,omitempty"`
	Relations   []RelationInfo `json:"relations"`
	// AllRelations lists every binary relation of the model, for adding.
	AllRelations []string `json:"all_relations"`
	SVG          string   `json:"svg"`
}

// DerivationNode is one tuple of a derivation tree.
type DerivationNode struct {
	Rel  string `json:"rel"`
	Args []int  `json:"args"`
	// Rule is the definition or rule that derives the tuple; Base is set
	// for tuples of base relations (the execution's facts and orders).
	Rule     string            `json:"rule,omitempty"`
	Base     bool              `json:"base,omitempty"`
	Children []*DerivationNode `json:"children,omitempty"`
}

// WhyResponse is a derivation tree, as the REPL's :why prints it.
type WhyResponse struct {
	Tree   *DerivationNode `json:"tree"`
	Events []EventInfo     `json:"events"`
	Text   string          `json:"text"`
}

// QueryResponse answers a query or :show.
type QueryResponse struct {
	// Columns name the variables of a query (or the columns of :show);
	// each row gives one answer, events as "e3 P0:st.weak x, 1".
	Columns []string   `json:"columns"`
	Rows    [][]string `json:"rows"`
	// Total counts every answer; only the first MaxAnswers are in Rows.
	Total int    `json:"total"`
	Text  string `json:"text"`
}

// Rejection is a check rejecting a candidate, with its witness.
type Rejection struct {
	Check string `json:"check"`
	Chain string `json:"chain"`
}

// OutcomeDiff is a final state one model allows and the other forbids.
type OutcomeDiff struct {
	State string `json:"state"`
	// Candidate is an execution reaching it that the allowing model finds
	// consistent, by what each read reads.
	Candidate  string      `json:"candidate"`
	Rejections []Rejection `json:"rejections"`
}

// AssertionDiff is an assertion whose outcome differs.
type AssertionDiff struct {
	Name string `json:"name"`
	A    bool   `json:"a"`
	B    bool   `json:"b"`
}

// DiffResponse compares two models on the test.
type DiffResponse struct {
	A        string          `json:"a"`
	B        string          `json:"b"`
	Differs  bool            `json:"differs"`
	VerdictA string          `json:"verdict_a,omitempty"`
	VerdictB string          `json:"verdict_b,omitempty"`
	Asserts  []AssertionDiff `json:"assertions,omitempty"`
	// OnlyA are outcomes A allows and B forbids; OnlyB the reverse.
	OnlyA []OutcomeDiff `json:"only_a"`
	OnlyB []OutcomeDiff `json:"only_b"`
	Text  string        `json:"text"`
}
