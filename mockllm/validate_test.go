package mockllm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// body is a Messages API request with the given messages (JSON).
func body(messages string) string {
	return `{"model":"sonnet","max_tokens":100,"messages":` + messages + `}`
}

// chatBody is a Chat Completions request with the given messages (JSON).
func chatBody(messages string) string {
	return `{"model":"sonnet","messages":` + messages + `}`
}

const (
	userHi   = `{"role":"user","content":"hi"}`
	useT1    = `{"role":"assistant","content":[{"type":"tool_use","id":"toolu_1","name":"read","input":{}}]}`
	resultT1 = `{"role":"user","content":[{"type":"tool_result","tool_use_id":"toolu_1","content":"ok"}]}`
	callC1   = `{"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function","function":{"name":"read","arguments":"{}"}}]}`
	toolC1   = `{"role":"tool","tool_call_id":"call_1","content":"ok"}`
)

// fnCall and fnOutput are a Responses API function call and its answer.
func fnCall(id string) string {
	return `{"type":"function_call","call_id":"` + id + `","name":"read","arguments":"{}"}`
}

func fnOutput(id string) string {
	return `{"type":"function_call_output","call_id":"` + id + `","output":"ok"}`
}

var _ = Describe("requests checked as the real APIs check them", func() {
	var srv *mockllm.Server
	BeforeEach(func() { srv = mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual()) })

	DescribeTable("Anthropic: refused with the real message",
		func(messages, want string) {
			w := to("s").send(srv, body(messages))
			Expect(w.Code).To(Equal(400), w.Body.String())
			e := errorOf(w)
			Expect(e.Error.Type).To(Equal("invalid_request_error"))
			Expect(e.Error.Message).To(Equal(want))
			Expect(srv.Entries(scName, "s")[0]).To(And(HaveField("Status", 400), HaveField("Kind", "invalid_request")))
		},
		Entry("no message", `[]`, "messages: at least one message is required"),
		Entry("an empty text block", `[{"role":"user","content":[{"type":"text","text":""}]}]`,
			"messages: text content blocks must be non-empty"),
		Entry("a text block of white space", `[{"role":"user","content":[{"type":"text","text":" \n\t"}]}]`,
			"messages: text content blocks must contain non-whitespace text"),
		Entry("empty content", `[{"role":"user","content":""}]`,
			"messages.0: all messages must have non-empty content except for the optional final assistant message"),
		Entry("an empty list of blocks", `[`+userHi+`,{"role":"assistant","content":[]},`+userHi+`]`,
			"messages.1: all messages must have non-empty content except for the optional final assistant message"),
		Entry("a tool_result no tool_use before it carries", `[`+userHi+`,{"role":"assistant","content":"sure"},`+resultT1+`]`,
			"messages.2.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message."),
		Entry("a tool_use not answered in the next message", `[`+userHi+`,`+useT1+`,`+userHi+`]`,
			"messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message."),
		Entry("a tool_use as the last message", `[`+userHi+`,`+useT1+`]`,
			"messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_1. Each `tool_use` block must have a corresponding `tool_result` block in the next message."),
	)

	It("Anthropic: takes a tool round trip, consecutive user turns and an empty final assistant message", func() {
		for _, ms := range []string{
			`[` + userHi + `,` + useT1 + `,` + resultT1 + `]`,
			`[` + userHi + `,` + userHi + `]`,
			`[` + userHi + `,{"role":"assistant","content":""}]`,
		} {
			Expect(to("s").send(srv, body(ms)).Code).To(Equal(200), ms)
		}
	})

	It("Anthropic: refuses an anthropic-version the API does not know, takes the known ones and none", func() {
		c := to("s")
		c.header = http.Header{"Anthropic-Version": {"2023-10-01"}}
		w := c.send(srv, ask("sonnet", 100, 10))
		Expect(w.Code).To(Equal(400))
		Expect(errorOf(w).Error.Message).To(Equal(`anthropic-version: "2023-10-01" is not a valid version`))
		for _, v := range []string{"2023-06-01", "2023-01-01"} {
			c.header = http.Header{"Anthropic-Version": {v}}
			Expect(c.send(srv, ask("sonnet", 100, 10)).Code).To(Equal(200))
		}
		Expect(to("s").send(srv, ask("sonnet", 100, 10)).Code).To(Equal(200))
	})

	DescribeTable("OpenAI: refused with the real message, param and code",
		func(messages, param, code, want string) {
			w := call{path: "/" + scName + "/v1/chat/completions", session: "s"}.send(srv, chatBody(messages))
			Expect(w.Code).To(Equal(400), w.Body.String())
			var e oaError
			Expect(json.Unmarshal(w.Body.Bytes(), &e)).To(Succeed())
			Expect(e.Error.Type).To(Equal("invalid_request_error"))
			Expect(e.Error.Message).To(Equal(want))
			Expect(e.Error.Param).To(HaveValue(Equal(param)))
			if code == "" {
				Expect(e.Error.Code).To(BeNil())
			} else {
				Expect(e.Error.Code).To(HaveValue(Equal(code)))
			}
		},
		Entry("a tool message with no call before it", `[`+userHi+`,`+toolC1+`]`, "messages.[1].role", "",
			"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."),
		Entry("a tool message for another call", `[`+userHi+`,`+callC1+`,{"role":"tool","tool_call_id":"call_9","content":"x"}]`, "messages.[2].role", "",
			"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."),
		Entry("a call with no answer", `[`+userHi+`,`+callC1+`,`+userHi+`]`, "messages.[1].role", "",
			"An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_1"),
		Entry("a tool message without tool_call_id", `[`+userHi+`,`+callC1+`,{"role":"tool","content":"x"}]`, "messages[2].tool_call_id", "missing_required_parameter",
			"Missing required parameter: 'messages[2].tool_call_id'."),
		Entry("an assistant message with neither content nor calls", `[`+userHi+`,{"role":"assistant","content":null},`+userHi+`]`, "messages.[1].content", "",
			"Invalid value for 'content': expected a string, got null."),
		Entry("an empty list of parts", `[{"role":"user","content":[]}]`, "messages[0].content", "empty_array",
			"Invalid 'messages[0].content': empty array. Expected an array with minimum length 1, but got an empty array instead."),
	)

	DescribeTable("OpenAI Responses: a function call left unanswered is named",
		func(input, want string) {
			w := call{path: "/" + scName + "/v1/responses", session: "s"}.send(srv, `{"model":"sonnet","input":[`+input+`]}`)
			Expect(w.Code).To(Equal(400), w.Body.String())
			var e oaError
			Expect(json.Unmarshal(w.Body.Bytes(), &e)).To(Succeed())
			Expect(e.Error.Message).To(Equal(want))
			Expect(e.Error.Param).To(HaveValue(Equal("input")))
		},
		// The first call is answered, the second not: the message names the
		// second, the one the agent forgot.
		Entry("before the next message", userHi+`,`+fnCall("c1")+`,`+fnCall("c2")+`,`+fnOutput("c1")+`,`+userHi,
			"No tool output found for function call c2."),
		Entry("at the end of the input", userHi+`,`+fnCall("c1")+`,`+fnCall("c2")+`,`+fnCall("c3")+`,`+fnOutput("c1")+`,`+fnOutput("c3"),
			"No tool output found for function call c2."),
	)

	It("OpenAI: takes a tool round trip", func() {
		w := call{path: "/" + scName + "/v1/chat/completions", session: "s"}.send(srv, chatBody(`[`+userHi+`,`+callC1+`,`+toolC1+`]`))
		Expect(w.Code).To(Equal(200), w.Body.String())
	})

	It("refuses an agent that echoes the text block of a tool-calling answer when it is empty", func() {
		sc := newScenario(rule(scenario.When{}, scenario.Respond{ToolUse: []scenario.ToolUse{{Name: "read", Input: `{"p":1}`}}}))
		sc.Tools = []scenario.Tool{{Name: "read"}}
		srv = mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		ep, hc := live(srv)
		c := anthropic.NewClient(option.WithBaseURL(ep.BaseURL(scName)), option.WithAPIKey("t"), option.WithHTTPClient(hc),
			option.WithMaxRetries(0), option.WithHeader(mockllm.SessionHeader, "agent"))
		msgs := []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("look at p"))}
		ans, err := c.Messages.New(context.Background(), anthropic.MessageNewParams{Model: "sonnet", MaxTokens: 100, Messages: msgs})
		Expect(err).NotTo(HaveOccurred())
		Expect(ans.Content).To(HaveLen(1)) // the tool_use alone
		use := ans.Content[0]

		// A careless agent writes the turn back with an empty text block first.
		echo := anthropic.NewAssistantMessage(anthropic.NewTextBlock(""), anthropic.NewToolUseBlock(use.ID, json.RawMessage(use.Input), use.Name))
		result := anthropic.NewUserMessage(anthropic.NewToolResultBlock(use.ID, "p is 1", false))
		_, err = c.Messages.New(context.Background(), anthropic.MessageNewParams{Model: "sonnet", MaxTokens: 100, Messages: append(msgs, echo, result)})
		var apiErr *anthropic.Error
		Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
		Expect(apiErr.StatusCode).To(Equal(400))
		Expect(apiErr.RawJSON()).To(ContainSubstring("messages: text content blocks must be non-empty"))

		// The same turn written back as it came is taken.
		_, err = c.Messages.New(context.Background(), anthropic.MessageNewParams{Model: "sonnet", MaxTokens: 100,
			Messages: append(msgs, ans.ToParam(), result)})
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Entries(scName, "agent")).To(HaveLen(3))
	})
})
