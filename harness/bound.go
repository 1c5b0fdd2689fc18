package harness

import (
	"context"
	"fmt"

	"github.com/faultbench/faultbench/recovery"
)

// DefaultRunTokens is the most input tokens one run submits before the
// harness stops it: 100 million, some 400 MB of text, 20 requests at the
// largest turn a scenario may declare (5 million tokens) or an agent turn
// of about 1,600 steps from 3,000 tokens. A strategy file may ask for
// 1,000 attempts a step and 10,000 steps, and each request must cross the
// wire whole; without this bound one run of them took minutes (1,000
// attempts of a 5-million-token turn: 60 s; 10,000 agent steps: 160 s).
// The default suite's largest run submits 950,000.
const DefaultRunTokens = 100_000_000

// runBound is the cause of a run the harness stopped at its bound on
// submitted tokens.
type runBound struct{ tokens int }

func (b *runBound) Error() string {
	return fmt.Sprintf("stopped by the harness: the run reached its bound of %d submitted input tokens", b.tokens)
}

// bounded counts the input tokens a run submits and, once they reach the
// bound, cancels the run's context with a *runBound cause. It does so only
// after an answer is in, so that no request is in flight when the engine
// stops: the ledger and the mock's journal still agree.
type bounded struct {
	recovery.Provider
	bound, sent int
	cancel      context.CancelCauseFunc
}

var _ recovery.Provider = (*bounded)(nil)

// Send sends req, then counts it.
func (b *bounded) Send(ctx context.Context, req recovery.Request) (*recovery.Response, error) {
	resp, err := b.Provider.Send(ctx, req)
	b.sent += recovery.CountTokens(req)
	if b.sent >= b.bound {
		b.cancel(&runBound{tokens: b.bound})
	}
	return resp, err
}
