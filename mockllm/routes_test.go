package mockllm_test

import (
	"encoding/json"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("routes the mock does not serve, and the models listing", func() {
	var srv *mockllm.Server

	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
	})

	It("journal an unknown route with its method and the scenario the path names", func() {
		c := call{path: "/sc/s/x/v1/files", method: http.MethodDelete}
		Expect(c.send(srv, "").Code).To(Equal(http.StatusNotFound))
		e := srv.Journal()[0]
		Expect(e.Route).To(Equal("/sc/v1/files"))
		Expect(e.Method).To(Equal(http.MethodDelete))
		Expect(e.Scenario).To(Equal(scName))
		Expect(e.Session).To(Equal("x"))
		Expect(e.ErrorType).To(Equal("invalid_request_error"))
		Expect(e.ErrorMessage).To(ContainSubstring("DELETE /sc/v1/files"))
	})

	It("answer an unknown route in OpenAI's shape when an OpenAI client sends it", func() {
		c := call{path: "/sc/v1/whatever", header: http.Header{"Authorization": {"Bearer k"}}}
		w := c.send(srv, "{}")
		Expect(w.Code).To(Equal(http.StatusNotFound))
		var body struct{ Error struct{ Type, Code string } }
		Expect(json.Unmarshal(w.Body.Bytes(), &body)).To(Succeed(), w.Body.String())
		Expect(body.Error.Code).To(Equal("unknown_url"))
		Expect(srv.Journal()[0].Wire).To(Equal("openai"))
		// An Anthropic client (x-api-key) gets Anthropic's.
		c.header = http.Header{"X-Api-Key": {"k"}}
		Expect(errorOf(c.send(srv, "{}")).Error.Type).To(Equal("not_found_error"))
	})

	It("lists the scenario's models on both wires, as the real APIs do, outside the session's attempts", func() {
		w := call{path: "/sc/s/x/v1/models", method: http.MethodGet, header: http.Header{"X-Api-Key": {"k"}}}.send(srv, "")
		Expect(w.Code).To(Equal(http.StatusOK))
		Expect(w.Header().Get("Request-Id")).NotTo(BeEmpty())
		var a struct {
			Data    []struct{ Type, ID string }
			HasMore bool   `json:"has_more"`
			FirstID string `json:"first_id"`
			LastID  string `json:"last_id"`
		}
		Expect(json.Unmarshal(w.Body.Bytes(), &a)).To(Succeed(), w.Body.String())
		Expect(a.Data).To(HaveLen(2))
		Expect(a.Data[0].Type).To(Equal("model"))
		Expect([]string{a.Data[0].ID, a.Data[1].ID}).To(Equal([]string{"haiku", "sonnet"}))
		Expect(a.HasMore).To(BeFalse())
		Expect([]string{a.FirstID, a.LastID}).To(Equal([]string{"haiku", "sonnet"}))

		w = call{path: "/sc/v1/models", method: http.MethodGet, header: http.Header{"Authorization": {"Bearer k"}}}.send(srv, "")
		Expect(w.Header().Get("X-Request-Id")).NotTo(BeEmpty())
		var o struct {
			Object string
			Data   []struct{ ID, Object string }
		}
		Expect(json.Unmarshal(w.Body.Bytes(), &o)).To(Succeed(), w.Body.String())
		Expect(o.Object).To(Equal("list"))
		Expect(o.Data).To(HaveLen(2))
		Expect(o.Data[1].Object).To(Equal("model"))
		Expect(o.Data[1].ID).To(Equal("sonnet"))

		Expect(srv.Entries(scName, "x")).To(BeEmpty())
		j := srv.Journal()
		Expect(j).To(HaveLen(2))
		Expect(j[0].Route).To(Equal("/sc/v1/models"))
		Expect(j[0].Method).To(Equal(http.MethodGet))
		Expect(j[0].Session).To(Equal("x"))
		Expect([]string{j[0].Wire, j[1].Wire}).To(Equal([]string{"anthropic", "openai"}))
	})
})

