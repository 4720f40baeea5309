// Package defaultmodel holds the embedded default model (spec.dl)
// compiled when ptxmm is built, so that a run reads it instead of
// compiling it (internal/loader, Source.Image): compiling spec.dl costs
// a few milliseconds, reading its image back (internal/snapshot,
// BuiltIn) about a fifth of that, once per process. spec.snap is written by go
// generate; TestSnapshotCurrent fails when it is stale against spec.dl or
// the compiler. One compiled from another spec.dl, or
// for other types, is never used (the model is then compiled as before);
// one compiled by other code from the same text and types is, until it
// is regenerated.
package defaultmodel

import (
	_ "embed"
	"io/fs"

	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/internal/snapshot"
)

//go:generate go run ./gen

// Name is the name the default model is known by.
const Name = "spec.dl"

// File is the name of the compiled model in this folder.
const File = "spec.snap"

//go:embed spec.snap
var compiled []byte

// image is compiled, read at most once per process.
var image = snapshot.NewBuiltIn(compiled)

// Source is the default model read from fsys, the file system holding
// spec.dl (the embedding API's DefaultModelFS), with its compiled form.
func Source(fsys fs.FS) loader.Source {
	return loader.Source{Name: Name, FS: fsys, Builtin: true, Image: image}
}
