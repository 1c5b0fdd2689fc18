package clientcheck

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// family is one fault, scripted, and the attempts each SDK is documented
// to make against it.
type family struct {
	name    string
	script  []scenario.Rule
	stream  bool
	timeout time.Duration // the SDK's per-attempt timeout; 0 means 5 s
	// deadline ends the call from outside; 0 means 10 s.
	deadline time.Duration
	want     map[string]int // attempts, by SDK name
}

func once(r scenario.Respond) scenario.Rule { return scenario.Rule{Times: 1, Respond: r} }

func always(r scenario.Respond) scenario.Rule { return scenario.Rule{Respond: r} }

func fault(f scenario.Fault) scenario.Respond { return scenario.Respond{Fault: f} }

// soon is a 429's headers asking for a short wait, so a family that is
// about the status does not wait the backoff in real time.
func soon(status int, more ...string) scenario.Respond {
	h := map[string]string{"retry-after-ms": "20"}
	for i := 0; i+1 < len(more); i += 2 {
		h[more[i]] = more[i+1]
	}
	return scenario.Respond{Status: status, Headers: h}
}

func both(n int) map[string]int { return map[string]int{anthropicSDK.name: n, openaiSDK.name: n} }

func each(anthropic, openai int) map[string]int {
	return map[string]int{anthropicSDK.name: anthropic, openaiSDK.name: openai}
}

var families = []family{
	{name: "rate-limit-retry-after-ms", script: []scenario.Rule{once(soon(429))}, want: both(2)},
	{name: "rate-limit-retry-after-seconds", script: []scenario.Rule{once(scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "1"}})}, want: both(2)},
	{name: "rate-limit-above-two-minutes", script: []scenario.Rule{always(scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "300"}})},
		deadline: 3 * time.Second, want: both(1)}, // anthropic waits the 300 s (the deadline ends it), openai gives up at once; 3 s: on a busy host a first request can take a second to arrive
	{name: "overloaded-with-backoff", script: []scenario.Rule{always(scenario.Respond{Status: 529})}, want: both(3)},
	{name: "server-error-should-retry-false", script: []scenario.Rule{always(scenario.Respond{Status: 500, Headers: map[string]string{"x-should-retry": "false"}})}, want: both(1)},
	{name: "bad-request-should-retry-true", script: []scenario.Rule{once(soon(400, "x-should-retry", "true"))}, want: both(2)},
	{name: "request-timeout-408", script: []scenario.Rule{once(soon(408))}, want: both(2)},
	{name: "conflict-409", script: []scenario.Rule{once(soon(409))}, want: both(2)},
	{name: "invalid-request-400", script: []scenario.Rule{always(scenario.Respond{Status: 400})}, want: both(1)},
	{name: "auth-401", script: []scenario.Rule{always(scenario.Respond{Status: 401})}, want: both(1)},
	{name: "permission-403", script: []scenario.Rule{always(scenario.Respond{Status: 403})}, want: both(1)},
	{name: "quota-402", script: []scenario.Rule{always(scenario.Respond{Status: 402})}, want: both(1)},
	{name: "too-large-413", script: []scenario.Rule{always(scenario.Respond{Status: 413})}, want: both(1)},
	{name: "connection-reset", script: []scenario.Rule{once(fault(scenario.Fault{Kind: scenario.FaultReset}))}, want: both(2)},
	{name: "garbage", script: []scenario.Rule{once(fault(scenario.Fault{Kind: scenario.FaultGarbage}))}, want: both(2)},
	{name: "hang", script: []scenario.Rule{once(fault(scenario.Fault{Kind: scenario.FaultHang}))},
		timeout: 2 * time.Second, want: each(2, 1)}, // openai-go does not retry its own timeout; 2 s: on a busy host the attempt must reach the hang before its timeout
	{name: "malformed-200", script: []scenario.Rule{once(fault(scenario.Fault{Kind: scenario.FaultMalformed}))}, want: both(1)},
	{name: "empty-200", script: []scenario.Rule{once(fault(scenario.Fault{Kind: scenario.FaultEmpty}))}, want: both(1)},
	{name: "body-cut", script: []scenario.Rule{once(fault(scenario.Fault{Kind: scenario.FaultCut}))},
		want: each(2, 1)}, // anthropic-sdk-go reads the body inside its retry loop
	{name: "slow-headers", script: []scenario.Rule{once(fault(scenario.Fault{Delay: scenario.Duration(100 * time.Millisecond)}))}, want: both(1)},
	{name: "stream-overloaded-before", script: []scenario.Rule{once(soon(529))}, stream: true, want: both(2)},
	{name: "stream-error-midway", script: []scenario.Rule{always(fault(scenario.Fault{Kind: scenario.FaultError, After: 3}))}, stream: true, want: both(1)},
	{name: "stream-cut-midway", script: []scenario.Rule{always(fault(scenario.Fault{Kind: scenario.FaultCut, After: 3}))}, stream: true, want: both(1)},
	{name: "stream-malformed", script: []scenario.Rule{always(fault(scenario.Fault{Kind: scenario.FaultMalformed}))}, stream: true, want: both(1)},
	{name: "stream-dribble", script: []scenario.Rule{once(fault(scenario.Fault{Dribble: scenario.Duration(time.Millisecond)}))}, stream: true, want: both(1)},
}

