package mockllm_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// The scenario most specs use: a roomy model, a small one, and answers of
// known sizes.
const (
	scName       = "sc"
	answerTokens = 50
	summaryToks  = 20
)

func newScenario(script ...scenario.Rule) *scenario.Scenario {
	return &scenario.Scenario{
		Name: scName,
		Models: map[string]scenario.Model{
			"sonnet": {ContextWindow: 200000, MaxOutput: 64000},
			"haiku":  {ContextWindow: 1000, MaxOutput: 500},
		},
		Turn:       scenario.Turn{Model: "sonnet", MaxTokens: 4096, AnswerTokens: answerTokens},
		Compaction: scenario.Compaction{SummaryTokens: summaryToks},
		Script:     script,
	}
}

// rule builds a script rule.
func rule(when scenario.When, respond scenario.Respond) scenario.Rule {
	return scenario.Rule{When: when, Respond: respond}
}

func status(code int) scenario.Respond { return scenario.Respond{Status: code} }

// scripted429 is a 429 whose early retries go to the script, for a test
// about something other than the wait it asks for.
var scripted429 = scenario.Respond{Status: 429, EarlyRetry: scenario.EarlyRetryScripted}

var ok = scenario.Respond{OK: true}

func secs(n int) scenario.Duration { return scenario.Duration(time.Duration(n) * time.Second) }

// ask is a request body: one user message of input tokens.
func ask(model string, maxTokens, input int) string {
	b, err := json.Marshal(map[string]any{
		"model":      model,
		"max_tokens": maxTokens,
		"messages":   []any{map[string]any{"role": "user", "content": tokens.Text(input)}},
	})
	Expect(err).NotTo(HaveOccurred())
	return string(b)
}

// call is one request to a handler: its session and purpose, and any
// other headers.
type call struct {
	path    string
	session string
	purpose string
	method  string
	header  http.Header
	length  int64 // a Content-Length to claim; 0 keeps the body's own
}

func to(session string) call {
	return call{path: "/" + scName + "/v1/messages", session: session}
}

func (c call) purposed(p string) call { c.purpose = p; return c }

func (c call) withLength(n int64) call { c.length = n; return c }

// send posts body to h and returns the recorded response.
func (c call) send(h http.Handler, body string) *httptest.ResponseRecorder {
	return c.sendReader(h, strings.NewReader(body))
}

func (c call) sendReader(h http.Handler, body io.Reader) *httptest.ResponseRecorder {
	method := c.method
	if method == "" {
		method = http.MethodPost
	}
	r := httptest.NewRequest(method, c.path, body)
	r.Header.Set("Content-Type", "application/json")
	if c.session != "" {
		r.Header.Set(mockllm.SessionHeader, c.session)
	}
	if c.purpose != "" {
		r.Header.Set(mockllm.PurposeHeader, c.purpose)
	}
	if c.length != 0 {
		r.ContentLength = c.length
	}
	for k, v := range c.header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

// envelope is the Anthropic error body.
type envelope struct {
	Type  string `json:"type"`
	Error struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
}

// message is the Anthropic Messages API answer.
type message struct {
	ID      string `json:"id"`
	Type    string `json:"type"`
	Role    string `json:"role"`
	Model   string `json:"model"`
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StopReason   string  `json:"stop_reason"`
	StopSequence *string `json:"stop_sequence"`
	Usage        struct {
		InputTokens  int `json:"input_tokens"`
		OutputTokens int `json:"output_tokens"`
	} `json:"usage"`
}

func errorOf(w *httptest.ResponseRecorder) envelope {
	var e envelope
	ExpectWithOffset(1, json.Unmarshal(w.Body.Bytes(), &e)).To(Succeed(), w.Body.String())
	ExpectWithOffset(1, e.Type).To(Equal("error"))
	return e
}

func messageOf(w *httptest.ResponseRecorder) message {
	ExpectWithOffset(1, w.Code).To(Equal(http.StatusOK), w.Body.String())
	var m message
	ExpectWithOffset(1, json.Unmarshal(w.Body.Bytes(), &m)).To(Succeed())
	return m
}

// statuses sends body n times and returns the statuses.
func statuses(h http.Handler, c call, body string, n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = c.send(h, body).Code
	}
	return out
}

// live serves h on a loopback port for one spec and returns its endpoint
// and a client of its own; both are closed after the spec.
func live(h http.Handler) (*mockllm.Endpoint, *http.Client) {
	ep, err := mockllm.Start(h, "127.0.0.1:0")
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	transport := &http.Transport{Proxy: nil}
	DeferCleanup(func() {
		Expect(ep.Close()).To(Succeed())
		transport.CloseIdleConnections()
	})
	return ep, &http.Client{Transport: transport}
}

// post sends body to url in a session and returns the response.
func post(ctx context.Context, client *http.Client, url, session, body string) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	req.Header.Set("Content-Type", "application/json")
	if session != "" {
		req.Header.Set(mockllm.SessionHeader, session)
	}
	return client.Do(req)
}

// readAll reads a response's body and closes it.
func readAll(resp *http.Response) ([]byte, error) {
	defer resp.Body.Close()
	return io.ReadAll(resp.Body)
}

// gate is a session clock for fault specs: a virtual clock whose hangs
// say when they begin, with an optional client deadline that a wait past
// fails, as the harness's does.
type gate struct {
	*clock.Virtual
	hung     chan struct{}
	deadline time.Time // zero: unknown
}

func newGate() *gate { return &gate{Virtual: clock.NewVirtual(), hung: make(chan struct{}, 1)} }

var _ mockllm.Waiter = (*gate)(nil)

func (g *gate) Wait(ctx context.Context, d time.Duration) error {
	if !g.deadline.IsZero() && (d < 0 || g.Now().Add(d).After(g.deadline)) {
		return errors.New("gate: the client's deadline passed")
	}
	if d < 0 {
		g.hung <- struct{}{}
		<-ctx.Done() // bounded: the request's context ends when the client gives up or the server closes
		return ctx.Err()
	}
	return g.Sleep(ctx, d)
}

func (g *gate) ClientDeadline() (time.Time, bool) { return g.deadline, !g.deadline.IsZero() }

// faulty is a scenario whose first request gets fault f and the rest a
// complete answer.
func faulty(f scenario.Fault) *scenario.Scenario {
	return newScenario(scenario.Rule{Times: 1, Respond: scenario.Respond{Fault: f}})
}
