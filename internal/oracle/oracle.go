package oracle

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"

	"github.com/ptxmm/ptxmm"
)

// DefaultMaxRequest bounds one request line: an execution of a few hundred
// events is tens of kilobytes of JSON.
const DefaultMaxRequest = 16 << 20

// Oracle answers requests about one model. It is safe for concurrent use.
type Oracle struct {
	model *ptxmm.Model
	opts  []ptxmm.Option
}

// New returns an oracle for a model, evaluating and checking with opts
// (timeouts, memory bounds).
func New(m *ptxmm.Model, opts ...ptxmm.Option) *Oracle {
	return &Oracle{model: m, opts: opts}
}

// Answer answers one request (a JSON object) with one JSON object, without
// a newline. It never fails: a bad request gets an answer with an error.
func (o *Oracle) Answer(ctx context.Context, request []byte) []byte {
	var req Request
	ans := o.answer(ctx, request, &req)
	ans.ID = req.ID
	b, err := json.Marshal(ans)
	if err != nil {
		b, _ = json.Marshal(Answer{ID: req.ID, Error: "the answer cannot be written as JSON: " + err.Error()})
	}
	return b
}

// answer decodes and runs one request; a panic in it (a bug) is an answer
// with an error, so that one request cannot end a long-running host.
func (o *Oracle) answer(ctx context.Context, request []byte, req *Request) (ans *Answer) {
	defer func() {
		if p := recover(); p != nil {
			ans = &Answer{Error: fmt.Sprintf("internal error (a bug in ptxmm: please report it with the request): %v", p)}
		}
	}()
	dec := json.NewDecoder(bytes.NewReader(request))
	dec.DisallowUnknownFields()
	if err := dec.Decode(req); err != nil {
		return &Answer{Error: "bad request: " + describeJSONError(err).Error()}
	}
	if dec.More() {
		return &Answer{Error: "bad request: one JSON object per line, and this line has more after it"}
	}
	op, err := req.op()
	if err != nil {
		return &Answer{Error: "bad request: " + err.Error()}
	}
	switch op {
	case OpModel:
		return &Answer{Model: o.info()}
	case OpCheck:
		return o.check(ctx, req)
	}
	return o.evaluate(ctx, req)
}

// op works out and checks what a request asks.
func (r *Request) op() (string, error) {
	op := r.Op
	if op == "" {
		switch {
		case r.Execution != nil || r.Build != nil:
			op = OpEvaluate
		case r.Litmus != "":
			op = OpCheck
		default:
			return "", errors.New(`a request gives "execution", "build" or "litmus", or an "op" ("evaluate", "check" or "model")`)
		}
	}
	switch op {
	case OpEvaluate:
		switch {
		case r.Execution != nil && r.Build != nil:
			return "", errors.New(`give the execution once: "execution" or "build", not both`)
		case r.Execution == nil && r.Build == nil:
			return "", errors.New(`"evaluate" needs an "execution" or a "build"`)
		case r.Litmus != "":
			return "", errors.New(`"evaluate" takes an execution, not "litmus" (op "check" checks a litmus test)`)
		}
	case OpCheck:
		switch {
		case r.Litmus == "":
			return "", errors.New(`"check" needs the text of a litmus test in "litmus"`)
		case r.Execution != nil || r.Build != nil || len(r.Relations) > 0:
			return "", errors.New(`"check" takes "litmus" and "name" only`)
		}
	case OpModel:
	default:
		return "", fmt.Errorf(`unknown op %q: the ops are "evaluate", "check" and "model"`, op)
	}
	return op, nil
}

// describeJSONError says where a request's JSON went wrong.
func describeJSONError(err error) error {
	var typ *json.UnmarshalTypeError
	var syn *json.SyntaxError
	switch {
	case errors.As(err, &typ):
		if typ.Field != "" {
			return fmt.Errorf("%s is %s, not a JSON %s (at byte %d)", typ.Field, typ.Type, typ.Value, typ.Offset)
		}
		return fmt.Errorf("expected %s, found a JSON %s (at byte %d)", typ.Type, typ.Value, typ.Offset)
	case errors.As(err, &syn):
		return fmt.Errorf("not JSON: %v (at byte %d)", syn, syn.Offset)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return errors.New("the JSON ends before the object does")
	case errors.Is(err, io.EOF):
		return errors.New("an empty line: each line is one JSON object")
	}
	return err
}

