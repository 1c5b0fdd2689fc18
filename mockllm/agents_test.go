package mockllm_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// fixture is a request a real agent sent to `faultbench serve`, captured in
// a loopback-only network namespace and cut down (testdata/agents/README.md):
// its path below the scenario, the headers that shape it, and its body.
type fixture struct {
	Agent  string            `json:"agent"`
	Path   string            `json:"path"`
	Header map[string]string `json:"header"`
	Body   json.RawMessage   `json:"body"`
}

func loadFixture(name string) fixture {
	b, err := os.ReadFile(filepath.Join("testdata", "agents", name))
	Expect(err).NotTo(HaveOccurred())
	var f fixture
	Expect(json.Unmarshal(b, &f)).To(Succeed())
	return f
}

func (f fixture) call(drop ...string) call {
	c := to("s")
	c.path = "/" + scName + "/" + f.Path
	c.header = http.Header{}
	for k, v := range f.Header {
		c.header.Set(k, v)
	}
	for _, d := range drop {
		var kept []string
		for _, b := range strings.Split(c.header.Get("anthropic-beta"), ",") {
			if b != d {
				kept = append(kept, b)
			}
		}
		c.header.Set("anthropic-beta", strings.Join(kept, ","))
	}
	return c
}

var _ = Describe("what real agents send", func() {
	var srv *mockllm.Server

	BeforeEach(func() {
		sc := newScenario()
		// Claude Code asks for 128,000 output tokens of its Opus.
		sc.Models["sonnet"] = scenario.Model{ContextWindow: 1000000, MaxOutput: 128000}
		srv = mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual(), mockllm.WithAliases(map[string]string{"any": "sonnet"}))
	})

	DescribeTable("gets the real API's 200 for each agent's first request",
		func(name string) {
			f := loadFixture(name)
			w := f.call().send(srv, string(f.Body))
			Expect(w.Code).To(Equal(http.StatusOK), "%s: %s", f.Agent, w.Body.String())
		},
		Entry("Claude Code 2.1.332: a system message among the turns, under per-turn-control-2026-07-01", "claude-code-2.1.332.json"),
		Entry("Codex 0.171.0: Responses with include, reasoning, store, client_metadata", "codex-0.171.0.json"),
		Entry("opencode 1.18.33: cache_control on every block", "opencode-1.18.33.json"),
	)

	It("refuses Claude Code's system message without the beta, as the real API does", func() {
		f := loadFixture("claude-code-2.1.332.json")
		w := f.call("per-turn-control-2026-07-01").send(srv, string(f.Body))
		Expect(w.Code).To(Equal(http.StatusBadRequest))
		Expect(errorOf(w).Error.Message).To(Equal("messages.1.role: Input should be 'user' or 'assistant'"))
	})

	It("does not let a remembered body carry the beta to a request without it", func() {
		// A session the harness opens remembers the last body's messages
		// (internal/wire/memo.go); one that took a system message under the
		// beta does not stand for a body read without it.
		Expect(srv.Open(scName, "s", nil)).To(Succeed())
		f := loadFixture("claude-code-2.1.332.json")
		Expect(f.call().send(srv, string(f.Body)).Code).To(Equal(http.StatusOK))
		Expect(f.call("per-turn-control-2026-07-01").send(srv, string(f.Body)).Code).To(Equal(http.StatusBadRequest))
	})

	It("journals every request's betas, in the header's order", func() {
		f := loadFixture("claude-code-2.1.332.json")
		f.call().send(srv, string(f.Body))
		f.call("per-turn-control-2026-07-01").send(srv, string(f.Body))
		j := srv.Journal()
		Expect(j).To(HaveLen(2))
		Expect(j[0].Betas).To(Equal(f.Header["anthropic-beta"]))
		Expect(strings.Split(j[0].Betas, ",")).To(ContainElement("per-turn-control-2026-07-01"))
		Expect(strings.Split(j[1].Betas, ",")).NotTo(ContainElement("per-turn-control-2026-07-01"))
		Expect(j[1].Status).To(Equal(http.StatusBadRequest))
	})

	It("bounds the betas it journals: 32 names of 100 bytes, 256 bytes in all", func() {
		c := to("s")
		c.header = http.Header{"Anthropic-Beta": {strings.Repeat("b,", 100) + strings.Repeat("x", 500)}}
		c.send(srv, ask("sonnet", 30, 10))
		Expect(strings.Split(srv.Journal()[0].Betas, ",")).To(HaveLen(32))
		c.header = http.Header{"Anthropic-Beta": {" " + strings.Repeat("y", 500) + " , , z", "w"}}
		c.send(srv, ask("sonnet", 30, 10))
		Expect(srv.Journal()[1].Betas).To(Equal(strings.Repeat("y", 100) + ",z,w"))
		c.header = http.Header{"Anthropic-Beta": {strings.Repeat(strings.Repeat("q", 99)+",", 6)}}
		c.send(srv, ask("sonnet", 30, 10))
		Expect(srv.Journal()[2].Betas).To(HaveLen(2*99 + 1))
	})

	It("journals the betas of a count_tokens and of a refused method too", func() {
		f := loadFixture("claude-code-2.1.332.json")
		c := f.call()
		c.path = "/" + scName + "/v1/messages/count_tokens"
		Expect(c.send(srv, string(f.Body)).Code).To(Equal(http.StatusOK))
		c = f.call()
		c.method = http.MethodGet
		Expect(c.send(srv, "").Code).To(Equal(http.StatusMethodNotAllowed))
		j := srv.Journal()
		Expect(j).To(HaveLen(2))
		for _, e := range j {
			Expect(e.Betas).To(Equal(f.Header["anthropic-beta"]), "%s %s", e.Method, e.Route)
		}
	})

	It("takes the beta wherever the header names it, past the names it journals", func() {
		f := loadFixture("claude-code-2.1.332.json")
		c := f.call()
		c.header.Set("anthropic-beta", strings.Repeat("a,", 40)+"per-turn-control-2026-07-01")
		Expect(c.send(srv, string(f.Body)).Code).To(Equal(http.StatusOK))
		Expect(srv.Journal()[0].Betas).NotTo(ContainSubstring("per-turn"))
	})

	It("counts the tokens of Claude Code's first request under the beta, and refuses them without it", func() {
		f := loadFixture("claude-code-2.1.332.json")
		c := f.call()
		c.path = "/" + scName + "/v1/messages/count_tokens"
		Expect(c.send(srv, string(f.Body)).Code).To(Equal(http.StatusOK))
		c = f.call("per-turn-control-2026-07-01")
		c.path = "/" + scName + "/v1/messages/count_tokens"
		Expect(c.send(srv, string(f.Body)).Code).To(Equal(http.StatusBadRequest))
	})

	It("echoes store and max_output_tokens in the Responses answer", func() {
		c := to("s")
		c.path = "/" + scName + "/v1/responses"
		w := c.send(srv, `{"model":"sonnet","input":"hi","store":false,"max_output_tokens":100}`)
		Expect(w.Code).To(Equal(http.StatusOK), w.Body.String())
		var got map[string]any
		Expect(json.Unmarshal(w.Body.Bytes(), &got)).To(Succeed())
		Expect(got["store"]).To(BeFalse())
		Expect(got["max_output_tokens"]).To(BeNumerically("==", 100))
		w = c.send(srv, `{"model":"sonnet","input":"hi"}`)
		Expect(json.Unmarshal(w.Body.Bytes(), &got)).To(Succeed())
		Expect(got["store"]).To(BeTrue(), "the API's default")
		Expect(got["max_output_tokens"]).To(BeNil())
	})

	It("echoes the settings Codex sends in every response object of its stream", func() {
		f := loadFixture("codex-0.171.0.json")
		var sent map[string]json.RawMessage
		Expect(json.Unmarshal(f.Body, &sent)).To(Succeed())
		w := f.call().send(srv, string(f.Body))
		Expect(w.Code).To(Equal(http.StatusOK), w.Body.String())
		n := 0
		for _, line := range strings.Split(w.Body.String(), "\n") {
			data, ok := strings.CutPrefix(line, "data: ")
			if !ok {
				continue
			}
			var ev struct {
				Response map[string]json.RawMessage `json:"response"`
			}
			Expect(json.Unmarshal([]byte(data), &ev)).To(Succeed())
			if ev.Response == nil {
				continue
			}
			n++
			for _, k := range []string{"reasoning", "text", "tool_choice", "tools", "parallel_tool_calls", "prompt_cache_key"} {
				Expect(ev.Response[k]).To(MatchJSON(sent[k]), k)
			}
			Expect(ev.Response["store"]).To(MatchJSON("false"))
			Expect(ev.Response["instructions"]).To(MatchJSON(orNull(sent["instructions"])))
		}
		Expect(n).To(Equal(3), "created, in_progress, completed")
	})

	It("echoes a setting of a type the API does not take as its default, and bounds what it echoes", func() {
		c := to("s")
		c.path = "/" + scName + "/v1/responses"
		big := `[{"type":"function","name":"a","description":"` + strings.Repeat("x", 300<<10) + `"}]`
		w := c.send(srv, `{"model":"sonnet","input":"hi","temperature":"hot","tools":`+big+`,"metadata":{"a":"b"}}`)
		Expect(w.Code).To(Equal(http.StatusOK), w.Body.String()[:min(300, w.Body.Len())])
		var got map[string]json.RawMessage
		Expect(json.Unmarshal(w.Body.Bytes(), &got)).To(Succeed())
		Expect(got["temperature"]).To(MatchJSON("1.0"))
		Expect(got["tools"]).To(MatchJSON("[]"), "past 256 KiB, the default")
		Expect(got["metadata"]).To(MatchJSON(`{"a":"b"}`))
	})
})

// orNull is v, or JSON null when the body did not send it.
func orNull(v json.RawMessage) json.RawMessage {
	if v == nil {
		return json.RawMessage("null")
	}
	return v
}
