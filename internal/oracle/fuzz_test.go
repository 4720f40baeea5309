package oracle

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ptxmm/ptxmm"
)

// FuzzAnswer: whatever a request line holds, the answer is one JSON
// object, and never an internal error (a recovered panic). Seeds are in
// testdata/fuzz/FuzzAnswer.
func FuzzAnswer(f *testing.F) {
	m, err := ptxmm.DefaultModel()
	if err != nil {
		f.Fatal(err)
	}
	o := New(m, ptxmm.WithTimeout(2*time.Second), ptxmm.WithMaxMemory(64<<20), ptxmm.WithMaxCandidates(10_000))
	f.Add([]byte(`{"id":1,"build":` + oneLine(mpBuild) + `,"relations":["sync","co"]}`))
	f.Add([]byte(`{"op":"model"}`))
	f.Fuzz(func(t *testing.T, req []byte) {
		out := o.Answer(context.Background(), req)
		var ans map[string]any
		if err := json.Unmarshal(out, &ans); err != nil {
			t.Fatalf("the answer is not JSON: %v\n%s", err, out)
		}
		if e, ok := ans["error"].(string); ok && strings.HasPrefix(e, "internal error") {
			t.Fatalf("%s\nrequest: %s", e, req)
		}
	})
}
