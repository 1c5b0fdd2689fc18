package mockllm_test

import (
	"encoding/json"
	"net/http/httptest"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// oaiError is OpenAI's error envelope.
type oaiError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

func oaiErrorOf(w *httptest.ResponseRecorder) oaiError {
	var e oaiError
	ExpectWithOffset(1, json.Unmarshal(w.Body.Bytes(), &e)).To(Succeed(), w.Body.String())
	return e
}

// The request checks the real APIs make that the decoders once let
// through (issue 20).
var _ = Describe("what every wire refuses", func() {
	var srv *mockllm.Server
	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
	})
	messages := call{path: "/" + scName + "/v1/messages", session: "a"}
	chats := call{path: "/" + scName + "/v1/chat/completions", session: "c"}
	responses := call{path: "/" + scName + "/v1/responses", session: "r"}

	It("counts no tokens for a body without messages: 400 messages: Field required", func() {
		w := call{path: "/" + scName + "/v1/messages/count_tokens", session: "a"}.send(srv, `{"model":"sonnet"}`)
		Expect(w.Code).To(Equal(400), w.Body.String())
		Expect(errorOf(w).Error.Message).To(Equal("messages: Field required"))
	})

	DescribeTable("tools that are not a list of objects",
		func(c call, body, want string) {
			w := c.send(srv, body)
			Expect(w.Code).To(Equal(400), w.Body.String())
			if c.path == messages.path {
				Expect(errorOf(w).Error.Message).To(Equal(want))
			} else {
				Expect(oaiErrorOf(w).Error.Message).To(Equal(want))
			}
		},
		Entry("Messages", messages, `{"model":"sonnet","max_tokens":10,"messages":[`+userHi+`],"tools":5}`, "tools: Input should be a valid list"),
		Entry("Messages, a tool", messages, `{"model":"sonnet","max_tokens":10,"messages":[`+userHi+`],"tools":[5]}`, "tools.0: Input should be a valid dictionary"),
		Entry("Chat Completions", chats, `{"model":"sonnet","messages":[`+userHi+`],"tools":5}`,
			"Invalid type for 'tools': expected an array, but got an integer instead."),
		Entry("Chat Completions, a tool", chats, `{"model":"sonnet","messages":[`+userHi+`],"tools":["x"]}`,
			"Invalid type for 'tools[0]': expected an object, but got a string instead."),
		Entry("Responses", responses, `{"model":"sonnet","input":"hi","tools":5}`,
			"Invalid type for 'tools': expected an array, but got an integer instead."),
	)

	DescribeTable("Responses input items of the wrong shape",
		func(input, want string) {
			w := responses.send(srv, `{"model":"sonnet","input":[`+input+`]}`)
			Expect(w.Code).To(Equal(400), w.Body.String())
			Expect(oaiErrorOf(w).Error.Message).To(Equal(want))
		},
		Entry("a type that is no string", `{"type":5,"role":"user","content":"hi"}`,
			"Invalid type for 'input[0].type': expected a string, but got an integer instead."),
		Entry("a role it does not know", `{"role":"wizard","content":"hi"}`,
			"Invalid value: 'wizard'. Supported values are: 'assistant', 'system', 'developer', and 'user'."),
		Entry("a function_call without call_id", `{"type":"function_call","name":"ls","arguments":"{}"}`,
			"Missing required parameter: 'input[0].call_id'."),
		Entry("arguments that are an object", `{"type":"function_call","call_id":"c1","name":"ls","arguments":{}}`,
			"Invalid type for 'input[0].arguments': expected a string, but got an object instead."),
	)

	It("reads the last of a repeated key on the Responses wire, as encoding/json does", func() {
		w := responses.send(srv, `{"model":"sonnet","input":"`+tokens.Text(100)+`","input":"abcd"}`)
		Expect(w.Code).To(Equal(200), w.Body.String())
		Expect(srv.Entries(scName, "r")[0].InputTokens).To(Equal(1))
		w = responses.send(srv, `{"model":"sonnet","input":[{"role":"user","content":[{"type":"input_text","text":"`+
			tokens.Text(100)+`","text":"abcd"}]}]}`)
		Expect(w.Code).To(Equal(200), w.Body.String())
		Expect(srv.Entries(scName, "r")[1].InputTokens).To(Equal(1))
		// instructions and a system item both count, whichever comes first.
		w = responses.send(srv, `{"model":"sonnet","input":[{"role":"system","content":"abcd"},{"role":"user","content":"abcd"}],"instructions":"abcd"}`)
		Expect(w.Code).To(Equal(200), w.Body.String())
		Expect(srv.Entries(scName, "r")[2].InputTokens).To(Equal(3))
	})

	It("pairs 2,000 tool calls and answers on every wire", func() {
		for _, c := range []call{messages, chats, responses} {
			w := c.send(srv, string(pairsBody(c.path, 2000)))
			Expect(w.Code).To(Equal(200), c.path+": "+w.Body.String()[:min(300, w.Body.Len())])
		}
		// One answer missing is still refused, naming the call.
		body := strings.Replace(string(pairsBody(chats.path, 3)), `"tool_call_id":"call_2"`, `"tool_call_id":"call_9"`, 1)
		Expect(chats.send(srv, body).Code).To(Equal(400))
	})
})
