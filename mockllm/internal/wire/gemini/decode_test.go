package gemini

import (
	"strings"
	"testing"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// TestDecodeRefuses: each rule the real API holds contents to, in its
// words, and the bodies it takes, with what they count.
func TestDecodeRefuses(t *testing.T) {
	const user = `{"role":"user","parts":[{"text":"abcdefgh"}]}`
	const call = `{"role":"model","parts":[{"functionCall":{"name":"ls","args":{"d":"."}}}]}`
	const answer = `{"role":"user","parts":[{"functionResponse":{"name":"ls","response":{"output":"a.go"}}}]}`
	for _, c := range []struct{ body, want string }{
		{`{"contents":[]}`, "contents is not specified"},
		{`{}`, "contents is not specified"},
		{`{"contents":[{"role":"system","parts":[{"text":"x"}]}]}`, "Please use a valid role: user, model. (contents[0].role)"},
		{`{"contents":[` + user + `,{"role":"user","parts":[]}]}`, "contents[1].parts: contents.parts must not be empty."},
		{`{"contents":[{"parts":[{"thought":true}]}]}`, "required oneof field 'data'"},
		{`{"contents":[` + answer + `]}`, "function response turn comes immediately after a function call turn"},
		{`{"contents":[` + user + `,` + user + `,` + answer + `]}`, "function response turn comes immediately after a function call turn"},
		{`{"contents":[` + user + `,` + call + `,{"role":"user","parts":[{"functionResponse":{"name":"ls","response":{}}},{"functionResponse":{"name":"ls","response":{}}}]}]}`, "number of function response parts is equal"},
		{`{"contents":[{"role":"model","parts":[{"functionCall":{"args":{}}}]}]}`, "Name cannot be empty"},
		{`{"contents":[` + user + `],"generationConfig":{"maxOutputTokens":"ten"}}`, "Invalid value at 'generationConfig.maxOutputTokens'"},
		{`{"contents":[{"role":"system","parts":[{"text":"x"}]}],`, "Invalid JSON payload"},
		{`{"contents":5}`, "Invalid value at 'contents': want an array"},
	} {
		q := wire.Request{Model: "m", HasModel: true}
		e := Wire{}.Decode([]byte(c.body), &q)
		if e == nil || !strings.Contains(e.Message, c.want) || e.Status != 400 || e.Type != "INVALID_ARGUMENT" {
			t.Errorf("%s: got %+v, want a 400 saying %q", c.body, e, c.want)
		}
	}
	for _, c := range []struct {
		body             string
		input, maxTokens int
	}{
		{`{"contents":[` + user + `]}`, 2, 0},
		{`{"contents":[` + user + `,` + call + `,` + answer + `],"systemInstruction":{"parts":[{"text":"abcd"}]},"generationConfig":{"maxOutputTokens":7}}`, 2 + 3 + 1 + 1, 7},
		// The last of a repeated contents key wins, with its rules.
		{`{"contents":[` + answer + `],"contents":[` + user + `]}`, 2, 0},
		{`{"contents":[` + user + `],"tools":[{"functionDeclarations":[{"name":"ls","description":"list","parameters":{"type":"object"}}]}]}`, 2 + 1 + 1 + 5, 0}, // {"type":"object"} is 17 bytes
	} {
		q := wire.Request{Model: "m", HasModel: true}
		if e := (Wire{}).Decode([]byte(c.body), &q); e != nil {
			t.Errorf("%s: refused: %+v", c.body, e)
			continue
		}
		if q.InputTokens() != c.input || q.MaxTokens != c.maxTokens || q.Model != "m" {
			t.Errorf("%s: read input %d, max %d, model %q; want %d, %d, m", c.body, q.InputTokens(), q.MaxTokens, q.Model, c.input, c.maxTokens)
		}
	}
}
