package mockllm_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// cachedBody is a Messages API body: a system prompt of sys tokens marked
// with cache_control (ttl "" takes the default), then user messages of
// the given tokens, the last one marked when markLast.
func cachedBody(sys int, ttl string, markLast bool, msgs ...int) string {
	cc := map[string]any{"type": "ephemeral"}
	if ttl != "" {
		cc["ttl"] = ttl
	}
	var messages []any
	for i, n := range msgs {
		block := map[string]any{"type": "text", "text": tokens.Text(n) + string(rune('a'+i))}
		if markLast && i == len(msgs)-1 {
			block["cache_control"] = cc
		}
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		messages = append(messages, map[string]any{"role": role, "content": []any{block}})
	}
	b, err := json.Marshal(map[string]any{
		"model": "sonnet", "max_tokens": 100,
		"system":   []any{map[string]any{"type": "text", "text": tokens.Text(sys), "cache_control": cc}},
		"messages": messages,
	})
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

type cacheUsage struct {
	Usage struct {
		InputTokens   int `json:"input_tokens"`
		CacheCreation int `json:"cache_creation_input_tokens"`
		CacheRead     int `json:"cache_read_input_tokens"`
		ByTTL         *struct {
			M5 int `json:"ephemeral_5m_input_tokens"`
			H1 int `json:"ephemeral_1h_input_tokens"`
		} `json:"cache_creation"`
	} `json:"usage"`
}

func usageOf(w *httptest.ResponseRecorder) cacheUsage {
	var u cacheUsage
	ExpectWithOffset(1, w.Code).To(Equal(http.StatusOK), w.Body.String())
	ExpectWithOffset(1, json.Unmarshal(w.Body.Bytes(), &u)).To(Succeed())
	return u
}

var _ = Describe("The prompt cache", func() {
	var (
		clk *clock.Virtual
		srv *mockllm.Server
		sc  *scenario.Scenario
	)
	BeforeEach(func() {
		clk = clock.NewVirtual()
		sc = newScenario()
		m := sc.Models["sonnet"]
		m.Cache = &scenario.Cache{}
		sc.Models["sonnet"] = m
	})
	serve := func() { srv = mockllm.New([]*scenario.Scenario{sc}, stopped{clk}) }

	It("writes a marked prefix, then reads it on a resend within its lifetime", func() {
		serve()
		body := cachedBody(2000, "", true, 1500)
		u := usageOf(to("a").send(srv, body)).Usage
		Expect(u.CacheRead).To(Equal(0))
		Expect(u.CacheCreation).To(Equal(2000 + 1501))
		Expect(u.ByTTL.M5).To(Equal(3501))
		Expect(u.InputTokens).To(Equal(0))

		clk.Advance(4 * time.Minute)
		u = usageOf(to("a").send(srv, body)).Usage
		Expect(u.CacheRead).To(Equal(3501))
		Expect(u.CacheCreation).To(Equal(0))
	})

	It("lets a prefix expire after its lifetime, and a hit renews it", func() {
		serve()
		body := cachedBody(2000, "", true, 10)
		usageOf(to("a").send(srv, body))
		clk.Advance(4 * time.Minute)
		Expect(usageOf(to("a").send(srv, body)).Usage.CacheRead).To(Equal(2011))
		clk.Advance(4 * time.Minute) // 8 min after the write, 4 after the hit
		Expect(usageOf(to("a").send(srv, body)).Usage.CacheRead).To(Equal(2011))
		clk.Advance(5 * time.Minute)
		u := usageOf(to("a").send(srv, body)).Usage
		Expect(u.CacheRead).To(Equal(0))
		Expect(u.CacheCreation).To(Equal(2011))
	})

	It("keeps a 1-hour prefix past five minutes, billed as an hour's write", func() {
		serve()
		body := cachedBody(2000, "1h", false, 10)
		u := usageOf(to("a").send(srv, body)).Usage
		Expect(u.ByTTL.H1).To(Equal(2000))
		Expect(u.InputTokens).To(Equal(11))
		clk.Advance(50 * time.Minute)
		Expect(usageOf(to("a").send(srv, body)).Usage.CacheRead).To(Equal(2000))
	})

	It("reads the cached history of a growing conversation through the lookback", func() {
		serve()
		usageOf(to("a").send(srv, cachedBody(2000, "", true, 100)))
		u := usageOf(to("a").send(srv, cachedBody(2000, "", true, 100, 50, 60))).Usage
		Expect(u.CacheRead).To(Equal(2000 + 101))
		Expect(u.CacheCreation).To(Equal(51 + 61))
	})

	It("misses when the prefix changes, and when a rule says cache: miss", func() {
		serve()
		usageOf(to("a").send(srv, cachedBody(2000, "", false, 10)))
		Expect(usageOf(to("a").send(srv, cachedBody(2001, "", false, 10))).Usage.CacheRead).To(Equal(0))
		sc.Script = []scenario.Rule{rule(scenario.When{Attempt: 2}, scenario.Respond{Cache: scenario.CacheMiss})}
		serve()
		usageOf(to("b").send(srv, cachedBody(2000, "", false, 10)))
		u := usageOf(to("b").send(srv, cachedBody(2000, "", false, 10))).Usage
		Expect(u.CacheRead).To(Equal(0))
		Expect(u.CacheCreation).To(Equal(2000))
	})

	It("keys a message's prefix by the system prompt before it, whatever the key order", func() {
		serve()
		body := func(system string) string {
			b, err := json.Marshal(map[string]any{
				"model": "sonnet", "max_tokens": 100,
				"messages": []any{map[string]any{"role": "user", "content": []any{map[string]any{
					"type": "text", "text": tokens.Text(2000), "cache_control": map[string]any{"type": "ephemeral"}}}}},
				"system": system,
			})
			Expect(err).NotTo(HaveOccurred())
			return string(b)
		}
		usageOf(to("a").send(srv, body("system prompt A")))
		Expect(usageOf(to("a").send(srv, body("system prompt A"))).Usage.CacheRead).To(Equal(2004))
		u := usageOf(to("a").send(srv, body("system prompt B"))).Usage // as long, not the same
		Expect(u.CacheRead).To(Equal(0))
		Expect(u.CacheCreation).To(Equal(2004))
	})

	It("caches the tools up to a tool's cache_control, before the system prompt", func() {
		serve()
		b, err := json.Marshal(map[string]any{
			"model": "sonnet", "max_tokens": 100,
			"tools": []any{map[string]any{"name": "read", "description": tokens.Text(2000),
				"input_schema": map[string]any{"type": "object"}, "cache_control": map[string]any{"type": "ephemeral"}}},
			"messages": []any{map[string]any{"role": "user", "content": "hi"}},
		})
		Expect(err).NotTo(HaveOccurred())
		u := usageOf(to("a").send(srv, string(b))).Usage
		Expect(u.CacheCreation).To(BeNumerically(">=", 2000))
		Expect(usageOf(to("a").send(srv, string(b))).Usage.CacheRead).To(Equal(u.CacheCreation))
	})

	It("caches nothing shorter than min_tokens, nor for a model that declares no cache", func() {
		serve()
		u := usageOf(to("a").send(srv, cachedBody(500, "", false, 10))).Usage
		Expect(u.CacheCreation).To(Equal(0))
		Expect(u.ByTTL).To(BeNil())
		sc.Models["sonnet"] = scenario.Model{ContextWindow: 200000, MaxOutput: 64000}
		serve()
		body := cachedBody(2000, "", false, 10)
		usageOf(to("a").send(srv, body))
		Expect(usageOf(to("a").send(srv, body)).Usage.CacheRead).To(Equal(0))
	})

	It("refuses a fifth breakpoint as the API does", func() {
		serve()
		var blocks []any
		for i := 0; i < 5; i++ {
			blocks = append(blocks, map[string]any{"type": "text", "text": "x", "cache_control": map[string]any{"type": "ephemeral"}})
		}
		b, _ := json.Marshal(map[string]any{"model": "sonnet", "max_tokens": 10, "system": blocks, "messages": []any{map[string]any{"role": "user", "content": "hi"}}})
		w := to("a").send(srv, string(b))
		Expect(w.Code).To(Equal(http.StatusBadRequest))
		Expect(errorOf(w).Error.Message).To(Equal("A maximum of 4 blocks with cache_control may be provided. Found 5."))
		b, _ = json.Marshal(map[string]any{"model": "sonnet", "max_tokens": 10, "system": []any{map[string]any{"type": "text", "text": "x", "cache_control": map[string]any{"type": "ephemeral", "ttl": "2h"}}}, "messages": []any{map[string]any{"role": "user", "content": "hi"}}})
		w = to("a").send(srv, string(b))
		Expect(w.Code).To(Equal(http.StatusBadRequest))
		Expect(errorOf(w).Error.Message).To(Equal("system.0.cache_control.ttl: Input should be '5m' or '1h'"))
	})

	It("is shared by the sessions of serve, and a harness session has its own", func() {
		serve()
		body := cachedBody(2000, "", false, 10)
		usageOf(to("a").send(srv, body))
		Expect(usageOf(to("b").send(srv, body)).Usage.CacheRead).To(Equal(2000))
		Expect(srv.Open(scName, "run1", clock.NewVirtual())).To(Succeed())
		Expect(usageOf(to("run1").send(srv, body)).Usage.CacheRead).To(Equal(0))
	})

	It("serves a prefix only once the answer that wrote it has begun: requests sent together all write", func() {
		m := sc.Models["sonnet"]
		m.Speed = scenario.Speed{FirstToken: secs(2)}
		sc.Models["sonnet"] = m
		serve()
		body := cachedBody(2000, "", false, 10)
		Expect(usageOf(to("a").send(srv, body)).Usage.CacheCreation).To(Equal(2000))
		Expect(usageOf(to("b").send(srv, body)).Usage.CacheCreation).To(Equal(2000)) // a's answer has not begun
		clk.Advance(2 * time.Second)
		Expect(usageOf(to("c").send(srv, body)).Usage.CacheRead).To(Equal(2000))
	})

	It("caches OpenAI prompts by itself, on an exact prefix, in chunks of 128 tokens", func() {
		serve()
		first := openaiAsk("sonnet", 100, 1300)
		w := toOpenAI("a").send(srv, first)
		Expect(w.Code).To(Equal(http.StatusOK))
		var u struct {
			Usage struct {
				Prompt  int `json:"prompt_tokens"`
				Details struct {
					Cached int `json:"cached_tokens"`
				} `json:"prompt_tokens_details"`
			} `json:"usage"`
		}
		Expect(json.Unmarshal(w.Body.Bytes(), &u)).To(Succeed())
		Expect(u.Usage.Details.Cached).To(Equal(0))
		w = toOpenAI("a").send(srv, first)
		Expect(json.Unmarshal(w.Body.Bytes(), &u)).To(Succeed())
		Expect(u.Usage.Prompt).To(Equal(1300))
		Expect(u.Usage.Details.Cached).To(Equal(1280))
	})
})
