package mocktest_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/leaktest"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/mockllm/mocktest"
)

// TestMain fails the package when a server outlives its test: Start's
// cleanup must shut it down.
func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }

// post sends a small Anthropic request to base and returns its status.
func post(t *testing.T, base string) int {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+"v1/messages",
		strings.NewReader(`{"model":"m","max_tokens":2000,"messages":[{"role":"user","content":"hi"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("anthropic-version", "2023-06-01")
	c := &http.Client{Transport: &http.Transport{Proxy: nil}, Timeout: 10 * time.Second}
	defer c.CloseIdleConnections()
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode
}

const twoOverloads = `name: two
description: Two 529s asking for half a second, then an answer.
models: {m: {context_window: 5000, max_output: 2000}}
script:
  - times: 2
    # each 529 answers once, however early the retry: the assertions, not
    # the mock's refusal window, are what these tests read
    respond: {status: 529, headers: {retry-after-ms: "500"}, early_retry: scripted}
expect:
  client: {outcome: success, attempts: "<= 2"}
`

func TestStartRefusesABadScenarioWithItsLine(t *testing.T) {
	r := &recorder{TB: t}
	msg := fatally(r, func() {
		mocktest.Start(r, "name: x\ndescription: d\nmodels: {m: {context_window: 10, max_output: 5}}\nscript: [{respond: {stauts: 500}}]\n")
	})
	want := `mocktest: TestStartRefusesABadScenarioWithItsLine (inline scenario):4:21: script[0].respond.stauts: unknown field "stauts"`
	if !strings.HasPrefix(msg, want) {
		t.Fatalf("Fatalf said %q, want it to start %q", msg, want)
	}
	if msg := fatally(r, func() { mocktest.StartFile(r, "testdata/none.yaml") }); !strings.Contains(msg, "testdata/none.yaml") {
		t.Errorf("a missing file: %q", msg)
	}
	if msg := fatally(r, func() { mocktest.New(r, nil) }); msg != "mocktest: New: nil scenario" {
		t.Errorf("a nil scenario: %q", msg)
	}
}

// A client that ignores the waits breaks the budget and the retry-after
// check, and each failure says what the journal holds.
func TestAssertionsFailWithTheJournal(t *testing.T) {
	r := &recorder{TB: t}
	mock := mocktest.Start(r, twoOverloads)
	for range 3 {
		post(t, mock.BaseURL())
	}
	mock.AssertExpect()
	mock.AssertHonoredRetryAfter()
	mock.AssertStatuses(529, 200)
	mock.AssertStatuses(529, 529)
	mock.AssertRequests(2)
	want := []string{
		"mocktest: two: attempts is 3, expected <= 2 (journal: 3 requests over ",
		"mocktest: two: request 2 came ",
		"mocktest: two: request 3 came ",
		"mocktest: two: statuses 529 529 200, expected 529 200",
		"mocktest: two: statuses 529 529 200, expected 529 529",
		"mocktest: two: 3 requests, expected 2 (journal: 3 requests over ",
	}
	if len(r.errors) != len(want) {
		t.Fatalf("%d failures, want %d: %q", len(r.errors), len(want), r.errors)
	}
	for i, w := range want {
		if !strings.HasPrefix(r.errors[i], w) {
			t.Errorf("failure %d: %q, want it to start %q", i, r.errors[i], w)
		}
	}
	if !strings.Contains(r.errors[1], "whose 529 asked to wait 500ms") || !strings.HasSuffix(r.errors[0], ": 529 529 200)") {
		t.Errorf("the failures do not say what happened: %q", r.errors)
	}
	if res := mock.Result(); res.Outcome != "success" || res.Attempts != 3 || res.Strategy != mocktest.Client {
		t.Errorf("Result: %+v", res)
	}
}

// A client pointed at the wrong path sends nothing the scenario sees: the
// failure names the path it used and the base URL it should have.
func TestAFailureNamesRequestsThatReachedNoScenario(t *testing.T) {
	r := &recorder{TB: t}
	mock := mocktest.Start(r, twoOverloads)
	post(t, mock.BaseURL()+"v1/")
	mock.AssertRequests(1)
	if len(r.errors) != 1 {
		t.Fatalf("failures: %q", r.errors)
	}
	want := "mocktest: two: 0 requests, expected 1 (no request reached the scenario; 1 reached no scenario: /two/v1/v1/messages got 404 (the base URL is " + mock.BaseURL() + "))"
	if r.errors[0] != want {
		t.Errorf("failure %q\nwant    %q", r.errors[0], want)
	}
}

func TestAssertExpectWantsABudget(t *testing.T) {
	r := &recorder{TB: t}
	mock := mocktest.Start(r, strings.Replace(twoOverloads, "expect:\n  client:", "expect:\n  classify:", 1))
	mock.AssertExpect()
	if len(r.errors) != 1 || !strings.Contains(r.errors[0], `the scenario has no expect block for "client"`) {
		t.Errorf("failures: %q", r.errors)
	}
}

// Sessions share the scenario and nothing else: each is scripted from its
// first request, concurrently, and journalled alone.
func TestSessionsAreApart(t *testing.T) {
	mock := mocktest.Start(t, twoOverloads)
	var wg sync.WaitGroup
	for _, name := range []string{"a", "b", "c"} {
		s := mock.Session(name)
		wg.Go(func() {
			for range 3 {
				post(t, s.BaseURL())
			}
		})
	}
	wg.Wait()
	for _, name := range []string{"a", "b", "c"} {
		s := mock.Session(name)
		if !strings.HasSuffix(s.BaseURL(), "/two/s/"+name+"/") {
			t.Errorf("session %s: base URL %s", name, s.BaseURL())
		}
		s.AssertStatuses(529, 529, 200)
	}
	mock.AssertRequests(0)
	if n := len(mock.Summary()); n != 3 {
		t.Errorf("%d sessions in the summary, want 3", n)
	}
	mock.Reset()
	if n := len(mock.Entries()); n != 0 {
		t.Errorf("%d entries after Reset", n)
	}
}

// fakeClock is a client's own clock: the test moves it.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
	return ctx.Err()
}

// On a clock of the client's own, waiting the 500 ms asked for takes no
// real time and honours the retry-after.
func TestWithClock(t *testing.T) {
	clk := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	mock := mocktest.Start(t, twoOverloads, mocktest.WithClock(clk))
	for range 3 {
		post(t, mock.BaseURL())
		_ = clk.Sleep(context.Background(), 500*time.Millisecond)
	}
	mock.AssertStatuses(529, 529, 200)
	mock.AssertHonoredRetryAfter()
	if got := mock.Requests()[2].TimeMS; got != 1000 {
		t.Errorf("the third request at %d ms on the clock, want 1000", got)
	}
}

func TestStartFileServesAScenarioFile(t *testing.T) {
	mock := mocktest.StartFile(t, "../../scenarios/flaky-5xx.yaml", mocktest.WithLimits(mockllm.DefaultLimits))
	if mock.Scenario().Name != "flaky-5xx" {
		t.Fatalf("scenario %q", mock.Scenario().Name)
	}
	post(t, mock.BaseURL())
	mock.AssertStatuses(404) // model "m" is not served
}

// A scenario added to a running mock is served beside the first, checked
// as Start checks one, refilled by Reset (an added scenario's quota once
// stayed spent) and gone at the test's end.
func TestAddDeclaresAScenarioOnTheSameMock(t *testing.T) {
	mock := mocktest.Start(t, twoOverloads)
	var quota *mocktest.Mock
	t.Run("added", func(t *testing.T) {
		quota = mock.Add(t, `name: quota
description: one request a minute
models: {m: {context_window: 5000, max_output: 2000, limits: {rpm: 1}}}
`)
		if post(t, quota.BaseURL()) != 200 || post(t, quota.BaseURL()) != 429 {
			t.Fatalf("want 200 then 429: %v", quota.Requests())
		}
		mock.Reset()
		quota.AssertStatuses() // the journal went with the reset
		if code := post(t, quota.BaseURL()); code != 200 {
			t.Fatalf("after Reset: %d, want the bucket refilled", code)
		}
		post(t, mock.BaseURL())
		mock.AssertStatuses(529)
	})
	if code := post(t, quota.BaseURL()); code != 404 {
		t.Fatalf("after its test: %d, want the added scenario gone", code)
	}
	r := &recorder{TB: t}
	if msg := fatally(r, func() { mock.Add(r, "name: two\ndescription: d\nmodels: {m: {context_window: 10, max_output: 5}}\n") }); !strings.Contains(msg, "made with it") {
		t.Errorf("a name served already: %q", msg)
	}
}
