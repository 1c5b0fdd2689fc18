package mocktest

import (
	"testing"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// Mock is the mock LLM serving one scenario for one test.
type Mock struct {
	t        testing.TB
	scenario *scenario.Scenario
	server   *mockllm.Server
	endpoint *mockllm.Endpoint
	session  string // "" for the default session, reached by BaseURL
}

// defaultSession is the session of requests that name none.
const defaultSession = "default"

// Option changes how a Mock starts.
type Option func(*config)

type config struct {
	clock  mockllm.Clock
	limits *mockllm.Limits
}

// WithClock makes the mock answer on c instead of the wall clock: its
// quotas refill, its sessions age and its scripted waits (delay, dribble,
// hang) pass on c. A c with a Sleep(ctx, d) method, or a mockllm.Waiter,
// is waited on; give it the clock your agent sleeps on, and a scripted
// retry-after costs no real time.
func WithClock(c mockllm.Clock) Option { return func(cf *config) { cf.clock = c } }

// WithLimits serves with the protections of `faultbench serve` against
// slow, idle and too many clients (mockllm.DefaultLimits, or your own);
// without it the mock has none, as the harness runs it.
func WithLimits(l mockllm.Limits) Option { return func(cf *config) { cf.limits = &l } }

// Start serves the scenario written as YAML text in yaml. A problem in
// it fails the test at once with its line and field, the file named
// after the test.
func Start(t testing.TB, yaml string, opts ...Option) *Mock {
	t.Helper()
	sc, err := scenario.Parse(t.Name()+" (inline scenario)", []byte(yaml))
	if err != nil {
		t.Fatalf("mocktest: %v", err)
	}
	return start(t, sc, opts)
}

// StartFile serves the scenario file at path.
func StartFile(t testing.TB, path string, opts ...Option) *Mock {
	t.Helper()
	sc, err := scenario.LoadFile(path)
	if err != nil {
		t.Fatalf("mocktest: %v", err)
	}
	return start(t, sc, opts)
}

// New serves a scenario built in code, once sc.Validate accepts it. The
// mock only reads sc: do not change it while the test runs.
func New(t testing.TB, sc *scenario.Scenario, opts ...Option) *Mock {
	t.Helper()
	if sc == nil {
		t.Fatalf("mocktest: New: nil scenario")
	}
	if err := sc.Validate(); err != nil {
		t.Fatalf("mocktest: %v", err)
	}
	return start(t, sc, opts)
}

func start(t testing.TB, sc *scenario.Scenario, opts []Option) *Mock {
	t.Helper()
	var cf config
	for _, o := range opts {
		o(&cf)
	}
	if cf.clock == nil {
		cf.clock = mockllm.RealClock{}
	}
	srv := mockllm.New([]*scenario.Scenario{sc}, cf.clock)
	var ep *mockllm.Endpoint
	var err error
	if cf.limits != nil {
		ep, err = mockllm.StartLimited(srv, "127.0.0.1:0", *cf.limits)
	} else {
		ep, err = mockllm.Start(srv, "127.0.0.1:0")
	}
	if err != nil {
		t.Fatalf("mocktest: start %s: %v", sc.Name, err)
	}
	t.Cleanup(func() {
		if err := ep.Close(); err != nil {
			t.Errorf("mocktest: %v", err)
		}
	})
	return &Mock{t: t, scenario: sc, server: srv, endpoint: ep}
}

// Scenario is the scenario served, as parsed (defaults filled).
func (m *Mock) Scenario() *scenario.Scenario { return m.scenario }

// Server is the mock itself, for what this package does not wrap
// (Add, Open, Reset).
func (m *Mock) Server() *mockllm.Server { return m.server }

// Session is a view of the same mock for one session of its own:
// requests under its BaseURL are numbered, scripted and journalled apart
// from every other session's, so that parallel subtests can share one
// Mock, each with its Session. Its Requests and assertions read that
// session alone. A name is at most 200 bytes.
func (m *Mock) Session(name string) *Mock {
	v := *m
	v.session = name
	return &v
}

// BaseURL is the scenario's base URL, http://127.0.0.1:PORT/<scenario>/
// (a Session's: .../<scenario>/s/<session>/): the base URL of the
// Anthropic SDK (its requests go to v1/messages under it) and of the
// Gemini SDK (genai.HTTPOptions.BaseURL; v1beta/models/...).
func (m *Mock) BaseURL() string {
	if m.session == "" {
		return m.endpoint.BaseURL(m.scenario.Name)
	}
	return m.endpoint.SessionURL(m.scenario.Name, m.session)
}

// OpenAIBaseURL is BaseURL with v1/: the OpenAI SDK's base URL, for Chat
// Completions (chat/completions) and the Responses API (responses).
func (m *Mock) OpenAIBaseURL() string { return m.BaseURL() + "v1/" }

// Entries is the whole journal, in the order the mock took the requests:
// every session's, and the requests that reached no scenario (a wrong
// path, with their Route).
func (m *Mock) Entries() []mockllm.Entry { return m.server.Journal() }

// Requests is the journal of the session's model requests, in order: no
// count_tokens, no request that reached no scenario. The default session
// is that of requests that name none (by the X-Faultbench-Session header
// or a Session's path).
func (m *Mock) Requests() []mockllm.Entry {
	session := m.session
	if session == "" {
		session = defaultSession
	}
	var out []mockllm.Entry
	for _, e := range m.server.Entries(m.scenario.Name, session) {
		if e.Route == "" {
			out = append(out, e)
		}
	}
	return out
}

// Summary sums the journal up, a line per session.
func (m *Mock) Summary() []mockllm.SessionSummary { return mockllm.Summarize(m.Entries()) }

// Reset forgets every session and so the journal, and refills the
// quotas: the next request starts the script again.
func (m *Mock) Reset() { m.server.Reset() }

// Add serves one more scenario, written as YAML text, on the same mock
// for test t and returns the Mock of it: how a test declares a scenario
// where it needs it, as POST /_faultbench/scenarios does for `faultbench
// serve`. It is checked as Start checks one, and removed when t ends; a
// name the mock serves already fails t.
func (m *Mock) Add(t testing.TB, yaml string) *Mock {
	t.Helper()
	sc, err := scenario.Parse(t.Name()+" (inline scenario)", []byte(yaml))
	if err != nil {
		t.Fatalf("mocktest: %v", err)
	}
	if err := m.server.Add(sc); err != nil {
		t.Fatalf("mocktest: %v", err)
	}
	t.Cleanup(func() { m.server.Remove(sc.Name) })
	return &Mock{t: t, scenario: sc, server: m.server, endpoint: m.endpoint}
}