func (f family) scenario() *scenario.Scenario {
	return &scenario.Scenario{
		Name:        f.name,
		Description: f.name,
		Models:      map[string]scenario.Model{"sonnet": {ContextWindow: 200000, MaxOutput: 64000}},
		Turn: scenario.Turn{
			Model: "sonnet", MaxTokens: 1024, SystemTokens: 100, AnswerTokens: 100, Stream: f.stream,
			Messages: []scenario.MessageGroup{{Count: 2, Tokens: 200}},
		},
		Script: f.script,
	}
}

// TestFaultFamilies points each SDK at every fault family and checks the
// attempts it makes: their number, and, against the journal, that each
// retry or stop is the SDK's documented policy.
func TestFaultFamilies(t *testing.T) {
	scs := make([]*scenario.Scenario, len(families))
	for i, f := range families {
		scs[i] = f.scenario()
		if err := scs[i].Validate(); err != nil {
			t.Fatal(err)
		}
	}
	srv, ep, transport := serve(t, scs)
	req := recovery.Request{Model: "sonnet", MaxTokens: 1024, System: "be brief",
		Messages: []recovery.Message{{Role: "user", Text: "Say something."}}}
	// The runs go at once, whatever -parallel says: their waits are real.
	var wg sync.WaitGroup
	errs := make([]error, len(families)*len(sdks))
	for i, f := range families {
		for j, s := range sdks {
			wg.Go(func() {
				c := call{base: ep.BaseURL(f.name), session: s.name, req: req, stream: f.stream, timeout: orDefault(f.timeout, 5*time.Second)}
				errs[i*len(sdks)+j] = run(srv, transport, s, c, f.name, orDefault(f.deadline, 10*time.Second), f.want[s.name])
			})
		}
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
}

// run makes one call with one SDK and checks it: against the journal and
// the SDK's policy, and for the number of attempts when want > 0.
func run(srv *mockllm.Server, transport http.RoundTripper, s sdk, c call, scenario string, deadline time.Duration, want int) error {
	_, err := measure(srv, transport, s, c, scenario, deadline)
	if err != nil {
		return err
	}
	if n := len(srv.Entries(scenario, s.name)); want > 0 && n != want {
		return fmt.Errorf("%s × %s: %d attempts, want %d", scenario, s.name, n, want)
	}
	return nil
}

// measure makes one call and checks the journal against the attempts the
// client made and the SDK's policy.
func measure(srv *mockllm.Server, transport http.RoundTripper, s sdk, c call, scenario string, deadline time.Duration) (outcome, error) {
	tp := &tap{next: transport}
	c.client = &http.Client{Transport: tp}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	out := s.send(ctx, c)
	journal := srv.Entries(scenario, s.name)
	if err := checkRun(s, c, tp.attempts(), journal, ctx.Err() != nil || errors.Is(out.err, context.DeadlineExceeded)); err != nil {
		return out, fmt.Errorf("%s × %s: %w (the SDK returned %v)", scenario, s.name, err, out)
	}
	return out, nil
}

// serve starts the mock as `faultbench serve` does, on the real clock, and
// a transport for the SDKs; both are closed when the test ends.
func serve(t *testing.T, scs []*scenario.Scenario) (*mockllm.Server, *mockllm.Endpoint, *http.Transport) {
	t.Helper()
	srv := mockllm.New(scs, clock.Real{})
	ep, err := mockllm.Start(srv, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	transport := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: 64}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		if err := ep.Close(); err != nil {
			t.Error(err)
		}
	})
	return srv, ep, transport
}

func orDefault(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
