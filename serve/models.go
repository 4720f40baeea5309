package serve

import (
	"path"
	"slices"
	"strings"

	"github.com/ptxmm/ptxmm"
	"github.com/ptxmm/ptxmm/checker"
	"github.com/ptxmm/ptxmm/internal/defaultmodel"
	"github.com/ptxmm/ptxmm/internal/lazyregexp"
	"github.com/ptxmm/ptxmm/internal/loader"
)

// compiled is a model ready to check tests.
type compiled struct {
	model *checker.Model
	// key identifies the model's content: its source and its includes
	// (loader.Model.Digest), for the keys of the results cached.
	key string
	// bytes is the memory it is estimated to keep (modelCost).
	bytes int64
}

var checkName = lazyregexp.New(`^[A-Za-z_][A-Za-z0-9_]*$`)

// validateModel checks a model source's fields before anything is parsed.
func validateModel(src ModelSource, what string) error {
	if src.Name == "" {
		return badRequest("%s: the model needs a name ending in .dl (such as spec.dl)", what)
	}
	if len(src.Name) > 256 || !strings.HasSuffix(src.Name, ".dl") || path.Clean(src.Name) != src.Name ||
		strings.HasPrefix(src.Name, "/") || strings.HasPrefix(src.Name, "../") || src.Name == ".." {
		return badRequest("%s: model name %q must be a clean relative path ending in .dl, such as spec.dl or variants/ptx-v6.0.dl", what, src.Name)
	}
	for _, c := range src.Disabled {
		if !checkName().MatchString(c) {
			return badRequest("%s: %q is not a check name", what, c)
		}
	}
	return nil
}

// model returns the compiled model of src, from the cache when its text and
// the files it includes are unchanged; otherwise it compiles it in a
// checking slot. Includes are read only through the confined include file
// system.
func (s *Server) model(cl *apiCall, src ModelSource) (*compiled, error) {
	in, opts := s.loaderInput(src)
	if c, ok := s.models.Cached(in, opts); ok {
		return c, nil
	}
	if err := cl.heavy(); err != nil {
		return nil, err
	}
	return s.models.Load(in, opts)
}

// modelBytesPerByte estimates the memory a compiled model keeps per byte
// of its text: spec.dl's 48 KB load and compile to about 0.9 MB (TestCacheCosts
// measures it).
const modelBytesPerByte = 24

// modelCost estimates the memory a compiled model keeps, the size the
// model cache counts it at.
func modelCost(m *loader.Model) int64 { return 64<<10 + modelBytesPerByte*m.TextBytes }

// compile parses, extends and compiles a model source, without the cache.
func (s *Server) compile(src ModelSource) (*compiled, error) {
	m, err := loader.Load(s.loaderInput(src))
	if err != nil {
		return nil, err
	}
	return newCompiled(m), nil
}

// loaderInput is what the loader reads for a request's model. spec.dl
// sent unchanged, with nothing added or left out, is the embedded default
// model, as ptxmm check reads it: compiled when ptxmm was built, and
// marked as the embedded model (checker.Model.Builtin), which the
// termination of loops that write needs (docs/model.md). Any other text,
// an edited spec.dl included, is compiled, reading its includes through
// the confined include file system.
func (s *Server) loaderInput(src ModelSource) (loader.Source, loader.Options) {
	if src.Name == ptxmm.DefaultModelName && src.Text == s.builtin && len(src.Extra) == 0 && len(src.Disabled) == 0 {
		return defaultmodel.Source(ptxmm.DefaultModelFS()), loader.Options{}
	}
	return loader.Source{Name: src.Name, Text: []byte(src.Text)},
		loader.Options{Extra: src.Extra, Unchecked: src.Disabled, Read: s.includes.ReadFile}
}

// newCompiled keeps a loaded model with the key of its content.
func newCompiled(m *loader.Model) *compiled {
	return &compiled{model: m.Model, key: m.Digest, bytes: modelCost(m)}
}

// normalizedDisabled sorts the unticked checks and drops repeats.
func normalizedDisabled(names []string) []string {
	out := slices.Clone(names)
	slices.Sort(out)
	return slices.Compact(out)
}
