package harness

import (
	"context"
	"fmt"
	"net/http"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// Bench is one mock on loopback that many runs share, for a caller that
// makes its scenarios as it goes (faultbench explore): it serves each
// scenario from Add to Remove, and runs a strategy on it, or a caller's own
// sequence of requests (Play), each in its own session on its own virtual
// clock, as Run does. It is safe for concurrent use; two runs at once must
// differ in scenario or session.
type Bench struct {
	e         *env
	transport *http.Transport
}

// NewBench starts a mock with no scenario on 127.0.0.1; seed seeds each
// run's random source as Options.Seed does for Run. Close it when done.
func NewBench(seed uint64) (*Bench, error) {
	mock := mockllm.New(nil, clock.NewVirtual())
	ep, err := mockllm.Start(mock, "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("harness: start mock: %w", err)
	}
	transport := &http.Transport{
		Proxy:               nil, // loopback only, whatever the environment says
		MaxIdleConnsPerHost: 64,
		DisableCompression:  true,
		WriteBufferSize:     64 << 10,
	}
	e := &env{mock: mock, ep: ep, client: &http.Client{Transport: transport}, seed: seed,
		runTokens: DefaultRunTokens, runMessages: DefaultRunMessages, runRequests: DefaultRunRequests} // bound.go
	return &Bench{e: e, transport: transport}, nil
}

// Close stops the mock and drops the idle connections.
func (b *Bench) Close() {
	b.transport.CloseIdleConnections()
	b.e.ep.Close()
}

// Add serves sc (which must have passed Validate) under its name.
func (b *Bench) Add(sc *scenario.Scenario) error { return b.e.mock.Add(sc) }

// Remove stops serving the scenario of that name.
func (b *Bench) Remove(name string) { b.e.mock.Remove(name) }

// Run runs s on sc, served by Add, as Run runs one scenario × strategy:
// the same session, seed and reconciliation with the journal, so the
// result is the one `faultbench run` gives for the same file and seed.
func (b *Bench) Run(ctx context.Context, sc *scenario.Scenario, s recovery.Strategy) (ledger.Result, error) {
	return b.e.run(ctx, job{sc: sc, strategy: &s})
}

// Player sends a turn's requests its own way: p is the scenario's
// transport for the session, with the run's bounds inside, and clk the
// session's virtual clock, on which the player sleeps to wait.
type Player func(ctx context.Context, p recovery.Provider, clk recovery.Clock) error

// Play opens session `session` of sc (served by Add) on a fresh virtual
// clock, lets play send what it will, and returns what the mock saw, in
// order: the requests are counted from the journal, never from the
// player's own account.
func (b *Bench) Play(ctx context.Context, sc *scenario.Scenario, session string, play Player) ([]mockllm.Entry, error) {
	var entries []mockllm.Entry
	var err error
	var r *live
	r, oerr := b.e.open(ctx, sc, lone(session), func(ctx context.Context, _ int) {
		err = play(ctx, r.provider, engineClock{r})
		entries = b.e.mock.Entries(sc.Name, session)
	})
	if oerr != nil {
		return nil, oerr
	}
	defer r.close()
	r.s.Run()
	return entries, err
}
