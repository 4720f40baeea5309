package main

import (
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestModelFlags: -cat is -model; a cat model and its includes are found
// as herd7 finds them (-I, $HERDLIB, -set-libdir); -variant sets herd7's
// variants for cat models and selects the embedded model's variants.
func TestModelFlags(t *testing.T) {
	lib := t.TempDir()
	env := t.TempDir()
	inc := t.TempDir()
	writeFile(t, lib, "mysc.cat", "\"SC\"\ninclude \"com.cat\"\nif \"mixed\" let x = 0 else let x = po end\nacyclic x | com as sc\n")
	writeFile(t, lib, "com.cat", "with co from generate_cos(co0)\nlet com = rf | co | (rf^-1 ; co)\n")
	writeFile(t, env, "envonly.cat", "include \"incl.cat\"\nacyclic po | com as sc\n")
	writeFile(t, inc, "incl.cat", "let com = rf | co | (rf^-1 ; co)\n")
	cases := []struct {
		name   string
		args   []string
		env    string
		status int
		out    string
		err    string
	}{
		{"-cat found in -set-libdir", []string{"-cat", "mysc.cat", "-set-libdir", lib, mpFile}, "", 0, "\nNo\n", ""},
		{"-model found in -I", []string{"-model", "mysc.cat", "-I", lib, mpFile}, "", 0, "\nNo\n", ""},
		{"HERDLIB", []string{"-cat", "envonly.cat", "-I", inc, mpFile}, env, 0, "\nNo\n", ""},
		{"herd variant", []string{"-cat", "mysc.cat", "-set-libdir", lib, "-variant", "mixed", mpFile}, "", 0, "\nOk\n", ""},
		{"own variant", []string{"-variant", "ptx-v6.0", filepath.Join("..", "..", "examples", "CoWR+alias-nofence.litmus")}, "", 0, "\nNo\n", ""},
		{"unknown variant", []string{"-variant", "nosuch", mpFile}, "", 2, "", "-variant nosuch: not a variant of the embedded model (causality-alloy,"},
		{"own variant with -model", []string{"-variant", "ptx-v6.0", "-model", "x.dl", mpFile}, "", 2, "", "a variant of the embedded model applies without -model"},
		{"missing", []string{"-cat", "nosuch.cat", "-set-libdir", lib, mpFile}, "", 2, "", "nosuch.cat: cannot read model: no such file"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Setenv("HERDLIB", c.env)
			status, out, errOut := runCaptured(t, runCheck, c.args...)
			require.Equal(t, c.status, status, "%s\n%s", out, errOut)
			require.Contains(t, out, c.out)
			require.Contains(t, errOut, c.err)
		})
	}
}
