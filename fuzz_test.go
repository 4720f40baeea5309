package ptxmm_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/litmus"
)

// FuzzCheckLitmus runs the whole pipeline (parse, enumerate, evaluate the
// model, explain) on arbitrary herd-format text: whatever parses must be
// checked without panicking, within tight resource limits, and a test that
// hits a limit must say so in Result.Err.
func FuzzCheckLitmus(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("examples", "*.litmus"))
	for _, sub := range []string{"async", "idioms", "tcgen05", "barriers", "hangs", "sizes", "host", "proxies"} {
		more, _ := filepath.Glob(filepath.Join("examples", sub, "*.litmus"))
		files = append(files, more...)
	}
	for _, p := range files {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	m, err := ptxmm.DefaultModel()
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		test, err := litmus.ParseHerd("fuzz.litmus", src)
		if err != nil {
			return
		}
		r := m.Check(test, ptxmm.WithMaxCandidates(2000), ptxmm.WithTimeout(2*time.Second), ptxmm.WithUnroll(1), ptxmm.WithExplain(),
			ptxmm.WithMaxMemory(256<<20))
		if r.Err == nil && test.Condition != nil && r.Verdict != "Ok" && r.Verdict != "No" && r.Verdict != "Undef" {
			t.Fatalf("verdict %q", r.Verdict)
		}
	})
}
