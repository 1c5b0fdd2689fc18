package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/internal/excerpt"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/internal/wirecache"
)

// Provider sends recovery requests as OpenAI chat completions with the
// SDK's own retries off. A Provider is safe for concurrent use; its
// settings never change. It keeps the SDK's encoding of the messages of
// the last conversation it sent (body.go), so a resend or the next step of
// an agent turn encodes only what is new: give each conversation its own
// Provider (each With method returns one with an empty cache) for the
// most reuse.
type Provider struct {
	client     sdk.Client
	legacy     bool
	responses  bool // send by the Responses API (WithResponses)
	stream     bool // stream chat completions (WithStream)
	perRequest []func(recovery.Request) []option.RequestOption
	cache      *wirecache.Cache
}

var _ recovery.Provider = (*Provider)(nil)

// New builds a Provider on a client made with opts (base URL, API key,
// HTTP client, ...), applied over the SDK's environment defaults as
// openai.NewClient applies them, with option.WithMaxRetries(0) applied
// last so that no option can turn the SDK's retries back on.
func New(opts ...option.RequestOption) *Provider {
	all := append(append([]option.RequestOption(nil), opts...), option.WithMaxRetries(0))
	return &Provider{client: sdk.NewClient(all...), cache: new(wirecache.Cache)}
}

// WithLegacyMaxTokens returns a copy of p that sends the output budget as
// max_tokens instead of max_completion_tokens, for servers that only know
// the older field.
func (p *Provider) WithLegacyMaxTokens() *Provider {
	q := *p
	q.legacy = true
	q.cache = new(wirecache.Cache)
	return &q
}

// WithRequestOptions returns a copy of p that adds the options f computes
// from each request to that request's call, after those of p. Retries stay
// off whatever f returns.
func (p *Provider) WithRequestOptions(f func(recovery.Request) []option.RequestOption) *Provider {
	q := *p
	q.cache = new(wirecache.Cache)
	if f != nil {
		q.perRequest = append(append([]func(recovery.Request) []option.RequestOption(nil), p.perRequest...), f)
	}
	return &q
}

// Send makes one chat completion (or, WithResponses, one response) for
// req. It never retries.
func (p *Provider) Send(ctx context.Context, req recovery.Request) (*recovery.Response, error) {
	var opts []option.RequestOption
	for _, f := range p.perRequest {
		opts = append(opts, f(req)...)
	}
	if p.responses {
		return p.sendResponse(ctx, req, opts)
	}
	body, err := p.body(req)
	if err != nil {
		return nil, err
	}
	// The SDK sends body in place of its encoding of params, which carry
	// only the model.
	params := sdk.ChatCompletionNewParams{Model: sdk.ChatModel(req.Model), Messages: []sdk.ChatCompletionMessageParamUnion{}}
	var httpResp *http.Response
	opts = append(opts, option.WithRequestBody("application/json", body), option.WithResponseInto(&httpResp), option.WithMaxRetries(0))
	if p.stream {
		return p.sendStream(ctx, params, opts, &httpResp)
	}

	completion, err := p.client.Chat.Completions.New(ctx, params, opts...)
	if err != nil {
		return nil, sendError(httpResp, err)
	}
	if e := inBodyError(completion, httpResp); e != nil {
		return nil, e
	}
	return response(completion, httpResp), nil
}

// params is the request as the SDK's params. Send encodes them in parts
// (body.go); the parts are byte for byte this encoded whole.
func (p *Provider) params(req recovery.Request) (sdk.ChatCompletionNewParams, error) {
	params := p.headParams(req)
	if req.System != "" {
		params.Messages = append(params.Messages, sdk.SystemMessage(req.System))
	}
	for i, m := range req.Messages {
		wire, err := messageParams(i, m)
		if err != nil {
			return params, err
		}
		params.Messages = append(params.Messages, wire...)
	}
	return params, nil
}

// headParams is the request without its messages.
func (p *Provider) headParams(req recovery.Request) sdk.ChatCompletionNewParams {
	params := sdk.ChatCompletionNewParams{
		Model:    sdk.ChatModel(req.Model),
		Messages: []sdk.ChatCompletionMessageParamUnion{},
	}
	if req.MaxTokens > 0 {
		if p.legacy {
			params.MaxTokens = sdk.Int(int64(req.MaxTokens))
		} else {
			params.MaxCompletionTokens = sdk.Int(int64(req.MaxTokens))
		}
	}
	return params
}

