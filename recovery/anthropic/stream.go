package anthropic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/faultbench/faultbench/internal/wirecache"
	"github.com/faultbench/faultbench/recovery"
)

// WithStream returns a copy of p that sends every request with
// "stream": true and gathers the server-sent events into one answer. The
// official SDKs do not retry a stream that fails after it began; here it
// fails the attempt as a whole: whatever had arrived is thrown away, and
// the error is one the engine classifies and retries like any other — an
// SSE error event is a *recovery.APIError of its type (overloaded_error,
// with the stream's status, 200), a stream cut or ended before
// message_stop a *BodyError wrapping io.ErrUnexpectedEOF (a connection
// failure). Every failure after the status arrived also matches
// recovery.ErrStreamBroken, so that a strategy that gives up on a broken
// stream, as the SDKs do (Strategy.GiveUpMidStream), can tell it.
func (p *Provider) WithStream(on bool) *Provider {
	q := *p
	q.stream = on
	q.cache = new(wirecache.Cache)
	return &q
}

// ErrIncompleteStream is the cause of a *BodyError for a stream that ended,
// without an error, before message_stop. It wraps io.ErrUnexpectedEOF.
var ErrIncompleteStream = fmt.Errorf("stream ended before message_stop: %w", io.ErrUnexpectedEOF)

// BodyError is an answer whose status and headers arrived but whose body
// could not be read or made sense of: a body cut short, JSON that does not
// parse, no body at all, a stream that broke off or ended early. It wraps
// the cause, so that a classifier finds io.ErrUnexpectedEOF, a timeout or
// a reset in its chain; HTTPStatus tells a ledger what status the client
// saw.
type BodyError struct {
	StatusCode int
	Header     http.Header
	Err        error
}

func (e *BodyError) Error() string {
	return fmt.Sprintf("anthropic: HTTP %d answer unreadable: %v", e.StatusCode, e.Err)
}

// Unwrap returns the cause.
func (e *BodyError) Unwrap() error { return e.Err }

// HTTPStatus is the status the answer came with.
func (e *BodyError) HTTPStatus() int { return e.StatusCode }

func bodyError(resp *http.Response, err error) *BodyError {
	return &BodyError{StatusCode: resp.StatusCode, Header: resp.Header, Err: err}
}

// sendStream makes one streaming call and gathers its events. It stops
// reading at message_stop: a connection that drops after the answer is
// whole costs nothing.
func (p *Provider) sendStream(ctx context.Context, params anthropic.MessageNewParams, opts []option.RequestOption, httpResp **http.Response) (*recovery.Response, error) {
	stream := p.client.Messages.NewStreaming(ctx, params, opts...)
	defer func() { _ = stream.Close() }()
	var msg anthropic.Message
	complete := false
	for !complete && stream.Next() {
		ev := stream.Current()
		if err := msg.Accumulate(ev); err != nil {
			return nil, streamError(*httpResp, err)
		}
		complete = ev.Type == "message_stop"
	}
	if err := stream.Err(); err != nil {
		var sdkErr *anthropic.Error
		if errors.As(err, &sdkErr) { // an error status, or an SSE error event
			if r := *httpResp; r != nil && r.StatusCode == http.StatusOK {
				return nil, fmt.Errorf("%w: %w", recovery.ErrStreamBroken, apiError(sdkErr))
			}
			return nil, apiError(sdkErr)
		}
		return nil, streamError(*httpResp, err)
	}
	if !complete {
		return nil, streamError(*httpResp, ErrIncompleteStream)
	}
	return response(&msg, *httpResp), nil
}

// streamError wraps the failure of a stream: a *BodyError, which matches
// recovery.ErrStreamBroken, once the status has come; the cause alone
// before.
func streamError(resp *http.Response, err error) error {
	if resp == nil {
		return fmt.Errorf("anthropic: %w", err)
	}
	return bodyError(resp, fmt.Errorf("%w: %w", recovery.ErrStreamBroken, err))
}
