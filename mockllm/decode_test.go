package mockllm_test

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"strings"
	"unicode/utf8"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("reading a request", func() {
	var srv *mockllm.Server

	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
	})

	DescribeTable("rejects a body it cannot use with 400 invalid_request_error naming the problem",
		func(body, msg string) {
			w := to("s").send(srv, body)
			Expect(w.Code).To(Equal(http.StatusBadRequest))
			e := errorOf(w)
			Expect(e.Error.Type).To(Equal("invalid_request_error"))
			Expect(e.Error.Message).To(ContainSubstring(msg))
			Expect(srv.Entries(scName, "s")[0].Kind).To(Equal("invalid_request"))
		},
		Entry("malformed JSON", `{"model": "sonnet",`, "invalid JSON in request body"),
		Entry("a syntax error", `{"model" "sonnet"}`, "invalid character"),
		Entry("an empty body", ``, "the body is empty"),
		Entry("trailing data", `{"model":"sonnet","max_tokens":1,"messages":[]} {}`, "after top-level value"),
		Entry("trailing garbage", `{"model":"sonnet","max_tokens":1,"messages":[]} x`, "invalid character 'x'"),
		Entry("not an object", `[1, 2]`, "Input should be a valid dictionary"),
		Entry("no model", `{"max_tokens":10,"messages":[]}`, "model: Field required"),
		Entry("an empty model", `{"model":"","max_tokens":10,"messages":[]}`, "model: String should have at least 1 character"),
		Entry("a model of the wrong type", `{"model":7,"max_tokens":10,"messages":[]}`, "model: Input should be a valid string"),
		Entry("no max_tokens", `{"model":"sonnet","messages":[]}`, "max_tokens: Field required"),
		Entry("max_tokens 0", `{"model":"sonnet","max_tokens":0,"messages":[]}`, "max_tokens: Input should be greater than or equal to 1"),
		Entry("max_tokens negative", `{"model":"sonnet","max_tokens":-3,"messages":[]}`, "max_tokens: Input should be greater than or equal to 1"),
		Entry("max_tokens a string", `{"model":"sonnet","max_tokens":"10","messages":[]}`, "max_tokens: Input should be a valid integer"),
		Entry("max_tokens a fraction", `{"model":"sonnet","max_tokens":10.5,"messages":[]}`, "max_tokens: Input should be a valid integer"),
		Entry("no messages", `{"model":"sonnet","max_tokens":10}`, "messages: Field required"),
		Entry("messages not a list", `{"model":"sonnet","max_tokens":10,"messages":{}}`, "messages: Input should be a valid list"),
		Entry("a message without a role", `{"model":"sonnet","max_tokens":10,"messages":[{"content":"hi"}]}`, "messages.0.role: Field required"),
		Entry("a bad role", `{"model":"sonnet","max_tokens":10,"messages":[{"role":"system","content":"hi"}]}`, "messages.0.role: Input should be 'user' or 'assistant'"),
		Entry("content of the wrong type", `{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":"a"},{"role":"assistant","content":5}]}`, "messages.1.content: Input should be a valid string or list"),
		Entry("a block without a type", `{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":[{"text":"a"}]}]}`, "messages.0.content.0.type: Field required"),
		Entry("a text block's text of the wrong type", `{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":[{"type":"text","text":1}]}]}`, "messages.0.content.0.text: Input should be a valid string"),
		Entry("a tool_use without input", `{"model":"sonnet","max_tokens":10,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"ls"}]}]}`, "messages.0.content.0.input: Field required"),
		Entry("a tool_result without its id", `{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":[{"type":"tool_result","content":"x"}]}]}`, "messages.0.content.0.tool_use_id: Field required"),
		Entry("a tool_result's text of the wrong type", `{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":[]}]}]}]}`, "messages.0.content.0.content.0.text: Input should be a valid string"),
		Entry("a system of the wrong type", `{"model":"sonnet","max_tokens":10,"system":3,"messages":[]}`, "system: Input should be a valid string or list"),
		Entry("a system block that is not text", `{"model":"sonnet","max_tokens":10,"system":[{"type":"image"}],"messages":[]}`, "system.0.type: Input should be 'text'"),
		Entry("stream a string", `{"model":"sonnet","max_tokens":10,"stream":"yes","messages":[]}`, "stream: Input should be a valid boolean"),
	)

	It("journals a body refused for a field with the model and max_tokens it named, and no input", func() {
		to("s").send(srv, `{"model":"sonnet","max_tokens":10,"messages":5}`)
		e := srv.Entries(scName, "s")[0]
		Expect(e.Model).To(Equal("sonnet"))
		Expect(e.MaxTokens).To(Equal(10))
		Expect(e.InputTokens).To(BeZero())
		Expect(e.Status).To(Equal(400))
	})

	Describe("a body over 32 MB", func() {
		const size = 33 << 20

		It("is 413 request_too_large when it streams in without a length", func() {
			// The body is made as it is read: the spec holds no copy of it.
			body := io.MultiReader(
				strings.NewReader(`{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":"`),
				io.LimitReader(repeat('a'), size),
				strings.NewReader(`"}]}`),
			)
			w := to("s").sendReader(srv, body)
			Expect(w.Code).To(Equal(http.StatusRequestEntityTooLarge))
			e := errorOf(w)
			Expect(e.Error.Type).To(Equal("request_too_large"))
			Expect(e.Error.Message).To(Equal("Request exceeds the maximum allowed number of bytes."))
			Expect(srv.Entries(scName, "s")[0].Kind).To(Equal("request_too_large"))
		})

		It("is 413 at once when its Content-Length says so", func() {
			w := to("s").withLength(size).send(srv, ask("sonnet", 10, 10))
			Expect(w.Code).To(Equal(http.StatusRequestEntityTooLarge))
		})
	})

	Describe("counting input tokens", func() {
		It("sums every text with no overhead: declared sizes are exact", func() {
			body, err := json.Marshal(map[string]any{
				"model":      "sonnet",
				"max_tokens": 100,
				"system":     tokens.Text(6000),
				"messages": []any{
					map[string]any{"role": "user", "content": tokens.Text(90000)},
					map[string]any{"role": "assistant", "content": tokens.Text(8000)},
				},
				"tools": []any{map[string]any{"name": "ls", "input_schema": map[string]any{"type": "object"}}},
			})
			Expect(err).NotTo(HaveOccurred())
			m := messageOf(to("s").send(srv, string(body)))
			// The tool definition counts too, as the real API counts it: its
			// name (1 token) and its schema's JSON (17 bytes: 5 tokens).
			Expect(m.Usage.InputTokens).To(Equal(104000 + 1 + 5))
			Expect(srv.Entries(scName, "s")[0].InputTokens).To(Equal(104006))
		})

		It("counts system blocks, text blocks, tool_use input as sent and tool_result text", func() {
			input := `{"path": "/tmp", "deep": [1, 2]}` // 32 bytes: 8 tokens
			body := `{"model":"sonnet","max_tokens":100,
				"system":[{"type":"text","text":"abcde","cache_control":{"type":"ephemeral"}}],
				"messages":[
				 {"role":"user","content":[{"type":"text","text":"abcd"},{"type":"image","source":{"type":"base64","data":"AAAA"}}]},
				 {"role":"assistant","content":[{"type":"tool_use","id":"t1","name":"ls","input":` + input + `}]},
				 {"role":"user","content":[
				   {"type":"tool_result","tool_use_id":"t1","content":"abcdefghi"},
				   {"type":"tool_result","tool_use_id":"t1","is_error":true,"content":[{"type":"text","text":"é"},{"type":"text","text":"\u00e9\ud83d\ude00"}]},
				   {"text":"ab","type":"text"}]}]}`
			// system 2, text 1, input 8, results 3 + 1 + 2, trailing text 1
			m := messageOf(to("s").send(srv, body))
			Expect(m.Usage.InputTokens).To(Equal(2 + 1 + 8 + 3 + 1 + 2 + 1))
		})

		It("measures strings as json.Unmarshal decodes them", func() {
			cases := []string{
				`""`, `"abc"`, `"a\"b"`, `"\\\\"`, `"\n\t\r\b\f\/"`, `"\u0041"`, `"\u00e9"`, `"\u20ac"`,
				`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83dx"`, `"\ud83d\u0041"`, "\"\xff\xfe\"", "\"é€😀\"",
				"\"a\xe2\x82\\n\"",
			}
			rng := rand.New(rand.NewPCG(1, 2))
			alphabet := []string{"a", "\\\"", "\\\\", "\\n", "\\u0000", "\\u00ff", "\\ud800", "\\udc00", "\\uffff", "é", "\xff", "\xe2\x82", "😀"}
			for range 500 {
				var b strings.Builder
				b.WriteByte('"')
				for range rng.IntN(12) {
					b.WriteString(alphabet[rng.IntN(len(alphabet))])
				}
				b.WriteByte('"')
				cases = append(cases, b.String())
			}
			for _, c := range cases {
				var s string
				Expect(json.Unmarshal([]byte(c), &s)).To(Succeed(), c)
				Expect(mockllm.DecodedLen([]byte(c))).To(Equal(len(s)), "%q", c)
			}
		})

		It("applies the token rule by length as tokens.Count does", func() {
			for n := range 50 {
				Expect(mockllm.CountBytes(n)).To(Equal(tokens.Count(strings.Repeat("x", n))))
			}
			Expect(utf8.RuneLen('é')).To(Equal(2)) // the multi-byte case above relies on it
		})
	})
})

// repeat is an endless reader of one byte.
type repeat byte

func (r repeat) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	p[0] = byte(r)
	for n := 1; n < len(p); n *= 2 {
		copy(p[n:], p[:n])
	}
	return len(p), nil
}