var _ = Describe("the journal of an error", func() {
	It("records the type and message the mock answered, and the rule that did", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario(scenario.Rule{Times: 1, Respond: scenario.Respond{Status: 400, Message: "tools.0: JSON schema is invalid"}})}, clock.NewVirtual())
		to("s").send(srv, ask("sonnet", 100, 10))
		to("s").send(srv, ask("nope", 100, 10))
		to("s").send(srv, ask("sonnet", 100, 10))
		es := srv.Entries(scName, "s")
		Expect(es[0].ErrorType).To(Equal("invalid_request_error"))
		Expect(es[0].ErrorMessage).To(Equal("tools.0: JSON schema is invalid"))
		Expect(es[1].ErrorType).To(Equal("not_found_error"))
		Expect(es[1].ErrorMessage).To(ContainSubstring("nope"))
		// The first was the script's rule 1; the mock's own check refused
		// the second; no rule answered the third.
		Expect([]int{es[0].Rule, es[1].Rule, es[2].Rule}).To(Equal([]int{1, 0, 0}))
		Expect(es[2].ErrorType).To(BeEmpty())
		Expect(es[2].ErrorMessage).To(BeEmpty())
	})

	It("records the error a stream ended with", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario(scenario.Rule{Respond: scenario.Respond{
			Type: "overloaded_error", Message: "Overloaded mid-stream", Fault: scenario.Fault{Kind: scenario.FaultError, After: 2},
		}})}, clock.NewVirtual())
		to("s").send(srv, `{"model":"sonnet","max_tokens":100,"stream":true,"messages":[{"role":"user","content":"hi"}]}`)
		e := srv.Entries(scName, "s")[0]
		Expect(e.Status).To(Equal(200))
		Expect(e.ErrorType).To(Equal("overloaded_error"))
		Expect(e.ErrorMessage).To(Equal("Overloaded mid-stream"))
		Expect(e.Rule).To(Equal(1))
	})
})

var _ = Describe("the journal of a body refused for a field", func() {
	It("records the model, max_tokens and stream the body named", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		body := `{"messages":[{"role":"user","content":"hi"},{"role":"system","content":"x"}],"stream":true,"max_tokens":512,"model":"sonnet"}`
		w := to("s").send(srv, body)
		Expect(w.Code).To(Equal(http.StatusBadRequest))
		e := srv.Entries(scName, "s")[0]
		Expect(e.Model).To(Equal("sonnet"))
		Expect(e.MaxTokens).To(Equal(512))
		Expect(e.Stream).To(BeTrue())
		Expect(e.ErrorMessage).To(Equal("messages.1.role: Input should be 'user' or 'assistant'"))
		// Its messages were readable: the journal measures them, as it
		// would the same body with the role accepted.
		to("s").send(srv, `{"messages":[{"role":"user","content":"hi"},{"role":"user","content":"x"}],"max_tokens":512,"model":"sonnet"}`)
		Expect(e.InputTokens).To(Equal(srv.Entries(scName, "s")[1].InputTokens))
		Expect(e.InputTokens).To(BeNumerically(">", 0))
	})

	It("measures nothing of a body whose walk stopped at a later error", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		to("s").send(srv, `{"model":"sonnet","max_tokens":5,"system":"`+tokens.Text(30)+`","messages":[{"role":"system","content":"x"},{"role":"user","content":7}]}`)
		e := srv.Entries(scName, "s")[0]
		Expect(e.ErrorMessage).To(HavePrefix("messages.0.role:"), "the first error in the body's order")
		Expect(e.InputTokens).To(BeZero())
		Expect(e.Model).To(Equal("sonnet"), "salvaged")
	})

	It("records the output budget of OpenAI's bodies, and nothing of a field of the wrong type", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		c := call{path: "/sc/v1/chat/completions", session: "s"}
		c.send(srv, `{"model":"sonnet","max_completion_tokens":77,"messages":5}`)
		c.send(srv, `{"model":7,"max_completion_tokens":"many","stream":"yes","messages":5}`)
		es := srv.Entries(scName, "s")
		Expect(es[0].Model).To(Equal("sonnet"))
		Expect(es[0].MaxTokens).To(Equal(77))
		Expect(es[1].Model).To(BeEmpty())
		Expect(es[1].MaxTokens).To(BeZero())
		Expect(es[1].Stream).To(BeFalse())
		Expect(es[1].Status).To(Equal(http.StatusBadRequest))
	})
})

