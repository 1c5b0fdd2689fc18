package mockllm_test

import (
	"context"
	"encoding/json"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// A client keeps its real model name: the scenario or the server aliases
// it to a model the scenario serves. Over real loopback HTTP.
var _ = Describe("model aliases", func() {
	var sc *scenario.Scenario
	BeforeEach(func() {
		// haiku's window is small: a request aliased to it meets its limits.
		sc = newScenario(rule(scenario.When{Model: "haiku"}, status(529)))
	})

	type reply struct {
		status int
		body   map[string]any
	}
	send := func(srv *mockllm.Server, path, model string) reply {
		GinkgoHelper()
		ep, client := live(srv)
		body := ask(model, 100, 50)
		if path == "chat" {
			body = `{"model":"` + model + `","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}`
			path = ep.BaseURL(scName) + "v1/chat/completions"
		} else {
			path = ep.BaseURL(scName) + "v1/messages"
		}
		resp, err := post(context.Background(), client, path, "s", body)
		Expect(err).NotTo(HaveOccurred())
		data, err := readAll(resp)
		Expect(err).NotTo(HaveOccurred())
		var m map[string]any
		Expect(json.Unmarshal(data, &m)).To(Succeed(), string(data))
		return reply{resp.StatusCode, m}
	}
	errorOfReply := func(r reply) map[string]any {
		GinkgoHelper()
		e, ok := r.body["error"].(map[string]any)
		Expect(ok).To(BeTrue(), "%v", r.body)
		return e
	}

	It("answers an unknown model with the API's 404 and lists the models served (Anthropic)", func() {
		r := send(mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual()), "messages", "claude-sonnet-4-5")
		Expect(r.status).To(Equal(http.StatusNotFound))
		Expect(r.body["type"]).To(Equal("error"))
		e := errorOfReply(r)
		Expect(e["type"]).To(Equal("not_found_error"))
		Expect(e["message"]).To(HavePrefix("model: claude-sonnet-4-5."))
		Expect(e["message"]).To(ContainSubstring("The scenario serves: haiku, sonnet"))
	})

	It("answers an unknown model with the API's 404 and lists the models served (OpenAI)", func() {
		r := send(mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual()), "chat", "gpt-4.1")
		Expect(r.status).To(Equal(http.StatusNotFound))
		e := errorOfReply(r)
		Expect(e["code"]).To(Equal("model_not_found"))
		Expect(e["type"]).To(Equal("invalid_request_error"))
		Expect(e["message"]).To(HavePrefix("The model `gpt-4.1` does not exist or you do not have access to it."))
		Expect(e["message"]).To(ContainSubstring("The scenario serves: haiku, sonnet"))
	})

	It("serves a name the scenario aliases as its model, the script matching the model, the journal keeping the name", func() {
		sc.Aliases = map[string]string{"claude-haiku-4-5": "haiku"}
		srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		r := send(srv, "messages", "claude-haiku-4-5")
		Expect(r.status).To(Equal(529), "the rule for haiku applies")
		Expect(srv.Entries(scName, "s")[0].Model).To(Equal("claude-haiku-4-5"))
	})

	It("serves any name with --model-alias any=MODEL, and a name given exactly first", func() {
		srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual(),
			mockllm.WithAliases(map[string]string{scenario.AnyModel: "sonnet", "small": "haiku"}))
		r := send(srv, "messages", "claude-sonnet-4-5")
		Expect(r.status).To(Equal(http.StatusOK), "%v", r.body)
		Expect(r.body["model"]).To(Equal("claude-sonnet-4-5"), "the answer names the model asked for")
		Expect(send(srv, "chat", "small").status).To(Equal(http.StatusServiceUnavailable), "an overload on the OpenAI wire is a 503")
	})

	It("puts the scenario's aliases before the server's", func() {
		sc.Aliases = map[string]string{scenario.AnyModel: "haiku"}
		srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual(),
			mockllm.WithAliases(map[string]string{scenario.AnyModel: "sonnet"}))
		Expect(send(srv, "messages", "whatever").status).To(Equal(529))
	})

	It("skips an alias to a model the scenario does not serve", func() {
		srv := mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual(),
			mockllm.WithAliases(map[string]string{scenario.AnyModel: "gpt-5"}))
		Expect(send(srv, "messages", "whatever").status).To(Equal(http.StatusNotFound))
	})
})
