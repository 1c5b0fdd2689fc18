package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/faultbench/faultbench/internal/excerpt"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/internal/wirecache"
)

// DefaultRequestTimeout bounds one attempt when the caller sets no
// option.WithRequestTimeout. The SDK needs one: without it, it computes a
// timeout from max_tokens and refuses a non-streaming request above about
// 21,000 max_tokens ("streaming is required for operations that may take
// longer than 10 minutes") before sending anything.
const DefaultRequestTimeout = 10 * time.Minute

// Provider sends recovery requests through the Anthropic Messages API with
// the SDK's own retries off. A Provider is safe for concurrent use; its
// settings never change. It keeps the SDK's encoding of the messages of
// the last conversation it sent (body.go), so a resend or the next step of
// an agent turn encodes only what is new: give each conversation its own
// Provider (each With method returns one with an empty cache) for the
// most reuse.
type Provider struct {
	client anthropic.Client
	stream bool // send with "stream": true (stream.go)
	// perRequest compute options from each request, in the order they were
	// added.
	perRequest []func(recovery.Request) []option.RequestOption
	cache      *wirecache.Cache
}

var _ recovery.Provider = (*Provider)(nil)

// New builds a Provider on a client made with opts (base URL, API key, HTTP
// client, ...), applied over the SDK's environment defaults as
// anthropic.NewClient applies them. Two options are forced: a request
// timeout of DefaultRequestTimeout unless opts set one, and
// option.WithMaxRetries(0), applied last so that no option can turn the
// SDK's retries back on.
func New(opts ...option.RequestOption) *Provider {
	all := make([]option.RequestOption, 0, len(opts)+2)
	// First, so that a caller's WithRequestTimeout, applied later, wins.
	all = append(all, option.WithRequestTimeout(DefaultRequestTimeout))
	all = append(all, opts...)
	all = append(all, option.WithMaxRetries(0))
	return &Provider{client: anthropic.NewClient(all...), cache: new(wirecache.Cache)}
}

// WithRequestOptions returns a copy of p that adds the options f computes
// from each request to that request's call, after those of p (the harness
// uses it to send an X-Faultbench-Purpose header). Retries stay off
// whatever f returns.
func (p *Provider) WithRequestOptions(f func(recovery.Request) []option.RequestOption) *Provider {
	q := *p
	q.cache = new(wirecache.Cache)
	if f == nil {
		return &q
	}
	q.perRequest = append(append([]func(recovery.Request) []option.RequestOption(nil), p.perRequest...), f)
	return &q
}

// Send makes one Messages API call for req: model, max_tokens, the system
// prompt as one text block when there is one, and the messages in order as
// text blocks. It never retries.
func (p *Provider) Send(ctx context.Context, req recovery.Request) (*recovery.Response, error) {
	body, err := p.body(req)
	if err != nil {
		return nil, err
	}
	// The SDK sends body in place of its encoding of params: params carry
	// what the SDK reads besides the body (the model and max_tokens, for
	// its timeout), not the messages.
	params := anthropic.MessageNewParams{Model: anthropic.Model(req.Model), MaxTokens: int64(req.MaxTokens), Messages: []anthropic.MessageParam{}}
	var httpResp *http.Response
	var opts []option.RequestOption
	for _, f := range p.perRequest {
		opts = append(opts, f(req)...)
	}
	opts = append(opts, option.WithRequestBody("application/json", body), option.WithResponseInto(&httpResp), option.WithMaxRetries(0))
	if p.stream {
		return p.sendStream(ctx, params, opts, &httpResp)
	}

	msg, err := p.client.Messages.New(ctx, params, opts...)
	if err != nil {
		var sdkErr *anthropic.Error
		if errors.As(err, &sdkErr) {
			return nil, apiError(sdkErr)
		}
		if httpResp != nil { // the status came, the body did not make sense
			return nil, bodyError(httpResp, err)
		}
		return nil, fmt.Errorf("anthropic: %w", err)
	}
	return response(msg, httpResp), nil
}

// messageParams is the request as the SDK's params. Send encodes them in
// parts (body.go); the parts are byte for byte this encoded whole.
func messageParams(req recovery.Request) (anthropic.MessageNewParams, error) {
	params := headParams(req)
	params.Messages = make([]anthropic.MessageParam, 0, len(req.Messages))
	for i, m := range req.Cache.Marked(req.Messages) {
		mp, err := messageParam(i, m)
		if err != nil {
			return params, err
		}
		params.Messages = append(params.Messages, mp)
	}
	return params, nil
}