var _ = Describe("resend detection", func() {
	It("knows a body sent again with its keys reordered and its spacing changed, and not a changed one", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario(scenario.Rule{Respond: status(529)})}, clock.NewVirtual())
		first := `{"model":"sonnet","max_tokens":100,"metadata":{"a":1,"b":"x"},"messages":[{"role":"user","content":"hi é"}]}`
		again := "{ \"messages\": [ {\"content\": \"hi \\u00e9\", \"role\": \"user\"} ],\n \"metadata\": {\"b\": \"x\", \"a\": 1.0}, \"max_tokens\": 100, \"model\": \"sonnet\" }"
		moved := `{"model":"sonnet","max_tokens":100,"metadata":{"a":1,"b":"x"},"messages":[{"role":"user","content":"hi è"}]}`
		swapped := `{"model":"sonnet","max_tokens":100,"metadata":{"a":1,"b":"x"},"messages":[{"role":"user","content":"hi é"},{"role":"user","content":"b"}]}`
		swappedBack := `{"model":"sonnet","max_tokens":100,"metadata":{"a":1,"b":"x"},"messages":[{"role":"user","content":"b"},{"role":"user","content":"hi é"}]}`
		for _, b := range []string{first, again, moved, swapped, swappedBack} {
			to("s").send(srv, b)
		}
		es := srv.Entries(scName, "s")
		Expect([]int{es[0].Resend, es[1].Resend, es[2].Resend, es[3].Resend, es[4].Resend}).To(Equal([]int{0, 1, 0, 0, 0}))
	})
})

var _ = Describe("the journal of a Gemini body refused for a field", func() {
	It("records the model its path named", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		c := call{path: "/sc/v1beta/models/sonnet:streamGenerateContent", session: "g", header: http.Header{"X-Goog-Api-Key": {"k"}}}
		w := c.send(srv, `{"contents":5}`)
		Expect(w.Code).To(Equal(http.StatusBadRequest), w.Body.String())
		e := srv.Entries(scName, "g")[0]
		Expect(e.Wire).To(Equal("gemini"))
		Expect(e.Model).To(Equal("sonnet"))
		Expect(e.Stream).To(BeTrue())
	})
})

var _ = Describe("the journal of a request refused on its headers", func() {
	// The headers' error is the answer; the body is still read, as the real
	// API reads it, and its entry says what it named.
	body := `{"model":"sonnet","max_tokens":512,"stream":true,"messages":[{"role":"user","content":"` + tokens.Text(40) + `"}]}`
	DescribeTable("records the model, max_tokens, stream and input the body named",
		func(c call, send string, want string) {
			srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
			w := c.send(srv, send)
			Expect(w.Code).To(BeNumerically(">=", 400))
			Expect(w.Body.String()).To(ContainSubstring(want))
			e := srv.Entries(scName, c.session)[0]
			Expect(e.Model).To(Equal("sonnet"))
			Expect(e.Stream).To(BeTrue())
			Expect(e.InputTokens).To(BeNumerically(">=", 40))
			Expect(e.MaxTokens).To(Equal(512))
		},
		Entry("a purpose the mock does not know", to("s").purposed("chat"), body, "is not a purpose"),
		Entry("a bad anthropic-version", call{path: "/" + scName + "/v1/messages", session: "s", header: http.Header{"Anthropic-Version": {"1999-01-01"}}}, body, "anthropic-version"),
		Entry("Gemini without a key", call{path: "/" + scName + "/v1beta/models/sonnet:streamGenerateContent", session: "g"},
			`{"contents":[{"role":"user","parts":[{"text":"`+tokens.Text(40)+`"}]}],"generationConfig":{"maxOutputTokens":512}}`, "PERMISSION_DENIED"),
	)

	It("answers first with the headers' error when the body is bad too", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		w := to("s").purposed("chat").send(srv, `{"model":"sonnet","max_tokens":9,"messages":5}`)
		Expect(w.Body.String()).To(ContainSubstring("is not a purpose"))
		e := srv.Entries(scName, "s")[0]
		Expect(e.Model).To(Equal("sonnet"))
		Expect(e.MaxTokens).To(Equal(9))
	})
})
