package defaultmodel

import (
	"bytes"
	"crypto/sha256"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/internal/snapshot"
	"github.com/ptxmm/ptxmm/litmus"
	"github.com/stretchr/testify/require"
)

// root is the repository's root, where spec.dl is.
var root = os.DirFS("../..")

// TestSnapshotCurrent fails when spec.snap is not what go generate writes
// for today's spec.dl and today's types: a forgotten regeneration. (A
// stale spec.snap is never used, so the answers would be right, only
// slower.)
func TestSnapshotCurrent(t *testing.T) {
	want, err := loader.Precompile(loader.Source{Name: Name, FS: root}, loader.Options{})
	require.NoError(t, err)
	if !bytes.Equal(want, compiled) {
		t.Fatalf("internal/defaultmodel/%s is stale against spec.dl (or the compiled model's types): run go generate ./internal/defaultmodel", File)
	}
	// The program reads it without its checksum (snapshot.BuiltIn):
	// these bytes are the ones built in.
	require.NoError(t, snapshot.CheckImage(compiled))
}

// TestSourceReadsSnapshot loads the default model from its snapshot and
// compiles it again: the two are the same model.
func TestSourceReadsSnapshot(t *testing.T) {
	got, err := loader.Load(Source(root), loader.Options{})
	require.NoError(t, err)
	require.True(t, got.Precompiled, "spec.snap was not used (stale?)")
	want, err := loader.Load(loader.Source{Name: Name, FS: root, Builtin: true}, loader.Options{})
	require.NoError(t, err)
	require.False(t, want.Precompiled)
	require.True(t, reflect.DeepEqual(want.Syntax, got.Syntax))
	require.True(t, reflect.DeepEqual(want.Program, got.Program))
	require.Equal(t, want.Warnings, got.Warnings)
	require.Equal(t, want.Digest, got.Digest)
	require.True(t, got.Builtin)
}

// TestSnapshotNotUsed lists the loads the snapshot does not apply to: each
// compiles (and gives what compiling gives).
func TestSnapshotNotUsed(t *testing.T) {
	edited := func(name string) ([]byte, error) {
		data, err := os.ReadFile("../../" + name)
		return append(data, "\n// edited\n"...), err
	}
	oneByte := func(name string) ([]byte, error) {
		data, err := os.ReadFile("../../" + name)
		if len(data) > 0 {
			data[len(data)/2] ^= 1
		}
		return data, err
	}
	cases := []struct {
		name string
		opts loader.Options
		src  func() loader.Source
	}{
		{"an item added", loader.Options{Extra: []string{"late(X) :- W(X), !IW(X)."}}, func() loader.Source { return Source(root) }},
		{"a check left out", loader.Options{Unchecked: []string{"causality"}}, func() loader.Source { return Source(root) }},
		{"spec.dl edited", loader.Options{Read: edited}, func() loader.Source { return Source(root) }},
		{"one byte of spec.dl changed", loader.Options{Read: oneByte}, func() loader.Source { return Source(root) }},
		{"another file", loader.Options{}, func() loader.Source {
			s := Source(root)
			s.Name = "variants/ptx-v6.0.dl"
			return s
		}},
		{"given as text", loader.Options{}, func() loader.Source {
			s := Source(root)
			s.Text = []byte(".decl R(e)\n.input R\n")
			return s
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := loader.Load(c.src(), c.opts)
			require.NoError(t, err)
			require.False(t, m.Precompiled)
		})
	}
}

// TestBuiltInBytesUnchanged checks the model against its own bytes: a
// load cuts the compiled model's strings and arrays without pointers from
// the embedded image (snapshot.BuiltIn), so a check that wrote
// into them would change the image. After loading it and checking the
// examples with explanations (which read the model the most), the bytes
// are the ones built in, and the model a second load reads is the one
// compiled from spec.dl.
func TestBuiltInBytesUnchanged(t *testing.T) {
	before := sha256.Sum256(compiled)
	m, err := loader.Load(Source(root), loader.Options{})
	require.NoError(t, err)
	require.True(t, m.Precompiled)
	files, err := filepath.Glob("../../examples/*.litmus")
	require.NoError(t, err)
	require.NotEmpty(t, files)
	if testing.Short() {
		files = files[:min(len(files), 12)]
	}
	for _, f := range files {
		tests, err := litmus.ParseFile(f)
		require.NoError(t, err, f)
		for _, lt := range tests {
			m.Check(lt, checker.Options{Explain: true})
		}
	}
	require.Equal(t, before, sha256.Sum256(compiled), "checking wrote into the embedded image")
	again, err := loader.Load(Source(root), loader.Options{})
	require.NoError(t, err)
	require.True(t, again.Precompiled)
	fresh, err := loader.Load(loader.Source{Name: Name, FS: root, Builtin: true}, loader.Options{})
	require.NoError(t, err)
	require.True(t, reflect.DeepEqual(fresh.Program, again.Program))
	require.True(t, reflect.DeepEqual(fresh.Syntax, again.Syntax))
}
