package azure

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// FuzzRoute holds the route reader to Azure's paths: whatever it takes
// names a scenario of one segment and either no model (the v1 path) or a
// deployment of at most 64 bytes with an api-version in the query; it may
// not panic. Run it with
//
//	go test -run '^$' -fuzz FuzzRoute ./mockllm/internal/wire/azure/
func FuzzRoute(f *testing.F) {
	for _, s := range [][2]string{
		{"/sc/openai/deployments/gpt-4o/chat/completions", "api-version=2024-10-21"},
		{"/sc/openai/deployments/gpt-4o/chat/completions", ""},
		{"/sc/openai/v1/chat/completions", ""},
		{"/sc/openai/deployments/a%2Fb/chat/completions", "api-version=x"},
		{"/openai/deployments//chat/completions", "api-version=%zz"},
	} {
		f.Add(s[0], s[1])
	}
	f.Fuzz(func(t *testing.T, path, query string) {
		name, rt, ok := Wire{}.Route(path, query)
		if !ok {
			return
		}
		if name == "" || strings.Contains(name, "/") || !strings.HasPrefix(path, "/"+name+"/openai/") {
			t.Fatalf("%q routed to scenario %q", path, name)
		}
		if rt.Stream || rt.Count || rt.Key != "" || len(rt.Model) > maxDeployment {
			t.Fatalf("%q?%q routed as %+v", path, query, rt)
		}
		if rt.Model != "" && !hasAPIVersion(query) {
			t.Fatalf("%q routed without an api-version in %q", path, query)
		}
	})
}

// FuzzDecode holds the wire to what a hostile body may get: a 400 or a
// 413 in Azure's JSON envelope, never a 5xx; a body it accepts is served
// as the deployment the path named.
func FuzzDecode(f *testing.F) {
	for _, s := range []string{
		`{"model":"gpt-4o","messages":[{"role":"user","content":"hi"}],"max_completion_tokens":10}`,
		`{"messages":[{"role":"user","content":"hi"}]}`,
		`{"messages":[{"role":"tool","content":"x"}]}`,
		`{"model":1}`, `[`, ``, `{"messages":[],"stream":true,"stream_options":{"include_usage":true}}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		q := wire.Request{Model: "dep", HasModel: true}
		e := Wire{}.Decode(body, &q)
		if e == nil {
			if q.Model != "dep" {
				t.Fatalf("served %q for deployment dep: %q", q.Model, body)
			}
			return
		}
		if e.Status != 400 && e.Status != 413 {
			t.Fatalf("refused with status %d: %+v", e.Status, e)
		}
		b := Wire{}.Body(nil, &wire.Reply{Err: e, RequestID: "req_x"})
		var env struct {
			Error struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if err := json.Unmarshal(b, &env); err != nil || env.Error.Message == "" {
			t.Fatalf("the error body is not Azure's envelope: %s", b)
		}
	})
}
