package mockllm_test

import (
	"encoding/json"
	"net/http/httptest"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// toolMessage is an answer with its tool_use blocks.
type toolMessage struct {
	Content []struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content"`
	StopReason string `json:"stop_reason"`
	Usage      struct {
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

func toolsOf(w *httptest.ResponseRecorder) (names, inputs []string, m toolMessage) {
	ExpectWithOffset(1, w.Code).To(Equal(200), w.Body.String())
	ExpectWithOffset(1, json.Unmarshal(w.Body.Bytes(), &m)).To(Succeed())
	for _, b := range m.Content {
		if b.Type == "tool_use" {
			names = append(names, b.Name)
			inputs = append(inputs, string(b.Input))
		}
	}
	return names, inputs, m
}

// withLast is a request whose last message is a user message with a tool
// result and text (no text block when text is empty).
func withLast(result, text string) string {
	last := []any{map[string]any{"type": "tool_result", "tool_use_id": "t1", "content": result}}
	if text != "" {
		last = append(last, map[string]any{"type": "text", "text": text})
	}
	b, err := json.Marshal(map[string]any{
		"model": "sonnet", "max_tokens": 1000,
		"messages": []any{
			map[string]any{"role": "user", "content": tokens.Text(20)},
			map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "tool_use", "id": "t1", "name": "read", "input": map[string]any{}}}},
			map[string]any{"role": "user", "content": last},
		},
	})
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

var _ = Describe("tool_use answers", func() {
	var srv *mockllm.Server
	serve := func(script ...scenario.Rule) {
		sc := newScenario(script...)
		sc.Tools = []scenario.Tool{{Name: "read"}, {Name: "list"}}
		srv = mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		Expect(srv.Open(scName, "s", clock.NewVirtual())).To(Succeed())
	}

	It("answers with every call, in canonical JSON, stop_reason tool_use, output tokens the inputs'", func() {
		serve(rule(scenario.When{}, scenario.Respond{ToolUse: []scenario.ToolUse{
			{Name: "read", Input: `{"path": "a", "at": 1}`}, {Name: "list"},
		}}))
		names, inputs, m := toolsOf(to("s").send(srv, ask("sonnet", 1000, 10)))
		Expect(names).To(Equal([]string{"read", "list"}))
		Expect(inputs).To(Equal([]string{`{"at":1,"path":"a"}`, `{}`}))
		Expect(m.StopReason).To(Equal("tool_use"))
		Expect(m.Usage.OutputTokens).To(Equal(tokens.Count(inputs[0]) + tokens.Count(inputs[1])))
		Expect(m.Content[0].ID).NotTo(Equal(m.Content[1].ID))
		Expect(srv.Entries(scName, "s")[0].StopReason).To(Equal("tool_use"))
	})

	It("takes one call per answer, in turn, with cycle, and numbers the steps with vary", func() {
		serve(rule(scenario.When{}, scenario.Respond{Cycle: true, Vary: true, ToolUse: []scenario.ToolUse{
			{Name: "read", Input: `{"p":1}`}, {Name: "list"},
		}}))
		var got []string
		for range 3 {
			names, inputs, _ := toolsOf(to("s").send(srv, ask("sonnet", 1000, 10)))
			Expect(names).To(HaveLen(1))
			got = append(got, names[0]+" "+inputs[0])
		}
		Expect(got).To(Equal([]string{`read {"step":1,"p":1}`, `list {"step":2}`, `read {"step":3,"p":1}`}))
	})

	It("matches when.contains on the last message's text and tool results only", func() {
		serve(
			rule(scenario.When{Contains: "stop repeating"}, ok),
			rule(scenario.When{}, scenario.Respond{ToolUse: []scenario.ToolUse{{Name: "read"}}}),
		)
		_, _, m := toolsOf(to("s").send(srv, withLast("file text", "")))
		Expect(m.StopReason).To(Equal("tool_use"))
		Expect(messageOf(to("s").send(srv, withLast("file text", "You are looping: stop repeating it."))).StopReason).To(Equal("end_turn"))
		Expect(messageOf(to("s").send(srv, withLast("stop repeating (in a result)", ""))).StopReason).To(Equal("end_turn"))
		// A request without the words does not match.
		_, _, m = toolsOf(to("s").send(srv, ask("sonnet", 1000, 10)))
		Expect(m.StopReason).To(Equal("tool_use"))
	})
})
