package vertex

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// FuzzRoute holds the route reader to Vertex's paths: whatever it takes
// names a scenario of one segment (the path's first, or the project's
// part before --) and either a model of at most 128 bytes or the count
// route; it may not panic. Run it with
//
//	go test -run '^$' -fuzz FuzzRoute ./mockllm/internal/wire/vertex/
func FuzzRoute(f *testing.F) {
	for _, s := range []string{
		"/v1/projects/sc--s1/locations/us-east5/publishers/anthropic/models/claude-sonnet-4@20250514:rawPredict",
		"/sc/v1/projects/p/locations/global/publishers/anthropic/models/m:streamRawPredict",
		"/v1/projects/sc/locations/r/publishers/anthropic/models/count-tokens:rawPredict",
		"/v1/projects/--x/locations/r/publishers/anthropic/models/m:rawPredict",
		"/a/b/v1/projects/p/locations/r/publishers/anthropic/models/m%2F:rawPredict",
		"/v1/projects/p/locations/r/publishers/google/models/m:generateContent",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		name, rt, ok := Wire{}.Route(path, "")
		if !ok {
			return
		}
		if name == "" || strings.Contains(name, "/") || strings.Contains(rt.Session, "/") {
			t.Fatalf("%q routed to scenario %q session %q", path, name, rt.Session)
		}
		if !strings.HasPrefix(path, "/"+name+"/v1/projects/") && !strings.HasPrefix(path, projects+name) {
			t.Fatalf("%q routed to scenario %q, named by neither its first segment nor its project", path, name)
		}
		if rt.Count == (rt.Model != "") || len(rt.Model) > maxSegment || rt.Key != "" || rt.Array {
			t.Fatalf("%q routed as %+v", path, rt)
		}
		if rt.Stream != strings.HasSuffix(path, ":"+methodStream) {
			t.Fatalf("%q routed with stream %v", path, rt.Stream)
		}
	})
}

// FuzzDecode holds the wire to what a hostile body may get: a 400 or a
// 413 in Anthropic's envelope, as the model answers a body it cannot
// take, never a 5xx; a body it accepts named a string anthropic_version
// and is served as the model the path named.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"anthropic_version":"vertex-2023-10-16","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
		`{"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
		`{"anthropic_version":1,"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`,
		`{"anthropic_version":"x","model":"other","max_tokens":10,"messages":[{"role":"user","content":"hi"}],"stream":true}`,
		`[`, ``, `{"anthropic_version":"\u0000"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		q := wire.Request{Model: "m", HasModel: true}
		e := Wire{}.Decode(body, &q)
		if e == nil {
			if q.Model != "m" || versionField(body) != 2 {
				t.Fatalf("served %q (version field %d): %q", q.Model, versionField(body), body)
			}
			return
		}
		if e.Status != 400 && e.Status != 413 {
			t.Fatalf("refused with status %d: %+v", e.Status, e)
		}
		b := Wire{}.Body(nil, &wire.Reply{Err: e, RequestID: "req_x"})
		var env struct {
			Type  string `json:"type"`
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &env); err != nil || env.Type != "error" || env.Error.Message == "" {
			t.Fatalf("the error body is not Anthropic's envelope: %s", b)
		}
	})
}
