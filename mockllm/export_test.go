package mockllm

import (
	"encoding/json"
	"net/http"
	"strconv"
)

// DecodedLen measures a JSON string (with its quotes) the way the request
// decoder does.
func DecodedLen(quoted []byte) int {
	s := newScanner(quoted)
	_, n := s.Str()
	return n
}

// CountBytes is the token rule by length.
var CountBytes = countBytes

// ErrorKind labels an error answer for the journal.
var ErrorKind = errorKind

// ToolAnswer is a handler that answers as the mock does, with text then a
// tool call per {name, input JSON} pair (stop reason tool_use): on the
// OpenAI wire when openai is set, as a stream when the request asks for
// one (with OpenAI's usage chunk).
func ToolAnswer(openai bool, text string, tools ...[2]string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Stream bool }
		_ = json.NewDecoder(r.Body).Decode(&body)
		rp := reply{stream: body.Stream, usage: true, requestID: "req_test", created: 1767225600}
		rp.ans = answer{id: "msg_test", model: "sonnet", text: text, stop: "tool_use", input: 10, output: 20}
		if openai {
			rp.wire, rp.ans.id = openaiWire, "chatcmpl-test"
		}
		for i, t := range tools {
			rp.ans.tools = append(rp.ans.tools, toolCall{id: "toolu_" + strconv.Itoa(i), name: t[0], input: t[1]})
		}
		rp.write(w, r)
	})
}