func (o *Oracle) evaluate(ctx context.Context, req *Request) *Answer {
	x := req.Execution
	if req.Build != nil {
		var err error
		if x, err = req.Build.Build(); err != nil {
			return &Answer{Error: err.Error()}
		}
	}
	ev, err := o.model.EvaluateContext(ctx, x, o.opts...)
	if err != nil {
		return &Answer{Error: err.Error()}
	}
	defer ev.Close()
	consistent := ev.Consistent
	ans := &Answer{Consistent: &consistent, Undefined: ev.Undefined, Checks: ev.Checks, Flags: ev.Flags}
	for _, name := range req.Relations {
		tuples, err := ev.Relation(name)
		if err != nil {
			return &Answer{Error: fmt.Sprintf("relation %s: %v", name, err)}
		}
		if ans.Relations == nil {
			ans.Relations = map[string][][]string{}
		}
		if tuples == nil {
			tuples = [][]string{}
		}
		ans.Relations[name] = tuples
	}
	return ans
}

func (o *Oracle) check(ctx context.Context, req *Request) *Answer {
	name := req.Name
	if name == "" {
		name = "request.litmus"
	}
	if ext := path.Ext(name); ext != ".litmus" && ext != ".test" {
		return &Answer{Error: fmt.Sprintf("name %q: a litmus file's name ends in .litmus or .test", name)}
	}
	tests, err := ptxmm.ParseTests(name, []byte(req.Litmus))
	if err != nil {
		return &Answer{Error: err.Error()}
	}
	ans := &Answer{Results: []json.RawMessage{}}
	for _, t := range tests {
		var b bytes.Buffer
		if err := o.model.CheckContext(ctx, t, o.opts...).WriteJSON(&b); err != nil {
			return &Answer{Error: err.Error()}
		}
		ans.Results = append(ans.Results, json.RawMessage(bytes.TrimSuffix(b.Bytes(), []byte("\n"))))
	}
	return ans
}

func (o *Oracle) info() *ModelInfo {
	m := o.model
	return &ModelInfo{Name: m.Name(), Inputs: m.Inputs(), Checks: m.Checks(), Flags: m.Flags(), Orders: m.Orders(), Relations: m.Relations()}
}

// Serve answers the requests of r, one per line, on w, one per line, in
// order, until r ends or ctx is cancelled. A line longer than maxRequest
// bytes is answered with an error and skipped; blank lines are skipped.
// Only a failure to read r or write w ends it early.
func (o *Oracle) Serve(ctx context.Context, r io.Reader, w io.Writer, maxRequest int) error {
	in := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriter(w)
	var line []byte
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		var tooLong bool
		var err error
		line, tooLong, err = readLine(in, line[:0], maxRequest)
		if len(strings.TrimSpace(string(line))) > 0 || tooLong {
			var ans []byte
			if tooLong {
				ans, _ = json.Marshal(Answer{Error: fmt.Sprintf("bad request: longer than %d bytes (ptxmm oracle -max-request raises the bound)", maxRequest)})
			} else {
				ans = o.Answer(ctx, line)
			}
			out.Write(ans)
			out.WriteByte('\n')
			// Answer at once: the host waits for it before its next request.
			if ferr := out.Flush(); ferr != nil {
				return ferr
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// readLine reads one line (without its newline) into buf, keeping at most
// max bytes: a longer line is read to its end and reported too long.
func readLine(r *bufio.Reader, buf []byte, max int) ([]byte, bool, error) {
	tooLong := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !tooLong && len(buf)+len(chunk) > max+1 {
			tooLong = true
			buf = buf[:0]
		}
		if !tooLong {
			buf = append(buf, chunk...)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimSuffix(bytes.TrimSuffix(buf, []byte("\n")), []byte("\r"))
		if err != nil && len(buf) > 0 && errors.Is(err, io.EOF) {
			// A last line without a newline is a request; EOF comes next.
			return buf, tooLong, nil
		}
		return buf, tooLong, err
	}
}