// messageParams maps message i onto the wire's messages: a user message's
// tool results become messages of role tool, one per call, before the
// user's own text (sent when there is any or nothing else).
func messageParams(i int, m recovery.Message) ([]sdk.ChatCompletionMessageParamUnion, error) {
	switch m.Role {
	case "user":
		out := make([]sdk.ChatCompletionMessageParamUnion, 0, len(m.ToolResults)+1)
		for _, r := range m.ToolResults {
			out = append(out, sdk.ToolMessage(r.Content, r.ToolUseID))
		}
		if m.Text != "" || len(m.ToolResults) == 0 {
			out = append(out, sdk.UserMessage(m.Text))
		}
		return out, nil
	case "assistant":
		if len(m.ToolCalls) == 0 {
			return []sdk.ChatCompletionMessageParamUnion{sdk.AssistantMessage(m.Text)}, nil
		}
		var a sdk.ChatCompletionAssistantMessageParam
		if m.Text != "" {
			a.Content.OfString = sdk.String(m.Text)
		}
		for _, c := range m.ToolCalls {
			args := string(c.Input)
			if args == "" {
				args = "{}"
			}
			a.ToolCalls = append(a.ToolCalls, sdk.ChatCompletionMessageToolCallUnionParam{
				OfFunction: &sdk.ChatCompletionMessageFunctionToolCallParam{
					ID:       c.ID,
					Function: sdk.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: args},
				},
			})
		}
		return []sdk.ChatCompletionMessageParamUnion{{OfAssistant: &a}}, nil
	}
	return nil, fmt.Errorf("openai: message %d has role %q, want user or assistant", i, m.Role)
}

func response(c *sdk.ChatCompletion, httpResp *http.Response) *recovery.Response {
	resp := &recovery.Response{
		ID:              c.ID,
		Model:           c.Model,
		InputTokens:     int(c.Usage.PromptTokens),
		OutputTokens:    int(c.Usage.CompletionTokens),
		CacheReadTokens: int(c.Usage.PromptTokensDetails.CachedTokens),
	}
	if len(c.Choices) > 0 {
		ch := c.Choices[0]
		resp.Text = ch.Message.Content
		resp.StopReason = ch.FinishReason
		for _, c := range ch.Message.ToolCalls {
			if c.Type == "function" || c.Type == "" {
				resp.ToolCalls = append(resp.ToolCalls, recovery.ToolCall{ID: c.ID, Name: c.Function.Name, Input: json.RawMessage(c.Function.Arguments)})
			}
		}
		if ch.Message.Refusal != "" {
			resp.StopReason = "refusal"
		}
	}
	if httpResp != nil {
		resp.Header = httpResp.Header
	}
	return resp
}

// inBodyError is the error a 200 carries in its body instead of choices,
// as OpenRouter answers once the model has started on a request:
// {"error":{"code":502,"message":…}}. The APIError keeps the HTTP status
// (200) and puts the body's code in Code, which the classifier reads as
// the status it names; nil when the body holds choices or no error.
func inBodyError(c *sdk.ChatCompletion, httpResp *http.Response) *recovery.APIError {
	if len(c.Choices) > 0 {
		return nil
	}
	var body struct {
		Error *struct {
			Code    json.RawMessage `json:"code"`
			Message string          `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(c.RawJSON()), &body) != nil || body.Error == nil {
		return nil
	}
	out := &recovery.APIError{StatusCode: http.StatusOK, Code: strings.Trim(string(body.Error.Code), `"`), Message: body.Error.Message}
	if httpResp != nil {
		out.StatusCode, out.Header = httpResp.StatusCode, httpResp.Header
	}
	return out
}

// maxRawMessage bounds how much of a body that is not JSON becomes the
// message of an APIError.
const maxRawMessage = 1024

// apiError maps the SDK's error onto the engine's provider-neutral shape.
func apiError(e *sdk.Error) *recovery.APIError {
	out := &recovery.APIError{
		StatusCode: e.StatusCode,
		Type:       e.Type,
		Code:       e.Code,
		Message:    e.Message,
		Err:        e,
	}
	if e.Response != nil {
		out.Header = e.Response.Header
		out.RequestID = e.Response.Header.Get("x-request-id")
		if out.Message == "" && out.Type == "" && out.Code == "" {
			out.Message = rawText(e.Response)
		}
	}
	return out
}

// rawAPIError is the error status of a body that is not OpenAI's error
// JSON: its status, headers and words.
// sendError is the error of a failed call, Chat Completions or Responses:
// the API's error, a status whose body was not OpenAI's error JSON, a 200
// whose body broke (recovery.BodyError), or the transport's error.
func sendError(httpResp *http.Response, err error) error {
	var sdkErr *sdk.Error
	switch {
	case errors.As(err, &sdkErr):
		return apiError(sdkErr)
	case httpResp != nil && httpResp.StatusCode >= 400:
		// A body the SDK could not read as OpenAI's error JSON.
		return rawAPIError(httpResp, err)
	case httpResp != nil: // the status came, the body did not make sense
		return &recovery.BodyError{Source: "openai", StatusCode: httpResp.StatusCode, Header: httpResp.Header, Err: err}
	}
	return fmt.Errorf("openai: %w", err)
}

func rawAPIError(r *http.Response, err error) *recovery.APIError {
	return &recovery.APIError{
		StatusCode: r.StatusCode,
		Message:    rawText(r),
		RequestID:  r.Header.Get("x-request-id"),
		Header:     r.Header,
		Err:        err,
	}
}

// rawText reads what the SDK left of an error body, bounded.
func rawText(r *http.Response) string {
	if r.Body == nil {
		return ""
	}
	b, _ := io.ReadAll(io.LimitReader(r.Body, maxRawMessage+4))
	return excerpt.Prefix(strings.TrimSpace(string(b)), maxRawMessage)
}
