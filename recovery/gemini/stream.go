package gemini

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"

	"google.golang.org/genai"

	"github.com/faultbench/faultbench/recovery"
)

// ErrIncompleteStream is the cause of a *BodyError for a stream that
// ended, without an error, before a frame with a finishReason. It wraps
// io.ErrUnexpectedEOF.
var ErrIncompleteStream = fmt.Errorf("stream ended before a finishReason: %w", io.ErrUnexpectedEOF)

// sendStream makes one streamGenerateContent?alt=sse call and gathers its
// frames, each a whole GenerateContentResponse. Gemini sends no [DONE]:
// the answer is whole at the frame that has a finishReason and
// usageMetadata, where reading stops, so a connection that drops after
// it costs nothing. As on the other wires, a stream that fails after its
// status came fails the attempt as a whole: an error object inside the
// stream is a *recovery.APIError of its status (the HTTP status, 200,
// kept), a cut or an early end a *BodyError wrapping
// io.ErrUnexpectedEOF; both match recovery.ErrStreamBroken.
func (p *Provider) sendStream(ctx context.Context, req recovery.Request, cfg *genai.GenerateContentConfig, slot *answerSlot) (*recovery.Response, error) {
	var acc answer
	complete := false
	for frame, err := range p.client.Models.GenerateContentStream(ctx, req.Model, nil, cfg) {
		if err != nil {
			return nil, streamError(slot.get(), err)
		}
		acc.add(frame)
		if acc.finish != "" && frame.UsageMetadata != nil {
			complete = true
			break
		}
	}
	if !complete && acc.finish == "" {
		return nil, streamError(slot.get(), ErrIncompleteStream)
	}
	return acc.response(slot.get()), nil
}

// streamError wraps the failure of a stream. Before a 200 it is the error
// of its status, as for a plain call; after it, it also matches
// recovery.ErrStreamBroken.
func streamError(resp *http.Response, err error) error {
	if resp == nil || resp.StatusCode != http.StatusOK {
		return sendError(resp, err)
	}
	var e genai.APIError
	if errors.As(err, &e) {
		a := apiError(e, resp, err)
		a.StatusCode = resp.StatusCode
		return fmt.Errorf("%w: %w", recovery.ErrStreamBroken, a)
	}
	return bodyError(resp, fmt.Errorf("%w: %w", recovery.ErrStreamBroken, err))
}
