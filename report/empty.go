package report

import "github.com/ptxmm/ptxmm/checker"

// jsonEmpty is why a test has no final state, in JSON.
type jsonEmpty struct {
	Kind   string `json:"kind"`
	Reason string `json:"reason"`
}

func emptyJSON(r *checker.Result) *jsonEmpty {
	if r.Empty == nil {
		return nil
	}
	return &jsonEmpty{Kind: r.Empty.Kind, Reason: r.Empty.Text}
}
