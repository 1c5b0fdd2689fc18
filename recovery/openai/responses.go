package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/faultbench/faultbench/recovery"
)

// WithResponses returns a copy of p that sends each request by the
// Responses API (POST v1/responses) instead of Chat Completions, its
// retries off all the same.
func (p *Provider) WithResponses() *Provider {
	q := *p
	q.responses = true
	return &q
}

// sendResponse makes one response for req. It never retries.
func (p *Provider) sendResponse(ctx context.Context, req recovery.Request, opts []option.RequestOption) (*recovery.Response, error) {
	params, err := responseParams(req)
	if err != nil {
		return nil, err
	}
	var httpResp *http.Response
	opts = append(opts, option.WithResponseInto(&httpResp), option.WithMaxRetries(0))
	r, err := p.client.Responses.New(ctx, params, opts...)
	if err != nil {
		return nil, sendError(httpResp, err)
	}
	return responseOf(r, httpResp), nil
}

// responseParams maps a request onto the Responses API: the system prompt
// as instructions, each message as an input item (a tool call as a
// function_call item, a tool result as a function_call_output before the
// user's text), max_tokens as max_output_tokens.
func responseParams(req recovery.Request) (responses.ResponseNewParams, error) {
	params := responses.ResponseNewParams{Model: req.Model}
	if req.System != "" {
		params.Instructions = sdk.String(req.System)
	}
	if req.MaxTokens > 0 {
		params.MaxOutputTokens = sdk.Int(int64(req.MaxTokens))
	}
	items := make(responses.ResponseInputParam, 0, len(req.Messages))
	for i, m := range req.Messages {
		switch m.Role {
		case "user":
			for _, r := range m.ToolResults {
				out := responses.ResponseInputItemParamOfFunctionCallOutput(r.Content)
				out.OfFunctionCallOutput.CallID = sdk.String(r.ToolUseID)
				items = append(items, out)
			}
			if m.Text != "" || len(m.ToolResults) == 0 {
				items = append(items, responses.ResponseInputItemParamOfMessage(m.Text, responses.EasyInputMessageRoleUser))
			}
		case "assistant":
			if m.Text != "" || len(m.ToolCalls) == 0 {
				items = append(items, responses.ResponseInputItemParamOfMessage(m.Text, responses.EasyInputMessageRoleAssistant))
			}
			for _, c := range m.ToolCalls {
				args := string(c.Input)
				if args == "" {
					args = "{}"
				}
				items = append(items, responses.ResponseInputItemParamOfFunctionCall(args, c.ID, c.Name))
			}
		default:
			return params, fmt.Errorf("openai: message %d has role %q, want user or assistant", i, m.Role)
		}
	}
	params.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: items}
	return params, nil
}

// responseOf maps a response onto the engine's: its text, its function
// calls as tool calls, and a stop reason in Chat Completions' words, which
// the classifier reads: length for an answer cut at max_output_tokens,
// content_filter for one cut by the filter, tool_calls when it calls
// tools, else stop.
func responseOf(r *responses.Response, httpResp *http.Response) *recovery.Response {
	resp := &recovery.Response{
		ID:              r.ID,
		Model:           string(r.Model),
		Text:            r.OutputText(),
		InputTokens:     int(r.Usage.InputTokens),
		OutputTokens:    int(r.Usage.OutputTokens),
		CacheReadTokens: int(r.Usage.InputTokensDetails.CachedTokens),
		StopReason:      "stop",
	}
	for _, item := range r.Output {
		if item.Type == "function_call" {
			resp.ToolCalls = append(resp.ToolCalls, recovery.ToolCall{ID: item.CallID, Name: item.Name, Input: json.RawMessage(item.Arguments.OfString)})
		}
	}
	switch {
	case r.Status == "incomplete" && r.IncompleteDetails.Reason == "content_filter":
		resp.StopReason = "content_filter"
	case r.Status == "incomplete":
		resp.StopReason = "length"
	case len(resp.ToolCalls) > 0:
		resp.StopReason = "tool_calls"
	}
	if httpResp != nil {
		resp.Header = httpResp.Header
	}
	return resp
}
