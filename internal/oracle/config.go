package oracle

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/ptxmm/ptxmm"
)

// Config says which model an oracle answers for and under which limits:
// the C library's ptxmm_open takes it as JSON. The zero Config is the
// embedded PTX model under the embedding API's defaults.
type Config struct {
	// Model is a model file on disk (.dl or .cat); Library a model of the
	// embedded library (spec.dl, variants/ptx-v6.0.dl, examples/cat/sc.cat);
	// neither means the embedded spec.dl. Variants applies the embedded
	// model's variants (variants/NAME.dl) to it.
	Model    string   `json:"model,omitempty"`
	Library  string   `json:"library,omitempty"`
	Variants []string `json:"variants,omitempty"`
	// IncludeDirs, ExtraRules and Unchecked are ptxmm.WithIncludeDirs,
	// WithExtraRules and WithUncheckedAxioms.
	IncludeDirs []string `json:"include_dirs,omitempty"`
	ExtraRules  []string `json:"extra_rules,omitempty"`
	Unchecked   []string `json:"unchecked,omitempty"`
	// TimeoutMS bounds each request's time (0: the embedding API's 5
	// minutes), MaxMemory its relations' estimated bytes (0: no bound).
	TimeoutMS int64 `json:"timeout_ms,omitempty"`
	MaxMemory int64 `json:"max_memory,omitempty"`
}

// ParseConfig reads a Config from JSON; an empty text is the zero Config.
func ParseConfig(text []byte) (Config, error) {
	var c Config
	if len(bytes.TrimSpace(text)) == 0 {
		return c, nil
	}
	dec := json.NewDecoder(bytes.NewReader(text))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&c); err != nil {
		return c, fmt.Errorf("configuration: %w", describeJSONError(err))
	}
	if dec.More() {
		return c, errors.New("configuration: one JSON object, and the text has more after it")
	}
	return c, nil
}

// Open loads the model a configuration names and returns its oracle.
func Open(c Config) (*Oracle, error) {
	switch {
	case c.Model != "" && c.Library != "":
		return nil, errors.New(`configuration: give "model" (a file) or "library" (an embedded model), not both`)
	case len(c.Variants) > 0 && (c.Model != "" || c.Library != ""):
		return nil, errors.New(`configuration: "variants" edit the embedded spec.dl: give them without "model" or "library"`)
	case c.TimeoutMS < 0 || c.MaxMemory < 0:
		return nil, errors.New(`configuration: "timeout_ms" and "max_memory" are at least 0`)
	}
	opts := []ptxmm.LoadOption{ptxmm.WithIncludeDirs(c.IncludeDirs...), ptxmm.WithExtraRules(c.ExtraRules...),
		ptxmm.WithUncheckedAxioms(c.Unchecked...)}
	var m *ptxmm.Model
	var err error
	switch {
	case c.Model != "":
		m, err = ptxmm.LoadModel(c.Model, opts...)
	case c.Library != "":
		m, err = ptxmm.LoadModelFS(ptxmm.LibraryFS(), c.Library, opts...)
	case len(c.Variants) > 0:
		m, err = ptxmm.VariantModel(c.Variants...)
		if err == nil && (len(c.IncludeDirs) > 0 || len(c.ExtraRules) > 0 || len(c.Unchecked) > 0) {
			err = errors.New(`configuration: "variants" take no include folders, extra rules or unchecked axioms`)
		}
	default:
		m, err = ptxmm.DefaultModel(opts...)
	}
	if err != nil {
		return nil, err
	}
	var o []ptxmm.Option
	if c.TimeoutMS > 0 {
		o = append(o, ptxmm.WithTimeout(time.Duration(c.TimeoutMS)*time.Millisecond))
	}
	if c.MaxMemory > 0 {
		o = append(o, ptxmm.WithMaxMemory(c.MaxMemory))
	}
	return New(m, o...), nil
}
