package openrouter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// FuzzRoute holds the route reader to OpenRouter's one path: whatever it
// takes names a scenario of one segment and leaves the model to the
// body; it may not panic. Run it with
//
//	go test -run '^$' -fuzz FuzzRoute ./mockllm/internal/wire/openrouter/
func FuzzRoute(f *testing.F) {
	for _, s := range []string{"/sc/api/v1/chat/completions", "/api/v1/chat/completions", "/a/b/api/v1/chat/completions", "//api/v1/chat/completions"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		name, rt, ok := Wire{}.Route(path, "")
		if !ok {
			return
		}
		if name == "" || strings.Contains(name, "/") || path != "/"+name+chatPath || rt != (wire.Route{}) {
			t.Fatalf("%q routed to scenario %q as %+v", path, name, rt)
		}
	})
}

// FuzzDecode holds the wire to what a hostile body may get: a 400 or a
// 413 in OpenRouter's envelope, its code the status, never a 5xx.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"model":"m","messages":[{"role":"user","content":"hi"}]}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"models":["a","b"],"provider":{"order":["x"]}}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"models":"a"}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"models":["a","b","c","d"]}`,
		`{"model":"m","messages":[{"role":"user","content":"hi"}],"provider":[]}`,
		`[`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var q wire.Request
		e := Wire{}.Decode(body, &q)
		if e == nil {
			if routing(body) != "" {
				t.Fatalf("served a body whose routing fields are wrong: %q", body)
			}
			return
		}
		if e.Status != 400 && e.Status != 413 {
			t.Fatalf("refused with status %d: %+v", e.Status, e)
		}
		b := Wire{}.Body(nil, &wire.Reply{Err: e, RequestID: "req_x"})
		var env struct {
			Error struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &env); err != nil || env.Error.Message == "" || env.Error.Code != e.Status {
			t.Fatalf("the error body is not OpenRouter's envelope: %s", b)
		}
	})
}
