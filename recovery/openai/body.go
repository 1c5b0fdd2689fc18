package openai

import (
	sdk "github.com/openai/openai-go/v3"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/internal/wirecache"
)

// body is the JSON of req exactly as the SDK encodes p.params(req), built
// from the provider's cache: the SDK encodes each message once, by itself,
// and the request without its messages (with its system message) once per
// model, budget and system prompt; a resend and each step of an agent turn
// only splice them. (The SDK's encoder appends a message's own encoding
// verbatim into the request's, which is what makes the splice exact.)
func (p *Provider) body(req recovery.Request) ([]byte, error) {
	head := wirecache.Head{Model: req.Model, System: req.System, MaxTokens: req.MaxTokens, Legacy: p.legacy}
	return p.cache.Body(head, func() (wirecache.Frame, error) {
		var f wirecache.Frame
		var err error
		if f.Skeleton, err = p.headParams(req).MarshalJSON(); err != nil || req.System == "" {
			return f, err
		}
		f.Lead, err = sdk.SystemMessage(req.System).MarshalJSON()
		return f, err
	}, req.Messages, encodeMessage)
}

// encodeMessage encodes the wire messages of message i, joined by commas.
func encodeMessage(i int, m recovery.Message) ([]byte, error) {
	wire, err := messageParams(i, m)
	if err != nil {
		return nil, err
	}
	var out []byte
	for j, w := range wire {
		b, err := w.MarshalJSON()
		if err != nil {
			return nil, err
		}
		if j > 0 {
			out = append(out, ',')
		}
		out = append(out, b...)
	}
	return out, nil
}
