package grade_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the client's environment", func() {
	sc := &scenario.Scenario{Name: "s", Turn: scenario.Turn{Model: "primary", Wire: scenario.WireGemini, Stream: true}}
	lookup := func(env []string, key string) (string, bool) {
		v, ok := "", false
		for _, kv := range env {
			if k, val, found := strings.Cut(kv, "="); found && k == key {
				v, ok = val, true
			}
		}
		return v, ok
	}

	It("names each wire's base URL as its clients read it, and a dummy key for each", func() {
		env := grade.Environment([]string{"PATH=/bin"}, "http://127.0.0.1:9/s/s/grade/", sc)
		for k, want := range map[string]string{
			"ANTHROPIC_BASE_URL":          "http://127.0.0.1:9/s/s/grade",
			"OPENAI_BASE_URL":             "http://127.0.0.1:9/s/s/grade/v1",
			"GOOGLE_GEMINI_BASE_URL":      "http://127.0.0.1:9/s/s/grade",
			"AZURE_OPENAI_ENDPOINT":       "http://127.0.0.1:9/s/s/grade",
			"OPENAI_API_VERSION":          "2024-10-21",
			"ANTHROPIC_VERTEX_BASE_URL":   "http://127.0.0.1:9/s/s/grade/v1",
			"ANTHROPIC_VERTEX_PROJECT_ID": "s--grade",
			"CLOUD_ML_REGION":             "us-east5",
			"AZURE_OPENAI_API_KEY":        grade.DummyKey,
			"FAULTBENCH_BASE_URL":         "http://127.0.0.1:9/s/s/grade/",
			"FAULTBENCH_WIRE":             "gemini",
			"FAULTBENCH_STREAM":           "true",
			"ANTHROPIC_API_KEY":           grade.DummyKey,
			"GEMINI_API_KEY":              grade.DummyKey,
			"OPENAI_API_KEY":              grade.DummyKey,
			"PATH":                        "/bin",
		} {
			v, ok := lookup(env, k)
			Expect(ok).To(BeTrue(), k)
			Expect(v).To(Equal(want), k)
		}
	})

	It("replaces the user's real provider keys and leaves their other credentials out", func() {
		env := grade.Environment([]string{"OPENAI_API_KEY=sk-real", "ANTHROPIC_API_KEY=sk-ant-real", "GEMINI_API_KEY=real",
			"GOOGLE_API_KEY=real", "ANTHROPIC_AUTH_TOKEN=real", "MISTRAL_API_KEY=real", "openai_api_key=real", "HOME=/home/me"}, "http://127.0.0.1:9/s/s/grade/", sc)
		for _, kv := range env {
			Expect(kv).NotTo(HaveSuffix("real"))
		}
		for _, k := range []string{"GOOGLE_API_KEY", "ANTHROPIC_AUTH_TOKEN", "MISTRAL_API_KEY", "openai_api_key"} {
			_, ok := lookup(env, k)
			Expect(ok).To(BeFalse(), k)
		}
		home, _ := lookup(env, "HOME")
		Expect(home).To(Equal("/home/me"))
	})

	It("keeps the mock's address out of the user's proxy, and the user's own exceptions", func() {
		env := grade.Environment([]string{"http_proxy=http://proxy:3128", "NO_PROXY=.corp"}, "http://127.0.0.1:9/s/s/grade/", sc)
		for _, k := range []string{"NO_PROXY", "no_proxy"} {
			v, _ := lookup(env, k)
			Expect(strings.Split(v, ",")).To(ContainElements(".corp", "127.0.0.1", "localhost"), k)
		}
		// A user who sets only the lower-case spelling keeps it too.
		env = grade.Environment([]string{"https_proxy=http://proxy:3128", "no_proxy=.internal"}, "http://127.0.0.1:9/s/s/grade/", sc)
		for _, k := range []string{"NO_PROXY", "no_proxy"} {
			v, _ := lookup(env, k)
			Expect(strings.Split(v, ",")).To(ContainElements(".internal", "127.0.0.1", "localhost"), k)
		}
	})

	It("sends a real client behind http_proxy to the mock, with a dummy key, not to the proxy", func() {
		python, err := exec.LookPath("python3")
		if err != nil {
			Skip("no python3 on PATH")
		}
		var mu sync.Mutex
		var proxied []string
		proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			proxied = append(proxied, r.Header.Get("x-api-key"))
			mu.Unlock()
			w.WriteHeader(http.StatusBadGateway)
		}))
		defer proxy.Close()
		// urllib honours http_proxy and no_proxy, as most clients do.
		script := `import json, os, urllib.request
req = urllib.request.Request(os.environ["ANTHROPIC_BASE_URL"] + "/v1/messages", method="POST",
    data=json.dumps({"model": "primary", "max_tokens": 16, "messages": [{"role": "user", "content": "hi"}]}).encode(),
    headers={"content-type": "application/json", "anthropic-version": "2023-06-01", "x-api-key": os.environ["ANTHROPIC_API_KEY"]})
urllib.request.urlopen(req, timeout=10).read()`
		one := pack("t-proxy", "recovers", "anthropic", `  - {respond: {ok: true}}`)
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		runs, err := grade.Observe(ctx, []*scenario.Scenario{one}, grade.Options{
			Command: []string{python, "-c", script}, Timeout: 30 * time.Second,
			Env: append(os.Environ(), "http_proxy="+proxy.URL, "HTTP_PROXY="+proxy.URL, "ANTHROPIC_API_KEY=sk-ant-real-key"),
		})
		Expect(err).NotTo(HaveOccurred())
		mu.Lock()
		defer mu.Unlock()
		Expect(proxied).To(BeEmpty())
		Expect(runs[0].Exit).To(Equal(0), runs[0].Output)
		Expect(runs[0].Entries).To(HaveLen(1))
	})
})
