package mockllm

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// DecodedLen measures a JSON string (with its quotes) the way the request
// decoder does.
func DecodedLen(quoted []byte) int {
	s := jsonscan.New(quoted)
	_, n := s.Str()
	return n
}

// CountBytes is the token rule by length.
var CountBytes = wire.CountBytes

// ErrorKind labels an error answer for the journal.
var ErrorKind = wire.ErrorKind

// ToolAnswer is a handler that answers as the mock does, with text then a
// tool call per {name, input JSON} pair (stop reason tool_use): on the
// OpenAI wire when openai is set, as a stream when the request asks for
// one (with OpenAI's usage chunk).
func ToolAnswer(openai bool, text string, tools ...[2]string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ Stream bool }
		_ = json.NewDecoder(r.Body).Decode(&body)
		rp := reply{api: anthropicWire, stream: body.Stream}
		rp.Usage, rp.RequestID, rp.Created = true, "req_test", 1767225600
		rp.Ans = wire.Answer{ID: "msg_test", Model: "sonnet", Text: text, Stop: "tool_use", Input: 10, Output: 20}
		if openai {
			rp.api, rp.Ans.ID = openaiWire, "chatcmpl-test"
		}
		for i, t := range tools {
			rp.Ans.Tools = append(rp.Ans.Tools, wire.ToolCall{ID: "toolu_" + strconv.Itoa(i), Name: t[0], Input: t[1]})
		}
		rp.write(w, r)
	})
}
