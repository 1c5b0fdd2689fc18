package gemini

import (
	"encoding/json"

	"google.golang.org/genai"

	"github.com/faultbench/faultbench/recovery"
)

// contents is the JSON array of req's contents exactly as the SDK encodes
// them, built from the provider's cache: each message is encoded once, as
// the SDK encodes a Content (through a map, so with its keys sorted), and
// a resend or the next step of an agent turn only joins them. The SDK
// copies a json.RawMessage into its body as it is (compacted), which is
// what makes the splice exact.
func (p *Provider) contents(req recovery.Request) (json.RawMessage, error) {
	enc, err := p.cache.Messages(req.Messages, func(i int, _ recovery.Message) ([]byte, error) {
		return encodeContent(req.Messages, i)
	})
	if err != nil {
		return nil, err
	}
	n := 2
	for _, e := range enc {
		n += len(e) + 1
	}
	out := make([]byte, 0, n)
	out = append(out, '[')
	for i, e := range enc {
		if i > 0 {
			out = append(out, ',')
		}
		out = append(out, e...)
	}
	return append(out, ']'), nil
}

// encodeContent encodes message i as the SDK does: the Content marshalled
// into a map (genai.InternalDeepMarshal), then the map.
func encodeContent(msgs []recovery.Message, i int) ([]byte, error) {
	c, err := contentOf(msgs, i)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := genai.InternalDeepMarshal(c, &m); err != nil {
		return nil, err
	}
	return json.Marshal(m)
}
