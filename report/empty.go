package report

import "github.com/ptxmm/ptxmm/checker"

// validation is herd's validation line: the verdict, prefixed with "Loop"
// when the unrolling bound cut runs, as herd7 prints it ("Loop Ok").
func validation(r *checker.Result) string {
	if r.Loop {
		return "Loop " + r.Verdict
	}
	return r.Verdict
}

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
