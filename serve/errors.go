package serve

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/ptxmm/ptxmm/internal/loader"
	"github.com/ptxmm/ptxmm/source"
)

// apiError is an answer other than 200: its status, message and, for
// errors in the submitted texts, their diagnostics.
type apiError struct {
	status int
	msg    string
	diags  []Diagnostic
}

func (e *apiError) Error() string { return e.msg }

func badRequest(format string, args ...any) *apiError {
	return &apiError{status: http.StatusBadRequest, msg: fmt.Sprintf(format, args...)}
}

// texts names the submitted texts of a request, so that a diagnostic can
// say which editor it belongs to.
type texts struct {
	test  string
	model string
}

// source classifies a file name of a diagnostic.
func (t texts) source(file string) (string, int) {
	switch {
	case file == t.test && t.test != "":
		return "test", 0
	case file == t.model && t.model != "":
		return "model", 0
	case file == loader.UncheckedFile:
		return "unticked", 0
	case strings.HasPrefix(file, loader.ExtraPrefix):
		item := strings.TrimSuffix(strings.TrimPrefix(file, loader.ExtraPrefix), ".decl")
		if n, err := strconv.Atoi(item); err == nil {
			return "extra", n
		}
	}
	return "include", 0
}

// diagnostics turns the source errors inside err into Diagnostics.
func (t texts) diagnostics(err error) []Diagnostic {
	var list source.List
	var one *source.Error
	switch {
	case errors.As(err, &list):
	case errors.As(err, &one):
		list = source.List{one}
	default:
		return nil
	}
	out := make([]Diagnostic, 0, len(list))
	for _, e := range list {
		out = append(out, t.diagnostic(e))
	}
	return out
}

func (t texts) diagnostic(e *source.Error) Diagnostic {
	src, item := t.source(e.Pos.File)
	sev := "error"
	if e.Severity == source.SevWarning {
		sev = "warning"
	}
	d := Diagnostic{Source: src, Item: item, Line: e.Pos.Line, Col: e.Pos.Col, Message: e.Msg, Severity: sev}
	if src == "include" {
		d.File = e.Pos.File
	}
	return d
}

// invalid makes the answer for a test or model that cannot be used: 422
// with the error's diagnostics. what says what failed ("test", "model A").
func (t texts) invalid(what string, err error) error {
	if answered(err) {
		return err
	}
	msg := err.Error()
	if q, ok := err.(interface{ Quoted() string }); ok {
		msg = q.Quoted()
	}
	return &apiError{status: http.StatusUnprocessableEntity, msg: what + ": " + msg, diags: t.diagnostics(err)}
}
