package serve

import (
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

var fuzzEndpoints = []string{"/api/run", "/api/execution", "/api/why", "/api/query", "/api/diff"}

// FuzzRequests sends the API requests built from fuzzed parts (the test's
// text, a rule added to the model, a query or a relation name, an
// execution number) or, when raw is not empty, raw as the body: whatever
// arrives, the answer is JSON, and an error is a 4xx with a message (or a
// 503 when the server is busy), never a 500 or a crash. The server runs in
// process, without the network, under tight limits, and the rule is added
// only when the endpoint's byte asks for it (bits 3 to 5), since each new model
// is compiled: most inputs then take a millisecond or two, where every
// one used to compile spec.dl again and check for up to 2 s (24 inputs in
// 3 minutes). Seeds are below and in testdata/fuzz/FuzzRequests.
func FuzzRequests(f *testing.F) {
	mp := library(f, "examples/MP.litmus")
	spec := library(f, "spec.dl")
	f.Add(uint8(0), "MP.litmus", mp, "", "", 0, []byte(nil))
	f.Add(uint8(1), "MP.litmus", mp, "", "co", 3, []byte(nil))
	f.Add(uint8(2), "MP.litmus", mp, "", "fr", 3, []byte(nil))
	f.Add(uint8(3|0x38), "MP.litmus", mp, "late(X) :- W(X), !IW(X).", "?- late(X), sync(X, Y).", 3, []byte(nil))
	f.Add(uint8(4|0x38), "MP.litmus", mp, ".uncheck causality", "", 0, []byte(nil))
	f.Add(uint8(3), "MP.litmus", mp, "", "?- E(A), E(B), E(C), E(D), E(F), E(G), E(H), E(I), E(J), A != B.", 1, []byte(nil))
	f.Add(uint8(0), "MP-scopes.test", library(f, "examples/MP-scopes.test"), "", "", 2, []byte(nil))
	f.Add(uint8(0), "", "", "", "", 0, []byte(`{"test": {"name": "a.litmus", "text": "PTX A\n{ x=0; }\n P0@cta 0,gpu 0 ;\n ld.weak r0, x ;\nexists (P0:r0 == 0)\n"}, "model": {"name": "m.dl", "text": ".include \"spec.dl\""}}`))
	s, err := New(func() Config {
		c := DefaultConfig()
		c.Options.Timeout = 200 * time.Millisecond
		c.Options.MaxCandidates = 500
		c.MaxTestSize = 80
		c.MaxRequestBytes = 64 << 10
		c.Workers, c.QueueWait = 1, time.Second
		return c
	}())
	if err != nil {
		f.Fatal(err)
	}
	f.Cleanup(s.Close)
	f.Fuzz(func(t *testing.T, endpoint uint8, name, text, extra, arg string, exec int, raw []byte) {
		path := fuzzEndpoints[int(endpoint)%len(fuzzEndpoints)]
		body := raw
		if len(raw) == 0 {
			test := TestSource{Name: name, Text: text, Instance: exec % 4}
			model := ModelSource{Name: "spec.dl", Text: spec}
			if extra != "" && endpoint&0x38 == 0x38 {
				model.Extra = []string{extra}
			}
			var req any
			switch path {
			case "/api/run":
				req = RunRequest{Test: test, Model: model}
			case "/api/execution":
				req = ExecRequest{Test: test, Model: model, Exec: exec, Hidden: []string{arg}}
			case "/api/why":
				req = WhyRequest{Test: test, Model: model, Exec: exec, Rel: arg, Args: []int{exec % 9, exec % 7}}
			case "/api/query":
				req = QueryRequest{Test: test, Model: model, Exec: exec, Query: arg}
			default:
				req = DiffRequest{Test: test, A: model, B: ModelSource{Name: "b.dl", Text: arg}}
			}
			var err error
			if body, err = json.Marshal(req); err != nil {
				t.Skip("not encodable as JSON")
			}
		}
		r := httptest.NewRequest("POST", path, bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, r)
		if rec.Code >= 500 && rec.Code != http.StatusServiceUnavailable {
			t.Fatalf("%s: status %d: %s", path, rec.Code, rec.Body)
		}
		if rec.Code != http.StatusOK {
			var e ErrorResponse
			if err := json.Unmarshal(rec.Body.Bytes(), &e); err != nil || e.Error == "" {
				t.Fatalf("%s: status %d without a JSON error: %s", path, rec.Code, rec.Body)
			}
		} else if !json.Valid(rec.Body.Bytes()) {
			t.Fatalf("%s: invalid JSON: %s", path, rec.Body)
		}
	})
}
