package scenario

import (
	"encoding/json"
	"strings"
)

// MaxErrorBody is the longest error body a rule may script (Respond.Body):
// 4 KiB, more than any provider's error envelope.
const MaxErrorBody = 4096

// ErrorBodyMessage is the message of a scripted error body: its
// error.message when that is a string (OpenAI's, OpenRouter's and
// DeepSeek's envelopes, Anthropic's), else "".
func ErrorBodyMessage(body string) string {
	var e struct {
		Error struct {
			Message any `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(body), &e) != nil {
		return ""
	}
	msg, _ := e.Error.Message.(string)
	return msg
}

// errorBody checks a rule's body: only with a status, and instead of type
// and message (the body words the whole error); a JSON object of at most
// MaxErrorBody bytes.
func (v *validator) errorBody(path string, r Respond) {
	if r.Body == "" {
		return
	}
	path += ".body"
	switch {
	case r.Status == 0:
		v.errorf(path, "only goes with a status: it is that error's body")
	case r.Type != "" || r.Message != "":
		v.errorf(path, "words the whole error: leave type and message out beside it")
	case len(r.Body) > MaxErrorBody:
		v.errorf(path, "must be at most %d bytes (the ceiling on an error body), got %d", MaxErrorBody, len(r.Body))
	case !strings.HasPrefix(strings.TrimSpace(r.Body), "{") || !json.Valid([]byte(r.Body)):
		v.errorf(path, "must be a JSON object written as text, such as '{\"error\": {\"code\": 402, \"message\": \"Insufficient credits\"}}'")
	}
}
