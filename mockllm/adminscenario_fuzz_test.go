package mockllm_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
)

// FuzzAdminScenario posts hostile bodies to the admin route that serves a
// scenario declared in code: whatever the body, the answer is a 201 with
// the scenario's base URLs, or a 4xx in the error envelope with a message
// and no more than a file's 100 problems (+1 counting the rest) — never a
// panic or a 5xx — and a scenario taken can be removed. Run it with
//
//	go test -run '^$' -fuzz FuzzAdminScenario ./mockllm/
func FuzzAdminScenario(f *testing.F) {
	for _, s := range []string{
		declared,
		`{"name":"js","description":"d","models":{"m":{"context_window":10,"max_output":5}},"script":[{"respond":{"status":529}}]}`,
		"name: a\n",
		"",
		"[]",
		"name: &a [*a]",
		strings.Repeat("[", 40),
		"name: x\nmodels: {m: {context_window: -1}}\nscript: [{respond: {fault: 42}}]",
		"\xff\xfe",
		"name: ../../etc\ndescription: d\nmodels: {m: {context_window: 10, max_output: 5}}",
	} {
		f.Add([]byte(s), "")
	}
	f.Add([]byte(declared), "a/b")
	f.Fuzz(func(t *testing.T, body []byte, session string) {
		srv := mockllm.New(nil, clock.NewVirtual())
		r := httptest.NewRequest(http.MethodPost, mockllm.ScenariosPath, strings.NewReader(string(body)))
		r.URL.RawQuery = "session=" + strings.ReplaceAll(session, "&", "")
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		switch {
		case w.Code == http.StatusCreated:
			var a mockllm.Added
			if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil || a.Name == "" || !strings.HasPrefix(a.BasePath, "/"+a.Name+"/s/") {
				t.Fatalf("201 with %q (%v)", w.Body.Bytes(), err)
			}
			d := httptest.NewRecorder()
			srv.ServeHTTP(d, httptest.NewRequest(http.MethodDelete, mockllm.ScenariosPath+"/"+a.Name, nil))
			if d.Code != http.StatusOK {
				t.Fatalf("DELETE of %q: %d %s", a.Name, d.Code, d.Body.Bytes())
			}
		case w.Code >= 400 && w.Code < 500:
			var e adminAnswer
			if err := json.Unmarshal(w.Body.Bytes(), &e); err != nil || e.Error.Message == "" || len(e.Error.Problems) > 101 {
				t.Fatalf("%d with %q (%v)", w.Code, w.Body.Bytes(), err)
			}
		default:
			t.Fatalf("status %d for %q: %s", w.Code, body, w.Body.Bytes())
		}
	})
}