// headParams is the request without its messages.
func headParams(req recovery.Request) anthropic.MessageNewParams {
	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(req.Model),
		MaxTokens: int64(req.MaxTokens),
		Messages:  []anthropic.MessageParam{},
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
		if ttl := systemCache(req); ttl > 0 {
			params.System[0].CacheControl = cacheControl(ttl)
		}
	}
	return params
}

// messageParam is message i as the SDK's param.
func messageParam(i int, m recovery.Message) (anthropic.MessageParam, error) {
	blocks := contentBlocks(m)
	switch m.Role {
	case "user":
		return anthropic.NewUserMessage(blocks...), nil
	case "assistant":
		return anthropic.NewAssistantMessage(blocks...), nil
	}
	return anthropic.MessageParam{}, fmt.Errorf("anthropic: message %d has role %q, want user or assistant", i, m.Role)
}

// contentBlocks maps a message onto content blocks: its tool results first
// (the API wants them at the head of a user message), then its text (left
// out when empty and there are other blocks), then its tool calls.
func contentBlocks(m recovery.Message) []anthropic.ContentBlockParamUnion {
	blocks := make([]anthropic.ContentBlockParamUnion, 0, 1+len(m.ToolCalls)+len(m.ToolResults))
	for _, r := range m.ToolResults {
		blocks = append(blocks, anthropic.NewToolResultBlock(r.ToolUseID, r.Content, r.IsError))
	}
	if m.Text != "" || (len(m.ToolCalls) == 0 && len(m.ToolResults) == 0) {
		blocks = append(blocks, anthropic.NewTextBlock(m.Text))
	}
	for _, c := range m.ToolCalls {
		input := c.Input
		if len(input) == 0 {
			input = json.RawMessage("{}")
		}
		blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, input, c.Name))
	}
	markLast(blocks, m.Cache)
	return blocks
}

func response(msg *anthropic.Message, httpResp *http.Response) *recovery.Response {
	var text strings.Builder
	var calls []recovery.ToolCall
	for _, block := range msg.Content {
		switch block.Type {
		case "text":
			text.WriteString(block.Text)
		case "tool_use":
			calls = append(calls, recovery.ToolCall{ID: block.ID, Name: block.Name, Input: append(json.RawMessage(nil), block.Input...)})
		}
	}
	resp := &recovery.Response{
		ID:           msg.ID,
		Model:        string(msg.Model),
		Text:         text.String(),
		ToolCalls:    calls,
		StopReason:   string(msg.StopReason),
		InputTokens:  int(msg.Usage.InputTokens),
		OutputTokens: int(msg.Usage.OutputTokens),
	}
	cacheUsage(resp, msg.Usage)
	if httpResp != nil {
		resp.Header = httpResp.Header
	}
	return resp
}

// maxRawMessage bounds how much of a body that is not JSON becomes the
// message of an APIError.
const maxRawMessage = 1024

// apiError maps the SDK's error for an error status onto the engine's
// provider-neutral shape.
func apiError(e *anthropic.Error) *recovery.APIError {
	raw := e.RawJSON()
	out := &recovery.APIError{
		StatusCode: e.StatusCode,
		Type:       string(e.Type()),
		Code:       string(e.ErrorCode()),
		Message:    e.Message,
		RequestID:  e.RequestID,
		Err:        e,
	}
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Message string `json:"message"`
			Status  string `json:"status"`
		} `json:"error"`
		// Message is Amazon Bedrock's {"message": …}, the body of every
		// error of the bedrock option's; its exception is in
		// x-amzn-ErrorType, which the classifier reads.
		Message string `json:"message"`
	}
	valid := json.Unmarshal(googleError([]byte(raw)), &body) == nil
	if out.Type == "" {
		out.Type = body.Error.Type
	}
	if out.Type == "" {
		// Vertex AI's gateway: a Google status (RESOURCE_EXHAUSTED), read
		// as the Gemini transport reads it.
		out.Type = body.Error.Status
	}
	if out.Message == "" {
		out.Message = body.Error.Message
	}
	if out.Message == "" {
		out.Message = body.Message
	}
	if out.Message == "" && !valid {
		// A proxy's plain-text or HTML page: its words are all there is.
		out.Message = excerpt.Prefix(strings.TrimSpace(raw), maxRawMessage)
	}
	if e.Response != nil {
		out.Header = e.Response.Header
		if out.RequestID == "" {
			out.RequestID = e.Response.Header.Get("request-id")
		}
	}
	return out
}

// googleError is the one error of a body that is a JSON array of errors,
// as Vertex AI sends its quota 429 ([{"error":{…}}]); any other body as
// it is.
func googleError(raw []byte) []byte {
	var list []json.RawMessage
	if len(raw) > 0 && raw[0] == '[' && json.Unmarshal(raw, &list) == nil && len(list) > 0 {
		return list[0]
	}
	return raw
}
