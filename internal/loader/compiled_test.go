package loader

import (
	"os"
	"reflect"
	"testing"

	"github.com/stretchr/testify/require"
)

// specSource is the repository's spec.dl, read from disk.
func specSource() Source { return Source{Name: "spec.dl", FS: os.DirFS("../..")} }

func TestCompiledRoundTrip(t *testing.T) {
	data, err := Precompile(specSource(), Options{})
	require.NoError(t, err)
	src := specSource()
	src.Compiled = data
	got, err := Load(src, Options{})
	require.NoError(t, err)
	require.True(t, got.Precompiled)
	want, err := Load(specSource(), Options{})
	require.NoError(t, err)
	require.False(t, want.Precompiled)
	require.True(t, reflect.DeepEqual(want.Syntax, got.Syntax), "syntax")
	require.True(t, reflect.DeepEqual(want.Program, got.Program), "program")
	require.Equal(t, want.Warnings, got.Warnings)
	require.Equal(t, want.Files, got.Files)
	require.Equal(t, want.Digest, got.Digest)
	require.Equal(t, want.TextBytes, got.TextBytes)
}

func BenchmarkCompiled(b *testing.B) {
	data, err := Precompile(specSource(), Options{})
	require.NoError(b, err)
	b.Run("compile", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Load(specSource(), Options{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("precompiled", func(b *testing.B) {
		src := specSource()
		src.Compiled = data
		b.ReportAllocs()
		for b.Loop() {
			m, err := Load(src, Options{})
			if err != nil || !m.Precompiled {
				b.Fatal(err)
			}
		}
	})
}
