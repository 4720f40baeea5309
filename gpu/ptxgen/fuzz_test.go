package ptxgen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptxmm/ptxmm/litmus"
)

// FuzzModule generates the modules of fuzzed litmus tests, as ptxmm run
// does before it launches anything: whatever test parses, refusing it,
// planning it and writing its kernel and its -sass module must not panic,
// and planning and writing it again gives the same text.
// The seeds are the shipped examples and testdata/fuzz/FuzzModule.
func FuzzModule(f *testing.F) {
	root := filepath.Join("..", "..", "examples")
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".litmus") {
			return err
		}
		src, err := os.ReadFile(path)
		if err == nil {
			f.Add(string(src))
		}
		return err
	})
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, src string) {
		tc, err := litmus.ParseHerd("fuzz.litmus", []byte(src))
		if err != nil || Support(tc, h100) != nil {
			return
		}
		p, err := NewPlan(tc)
		if err != nil {
			return
		}
		module, err := p.Module(h100.Arch())
		if err != nil {
			return
		}
		optcheck, oerr := p.OptcheckModule(h100.Arch())
		// The same test plans and writes the same text again: a golden
		// module, a cached build and a hash of the kernel depend on it.
		again, err := NewPlan(tc)
		if err != nil {
			t.Fatalf("the second plan fails: %v", err)
		}
		if m, err := again.Module(h100.Arch()); err != nil || m != module {
			t.Fatalf("the module differs the second time (%v):\n%s\n---\n%s", err, module, m)
		}
		if o, err := again.OptcheckModule(h100.Arch()); (err == nil) != (oerr == nil) || o != optcheck {
			t.Fatalf("the -sass module differs the second time (%v, %v)", oerr, err)
		}
	})
}
