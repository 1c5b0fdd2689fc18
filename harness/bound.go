package harness

import (
	"context"
	"fmt"
	"sync"

	"github.com/faultbench/faultbench/recovery"
)

// The bounds on the work of one run. A strategy file may ask for 1,000
// attempts a step and 10,000 agent steps, and each request crosses the
// wire whole, its history included; without these bounds one run took
// minutes (1,000 attempts of a 5-million-token turn: 60 s; 10,000 steps
// of a small agent turn: 160 s). The harness stops a run, aborted, once
// the requests it has sent reach any. The default suite's largest run
// submits 950,000 tokens and sends 363 requests.
const (
	// DefaultRunTokens bounds the input tokens a run submits, summed over
	// its requests: 100 million, some 400 MB of text, 20 requests at the
	// largest turn a scenario may declare.
	DefaultRunTokens = 100_000_000
	// DefaultRunMessages bounds the messages a run sends, summed over its
	// requests: 2 million, an agent turn of about 1,400 steps. Each step
	// resends the whole history, and much of a request's cost is per
	// message (the SDK encodes it, the mock reads it): 2,900 steps of a
	// small agent turn stayed under the token bound and took 55 s.
	DefaultRunMessages = 2_000_000
	// DefaultRunRequests bounds the requests a run sends, over all its
	// turns: 10,000. A fleet's small requests stay under the other two
	// bounds: a strategy file that retries each of a workload's 1,000
	// turns 1,000 times is a million requests, some 10 minutes; a run
	// costs about 0.5 ms of CPU a request.
	DefaultRunRequests = 10_000
)

// runBound is the cause of a run the harness stopped at one of its bounds.
type runBound struct {
	n    int
	what string
}

func (b *runBound) Error() string {
	return fmt.Sprintf("stopped by the harness: the run reached its bound of %d %s", b.n, b.what)
}

// bounded counts the input tokens and the messages a run sends and, once
// either reaches its bound, tells the run (reached), which stops the turn
// that sent the request and every other turn before it sends again. It
// counts a request only after its answer is in, so that no request is in
// flight when a turn stops: the ledger and the mock's journal still agree.
type bounded struct {
	recovery.Provider
	tokens, messages, requests int // the bounds
	reached                    func(ctx context.Context, b *runBound)

	mu                             sync.Mutex // the turns of a run send one at a time, but an interrupt ends them all at once
	sentTokens, sent, sentRequests int
}

var _ recovery.Provider = (*bounded)(nil)

// Send sends req, then counts it.
func (b *bounded) Send(ctx context.Context, req recovery.Request) (*recovery.Response, error) {
	resp, err := b.Provider.Send(ctx, req)
	b.mu.Lock()
	b.sentTokens += recovery.CountTokens(req)
	b.sent += len(req.Messages)
	b.sentRequests++
	var hit *runBound
	switch {
	case b.sentTokens >= b.tokens:
		hit = &runBound{b.tokens, "submitted input tokens"}
	case b.sent >= b.messages:
		hit = &runBound{b.messages, "messages sent (counted over its requests)"}
	case b.sentRequests >= b.requests:
		hit = &runBound{b.requests, "requests sent"}
	}
	b.mu.Unlock()
	if hit != nil {
		b.reached(ctx, hit)
	}
	return resp, err
}
