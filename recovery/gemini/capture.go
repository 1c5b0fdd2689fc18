package gemini

import (
	"net/http"
	"sync"
)

// The SDK's errors carry no headers and its answers no status, so the
// Provider's HTTP client keeps the *http.Response of each call in a slot
// that the call's context carries: the retry-after or x-should-retry of
// an error status, the status of a body that broke.

type slotKey struct{}

// answerSlot holds the response of one call.
type answerSlot struct {
	mu   sync.Mutex
	resp *http.Response
}

func (s *answerSlot) set(r *http.Response) {
	s.mu.Lock()
	s.resp = r
	s.mu.Unlock()
}

func (s *answerSlot) get() *http.Response {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.resp
}

// capture is a RoundTripper that puts each response in its request's slot.
type capture struct{ base http.RoundTripper }

func (c capture) RoundTrip(req *http.Request) (*http.Response, error) {
	base := c.base
	if base == nil {
		base = http.DefaultTransport
	}
	resp, err := base.RoundTrip(req)
	if s, ok := req.Context().Value(slotKey{}).(*answerSlot); ok && resp != nil {
		s.set(resp)
	}
	return resp, err
}
