package loader

import (
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/ptxmm/ptxmm/cat"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/datalog"
	"github.com/ptxmm/ptxmm/internal/snapshot"
)

// compiledModel is what Precompile keeps of a model: its compiled form,
// and what it was compiled from.
type compiledModel struct {
	// Name is the source's name, which positions in the model carry.
	Name string
	// IncludeDirs are the include folders it was read with; they matter
	// only when it includes files.
	IncludeDirs []string
	// Files are the files read, with what each held.
	Files map[string]FileState
	// Texts are the files' texts: a load compares each file with its
	// text, byte for byte, where a digest would hash it (for spec.dl, a
	// fifth of the instructions of a load).
	Texts    map[string]string
	Compiled *checker.Compiled
}

// newCodec returns the codec of compiled models: their interface values
// are the syntax trees' literals and expressions.
func newCodec() *snapshot.Codec {
	return snapshot.New((*datalog.Atom)(nil), (*datalog.Compare)(nil),
		(*datalog.RelRef)(nil), (*datalog.Universe)(nil), (*datalog.Binary)(nil), (*datalog.Unary)(nil))
}

// Precompile compiles a .dl model file and returns it as bytes for
// Source.Compiled: what Load would compile from the same source and
// options, with no items added and no checks left out.
func Precompile(src Source, opts Options) ([]byte, error) {
	switch {
	case cat.IsCatFile(src.Name):
		return nil, fmt.Errorf("%s: only .dl models are compiled ahead of time", src.Name)
	case src.Text != nil:
		return nil, fmt.Errorf("%s: a model compiled ahead of time is read from a file", src.Name)
	case len(opts.Extra) > 0 || len(opts.Unchecked) > 0:
		return nil, errors.New("a model compiled ahead of time has no items added and no checks left out")
	}
	rd := newRecorder(src, opts)
	rd.texts = map[string]string{}
	c, _, err := compile(src, opts, rd)
	if err != nil {
		return nil, err
	}
	return snapshot.EncodeImage(newCodec(), &compiledModel{Name: src.Name, IncludeDirs: opts.IncludeDirs, Files: rd.files, Texts: rd.texts, Compiled: c})
}

// loadCompiled reads the model from src.Compiled when that applies: a .dl
// model file, read with the same include folders (when it includes files),
// nothing added, and every file it was compiled from holding what it held.
// Anything else (bytes of another build, an edited file) and the model is
// compiled as usual.
func loadCompiled(src Source, opts Options) (*Model, bool) {
	if (src.Compiled == nil && src.Image == nil) || src.Text != nil || cat.IsCatFile(src.Name) || len(opts.Extra) > 0 || len(opts.Unchecked) > 0 {
		return nil, false
	}
	var cm *compiledModel
	var err error
	if src.Image != nil {
		cm, err = snapshot.ReadBuiltIn[compiledModel](src.Image, newCodec())
	} else {
		cm, err = snapshot.DecodeImage[compiledModel](newCodec(), src.Compiled)
	}
	if err != nil || cm.Name != src.Name || cm.Compiled == nil {
		return nil, false
	}
	if len(cm.Files) > 1 && !slices.Equal(cm.IncludeDirs, opts.IncludeDirs) {
		return nil, false
	}
	rd := newRecorder(src, opts)
	for name, st := range cm.Files {
		// Each file must hold its text (or still be absent); its digest
		// is then the one recorded with it.
		data, err := rd.base(name)
		switch {
		case st.Absent:
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, false
			}
		case err != nil:
			return nil, false
		default:
			text, ok := cm.Texts[name]
			if !ok || string(data) != text {
				return nil, false
			}
			rd.bytes += int64(len(data))
		}
		rd.files[name] = st
	}
	m := finish(src, opts, rd, cm.Compiled, catParts{})
	m.Precompiled = true
	return m, true
}
