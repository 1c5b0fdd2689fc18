package mockllm_test

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// sseData returns the data lines of an SSE body, in order.
func sseData(body string) []string {
	var out []string
	for _, line := range strings.Split(body, "\n") {
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			out = append(out, d)
		}
	}
	return out
}

var _ = Describe("an answer that only calls tools, as the real APIs shape it", func() {
	var srv *mockllm.Server
	BeforeEach(func() {
		sc := newScenario(rule(scenario.When{}, scenario.Respond{ToolUse: []scenario.ToolUse{{Name: "read", Input: `{"p":1}`}, {Name: "list"}}}))
		sc.Tools = []scenario.Tool{{Name: "read"}, {Name: "list"}}
		srv = mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
	})
	openaiCall := call{path: "/" + scName + "/v1/chat/completions", session: "s"}
	chat := `{"model":"sonnet","messages":[{"role":"user","content":"hi"}]}`

	It("Anthropic: the content starts with the tool_use, no empty text block before it", func() {
		_, _, m := toolsOf(to("s").send(srv, ask("sonnet", 1000, 10)))
		Expect(m.Content).To(HaveLen(2))
		Expect(m.Content[0].Type).To(Equal("tool_use"))
		Expect(m.Content[0].ID).To(HavePrefix("toolu_"))
	})

	It("Anthropic stream: index 0 is the tool_use block", func() {
		w := to("s").send(srv, strings.Replace(ask("sonnet", 1000, 10), `{`, `{"stream":true,`, 1))
		Expect(w.Code).To(Equal(200))
		var starts []string
		for _, d := range sseData(w.Body.String()) {
			var ev struct {
				Type         string          `json:"type"`
				Index        int             `json:"index"`
				ContentBlock json.RawMessage `json:"content_block"`
			}
			Expect(json.Unmarshal([]byte(d), &ev)).To(Succeed())
			if ev.Type == "content_block_start" {
				var blk struct{ Type string }
				Expect(json.Unmarshal(ev.ContentBlock, &blk)).To(Succeed())
				starts = append(starts, blk.Type+"@"+string(rune('0'+ev.Index)))
			}
		}
		Expect(starts).To(Equal([]string{"tool_use@0", "tool_use@1"}))
		Expect(w.Body.String()).NotTo(ContainSubstring(`"type":"text"`))
	})

	It("OpenAI: content null, tool call ids call_…", func() {
		w := openaiCall.send(srv, chat)
		Expect(w.Code).To(Equal(200), w.Body.String())
		var c struct {
			Choices []struct {
				Message struct {
					Content   *string `json:"content"`
					ToolCalls []struct {
						ID string `json:"id"`
					} `json:"tool_calls"`
				} `json:"message"`
			} `json:"choices"`
		}
		Expect(json.Unmarshal(w.Body.Bytes(), &c)).To(Succeed())
		Expect(w.Body.String()).To(ContainSubstring(`"content":null`))
		Expect(c.Choices[0].Message.Content).To(BeNil())
		Expect(c.Choices[0].Message.ToolCalls).To(HaveLen(2))
		for _, tc := range c.Choices[0].Message.ToolCalls {
			Expect(tc.ID).To(MatchRegexp(`^call_[0-9a-f]{24}$`))
		}
	})

	It("OpenAI stream: the role chunk says content null", func() {
		w := openaiCall.send(srv, strings.Replace(chat, `{`, `{"stream":true,`, 1))
		Expect(w.Code).To(Equal(200))
		data := sseData(w.Body.String())
		Expect(data[0]).To(ContainSubstring(`"delta":{"role":"assistant","content":null`))
		Expect(w.Body.String()).To(ContainSubstring(`"id":"call_`))
		Expect(w.Body.String()).NotTo(ContainSubstring(`toolu_`))
	})
})
