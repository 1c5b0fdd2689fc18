package anthropic

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/internal/wirecache"
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
// could not be read or made sense of (recovery.BodyError).
type BodyError = recovery.BodyError

func bodyError(resp *http.Response, err error) *BodyError {
	return &BodyError{Source: "anthropic", StatusCode: resp.StatusCode, Header: resp.Header, Err: err}
}

// sendStream makes one streaming call and gathers its events. It stops
// reading at message_stop: a connection that drops after the answer is
// whole costs nothing.
func (p *Provider) sendStream(ctx context.Context, params anthropic.MessageNewParams, opts []option.RequestOption, httpResp **http.Response) (*recovery.Response, error) {
	stream := p.client.Messages.NewStreaming(ctx, params, opts...)
	defer func() { _ = stream.Close() }()
	var msg anthropic.Message
	var text textDeltas
	complete := false
	for !complete && stream.Next() {
		ev := stream.Current()
		if text.add(&msg, ev) {
			continue
		}
		text.flush(&msg)
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

// textDeltas gathers the text deltas of one content block and hands them
// to the message in one piece before the next event of any other kind.
// Message.Accumulate adds each delta with +=, copying the whole text so
// far: the mock's 5-million-token answer, 312,500 deltas of 64 bytes,
// took minutes that way (the copies grow with the square of the answer);
// gathered here the work follows the bytes.
type textDeltas struct {
	index int64
	buf   []byte
}

// add takes ev when it is a text delta of a block the message has, and
// reports whether it did; Accumulate sees every other event (and judges a
// delta for a block that never started).
func (t *textDeltas) add(msg *anthropic.Message, ev anthropic.MessageStreamEventUnion) bool {
	if ev.Type != "content_block_delta" || ev.Delta.Type != "text_delta" || ev.Index < 0 || ev.Index >= int64(len(msg.Content)) {
		return false
	}
	if ev.Index != t.index {
		t.flush(msg)
		t.index = ev.Index
	}
	t.buf = append(t.buf, ev.Delta.Text...)
	return true
}

// flush adds the gathered text to its block.
func (t *textDeltas) flush(msg *anthropic.Message) {
	if len(t.buf) == 0 {
		return
	}
	msg.Content[t.index].Text += string(t.buf)
	t.buf = t.buf[:0]
}
