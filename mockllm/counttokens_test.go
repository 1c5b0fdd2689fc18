package mockllm_test

import (
	"context"
	"encoding/json"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("count_tokens and tool definitions", func() {
	var srv *mockllm.Server
	BeforeEach(func() {
		// The script would refuse every request: counting runs no script.
		srv = mockllm.New([]*scenario.Scenario{newScenario(rule(scenario.When{}, status(529)))}, clock.NewVirtual())
	})
	counting := call{path: "/" + scName + "/v1/messages/count_tokens", session: "s"}

	It("answers {input_tokens} by the token rule, tools included, for the official SDK", func() {
		ep, hc := live(srv)
		c := anthropic.NewClient(option.WithBaseURL(ep.BaseURL(scName)), option.WithAPIKey("t"), option.WithHTTPClient(hc),
			option.WithMaxRetries(0), option.WithHeader(mockllm.SessionHeader, "s"))
		n, err := c.Messages.CountTokens(context.Background(), anthropic.MessageCountTokensParams{
			Model:    "sonnet",
			System:   anthropic.MessageCountTokensParamsSystemUnion{OfString: anthropic.String(tokens.Text(30))},
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(tokens.Text(70)))},
			Tools: []anthropic.MessageCountTokensToolUnionParam{{OfTool: &anthropic.ToolParam{
				Name: "read", Description: anthropic.String("abcdefgh"), // 1 + 2 tokens
				InputSchema: anthropic.ToolInputSchemaParam{Properties: map[string]any{}}, // {"properties":{},"type":"object"}: 33 bytes, 9 tokens
			}}},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(n.InputTokens).To(Equal(int64(30 + 70 + 1 + 2 + 9)))
		j := srv.Journal()
		Expect(j).To(HaveLen(1))
		Expect(j[0]).To(And(HaveField("Route", "/sc/v1/messages/count_tokens"), HaveField("Status", 200), HaveField("InputTokens", 112),
			HaveField("Session", "s"), HaveField("N", 0)))
		Expect(srv.Entries(scName, "s")).To(BeEmpty(), "counting is no attempt")
	})

	It("counts what v1/messages charges for the same body", func() {
		body := `{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":"` + tokens.Text(40) + `"}],
			"tools":[{"name":"ls","description":"list","input_schema":{"type":"object"}}]}`
		w := counting.send(srv, body)
		Expect(w.Code).To(Equal(200), w.Body.String())
		var got struct {
			InputTokens int `json:"input_tokens"`
		}
		Expect(json.Unmarshal(w.Body.Bytes(), &got)).To(Succeed())
		Expect(got.InputTokens).To(Equal(40 + 1 + 1 + 5))
		to("s").send(srv, body) // a 529, journalled with its input
		Expect(srv.Entries(scName, "s")[0].InputTokens).To(Equal(got.InputTokens))
		// The session's summary counts both requests, but only the 529's
		// input as submitted.
		sum := mockllm.Summarize(srv.Journal())
		Expect(sum).To(HaveLen(1))
		Expect(sum[0].Requests).To(Equal(2))
		Expect(sum[0].InputTokens).To(Equal(got.InputTokens))
	})

	It("refuses a bad body and an unknown model as v1/messages does", func() {
		w := counting.send(srv, `{"model":"sonnet","messages":[]}`)
		Expect(w.Code).To(Equal(400))
		Expect(errorOf(w).Error.Message).To(Equal("messages: at least one message is required"))
		w = counting.send(srv, `{"model":"nope","messages":[`+userHi+`]}`)
		Expect(w.Code).To(Equal(404))
		Expect(errorOf(w).Error.Type).To(Equal("not_found_error"))
	})

	It("counts OpenAI tool definitions in a chat completion's input", func() {
		body := `{"model":"sonnet","messages":[{"role":"user","content":"` + tokens.Text(40) + `"}],
			"tools":[{"type":"function","function":{"name":"ls","description":"list","parameters":{"type":"object"}}}]}`
		w := call{path: "/" + scName + "/v1/chat/completions", session: "o"}.send(srv, body)
		Expect(w.Code).To(Equal(503))
		Expect(srv.Entries(scName, "o")[0].InputTokens).To(Equal(40 + 1 + 1 + 5))
	})
})
