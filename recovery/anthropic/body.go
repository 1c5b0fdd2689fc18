package anthropic

import (
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/internal/wirecache"
)

// body is the JSON of req exactly as the SDK encodes messageParams(req),
// built from the provider's cache: the SDK encodes each message once, by
// itself, and the request without its messages once per model, budget and
// system prompt; a resend and each step of an agent turn only splice them.
// (The SDK's encoder appends a message's own encoding verbatim into the
// request's, which is what makes the splice exact.)
func (p *Provider) body(req recovery.Request) ([]byte, error) {
	head := wirecache.Head{Model: req.Model, System: req.System, MaxTokens: req.MaxTokens, SystemCache: systemCache(req)}
	return p.cache.Body(head, func() (wirecache.Frame, error) {
		b, err := headParams(req).MarshalJSON()
		return wirecache.Frame{Skeleton: b}, err
	}, req.Cache.Marked(req.Messages), encodeMessage)
}

func encodeMessage(i int, m recovery.Message) ([]byte, error) {
	mp, err := messageParam(i, m)
	if err != nil {
		return nil, err
	}
	return mp.MarshalJSON()
}
