package openai

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/faultbench/faultbench/internal/excerpt"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/internal/wirecache"
)

// WithStream returns a copy of p that sends every chat completion with
// "stream": true (and stream_options.include_usage, so that the last
// chunk carries the usage) and gathers the chunks into one answer. The
// Responses API (WithResponses) does not stream here. As on Anthropic's
// wire, a stream that fails after it began fails the attempt as a whole:
// an error event is a *recovery.APIError of its type with the stream's
// status (200), a stream cut, or ended before a chunk gave a finish
// reason, a *recovery.BodyError wrapping io.ErrUnexpectedEOF. Every
// failure after the status arrived also matches recovery.ErrStreamBroken.
func (p *Provider) WithStream(on bool) *Provider {
	q := *p
	q.stream = on
	q.cache = new(wirecache.Cache)
	return &q
}

// ErrIncompleteStream is the cause of a *recovery.BodyError for a stream
// that ended, without an error, before any chunk gave a finish reason. It
// wraps io.ErrUnexpectedEOF.
var ErrIncompleteStream = fmt.Errorf("stream ended before a finish_reason: %w", io.ErrUnexpectedEOF)

// sendStream makes one streaming chat completion and gathers its chunks.
func (p *Provider) sendStream(ctx context.Context, params sdk.ChatCompletionNewParams, opts []option.RequestOption, httpResp **http.Response) (*recovery.Response, error) {
	opts = append(opts, option.WithJSONSet("stream_options", map[string]any{"include_usage": true}))
	stream := p.client.Chat.Completions.NewStreaming(ctx, params, opts...)
	defer func() { _ = stream.Close() }()
	var acc sdk.ChatCompletionAccumulator
	finished := false
	for stream.Next() {
		chunk := stream.Current()
		acc.AddChunk(chunk)
		for _, c := range chunk.Choices {
			finished = finished || c.FinishReason != ""
		}
	}
	if err := stream.Err(); err != nil {
		var sdkErr *sdk.Error
		var evErr *ssestream.StreamError
		switch {
		case errors.As(err, &sdkErr): // an error status
			return nil, apiError(sdkErr)
		case errors.As(err, &evErr) && *httpResp != nil: // an error event inside the 200
			return nil, fmt.Errorf("%w: %w", recovery.ErrStreamBroken, eventError(*httpResp, evErr))
		}
		return nil, streamError(*httpResp, err)
	}
	if !finished {
		return nil, streamError(*httpResp, ErrIncompleteStream)
	}
	return response(&acc.ChatCompletion, *httpResp), nil
}

// eventError is the *recovery.APIError of an error event: the event's
// error object (type, code, message) with the stream's status and
// headers.
func eventError(resp *http.Response, ev *ssestream.StreamError) *recovery.APIError {
	var body struct {
		Error struct {
			Type    string `json:"type"`
			Code    any    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	out := &recovery.APIError{StatusCode: resp.StatusCode, Header: resp.Header, RequestID: resp.Header.Get("x-request-id"), Err: ev}
	if json.Unmarshal(ev.Event.Data, &body) != nil {
		out.Message = excerpt.Prefix(ev.Message, maxRawMessage)
		return out
	}
	out.Type, out.Message = body.Error.Type, excerpt.Prefix(body.Error.Message, maxRawMessage)
	if code, ok := body.Error.Code.(string); ok {
		out.Code = code
	}
	return out
}

// streamError wraps the failure of a stream: a *recovery.BodyError, which
// matches recovery.ErrStreamBroken, once the status has come; the cause
// alone before.
func streamError(resp *http.Response, err error) error {
	if resp == nil {
		return fmt.Errorf("openai: %w", err)
	}
	return &recovery.BodyError{Source: "openai", StatusCode: resp.StatusCode, Header: resp.Header, Err: fmt.Errorf("%w: %w", recovery.ErrStreamBroken, err)}
}
