package mocktest

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/grade"
	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// Client is the key of a scenario's expect block that holds your client's
// budget: expect: {client: {outcome: success, attempts: "<= 3"}}, as
// `faultbench grade` reads it.
const Client = grade.Strategy

// Result reads the session's journal as `faultbench grade` does, in the
// shape of a strategy's result: the outcome (success when the last
// request got a complete answer, truncated when it was cut at
// max_tokens, else failed), attempts and repair calls, the wait before
// each attempt that followed a failure, the input submitted, fallbacks
// (each change of model) and an attempt log.
func (m *Mock) Result() ledger.Result {
	return grade.Ledger(grade.Run{Scenario: m.scenario, Entries: m.Requests()})
}

// Violations are the budgets of the scenario's expect block for Client
// that the session's journal breaks; none when the block holds, or when
// there is no such block.
func (m *Mock) Violations() []harness.Violation {
	vs, err := harness.Check([]*scenario.Scenario{m.scenario}, []ledger.Result{m.Result()})
	if err != nil { // a parsed scenario's budgets always parse
		m.t.Fatalf("mocktest: %v", err)
	}
	return vs
}

// AssertExpect fails the test for each budget of the scenario's expect
// block for Client that the session's journal breaks, and when the
// scenario has no such block (there would be nothing to hold it to).
func (m *Mock) AssertExpect() {
	m.t.Helper()
	if _, ok := m.scenario.Expect[Client]; !ok {
		m.t.Errorf("mocktest: %s: the scenario has no expect block for %q: nothing to hold the journal to", m.scenario.Name, Client)
		return
	}
	for _, v := range m.Violations() {
		m.t.Errorf("mocktest: %s: %s is %s, expected %s (%s)", m.scenario.Name, v.Field, v.Got, v.Budget, m.journal())
	}
}

// AssertRequests fails the test unless the session sent exactly n model
// requests.
func (m *Mock) AssertRequests(n int) {
	m.t.Helper()
	if got := len(m.Requests()); got != n {
		m.t.Errorf("mocktest: %s: %d requests, expected %d (%s)", m.scenario.Name, got, n, m.journal())
	}
}

// AssertStatuses fails the test unless the session's requests got these
// HTTP statuses, in order; 0 is a request that got no status (a reset, a
// hang, garbage, or a delay past the client's deadline).
func (m *Mock) AssertStatuses(want ...int) {
	m.t.Helper()
	reqs := m.Requests()
	same := len(reqs) == len(want)
	for i := 0; same && i < len(want); i++ {
		same = reqs[i].Status == want[i]
	}
	if !same {
		w := make([]string, len(want))
		for i, s := range want {
			w[i] = strconv.Itoa(s)
		}
		m.t.Errorf("mocktest: %s: statuses %s, expected %s", m.scenario.Name, statuses(reqs), strings.Join(w, " "))
	}
}

// AssertHonoredRetryAfter fails the test for each request that came
// sooner than the answer before it asked (retry-after, retry-after-ms).
func (m *Mock) AssertHonoredRetryAfter() {
	m.t.Helper()
	reqs := m.Requests()
	for i, e := range reqs {
		if e.HonoredRetryAfter == nil || *e.HonoredRetryAfter || i == 0 || reqs[i-1].RetryAfterMS == nil {
			continue
		}
		m.t.Errorf("mocktest: %s: request %d came %dms after request %d, whose %d asked to wait %dms (%s)",
			m.scenario.Name, e.N, e.GapMS, reqs[i-1].N, reqs[i-1].Status, *reqs[i-1].RetryAfterMS, m.journal())
	}
}

// journal says in a line what the session saw, and what reached no
// scenario (a client pointed at a wrong path).
func (m *Mock) journal() string {
	reqs := m.Requests()
	var s string
	switch len(reqs) {
	case 0:
		s = "no request reached the scenario"
	case 1:
		s = "journal: 1 request: " + statuses(reqs)
	default:
		s = fmt.Sprintf("journal: %d requests over %dms: %s", len(reqs), reqs[len(reqs)-1].TimeMS, statuses(reqs))
	}
	var strays []string
	for _, e := range m.server.Journal() {
		if e.Route != "" && (e.Status != 200 || !strings.HasSuffix(e.Route, "/count_tokens")) {
			strays = append(strays, fmt.Sprintf("%s got %d", e.Route, e.Status))
		}
	}
	if len(strays) > 0 {
		s += fmt.Sprintf("; %d reached no scenario: %s (the base URL is %s)", len(strays), strings.Join(strays[:min(len(strays), 3)], ", "), m.BaseURL())
	}
	return s
}

// statuses lists what each request got: its status, or its kind when no
// status came.
func statuses(reqs []mockllm.Entry) string {
	if len(reqs) == 0 {
		return "none"
	}
	out := make([]string, len(reqs))
	for i, e := range reqs {
		if e.Status == 0 {
			out[i] = e.Kind
		} else {
			out[i] = strconv.Itoa(e.Status)
		}
	}
	return strings.Join(out, " ")
}
