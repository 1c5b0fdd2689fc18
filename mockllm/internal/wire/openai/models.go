package openai

import "github.com/faultbench/faultbench/internal/jsonscan"

// Models appends OpenAI's models listing, the same for both its wires:
// {"object":"list","data":[{"id","object":"model","created","owned_by"}]}.
func (Base) Models(b []byte, ids []string) []byte {
	b = append(b, `{"object":"list","data":[`...)
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":`...)
		b = jsonscan.AppendString(b, id)
		b = append(b, `,"object":"model","created":0,"owned_by":"faultbench"}`...)
	}
	return append(b, "]}"...)
}
