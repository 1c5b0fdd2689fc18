package ledger

import (
	"errors"
	"net/http"
	"time"

	"github.com/faultbench/faultbench/recovery"
)

// Recorder builds a Result from the engine's events. Subscribe its Observe
// method with recovery.WithObserver; it is meant for one run and is not safe
// for concurrent use (the engine calls observers in order from one
// goroutine).
type Recorder struct {
	res   Result
	start time.Time
	count func(recovery.Request) int
	// sent is when the last request went out, if Sent said so.
	sent    time.Time
	hasSent bool
	prices  Prices // SetPrices (cost.go)
}

// Sent notes that a request went out at at (on the run's clock): the
// attempt or repair call recorded next took the time from at to its
// event, its DurationMS. A workload's harness calls it from its transport;
// without it an attempt's duration is left 0.
func (r *Recorder) Sent(at time.Time) {
	r.sent, r.hasSent = at, true
}

// NewRecorder starts the record of one scenario × strategy run that began at
// start (on the run's clock). count is the token rule used to figure each
// request's input tokens; the mock's journal must agree with it (Reconcile).
func NewRecorder(scenario, strategy string, start time.Time, count func(recovery.Request) int) *Recorder {
	return &Recorder{
		res:   Result{Scenario: scenario, Strategy: strategy, AttemptsLog: []Attempt{}, RepairLog: []Attempt{}},
		start: start,
		count: count,
	}
}

// Observe records one engine event.
func (r *Recorder) Observe(e recovery.Event) {
	switch e.Type {
	case recovery.EventAttempt, recovery.EventRepair:
		a := Attempt{
			Purpose:      string(e.Request.Purpose),
			Model:        e.Request.Model,
			MaxTokens:    e.Request.MaxTokens,
			InputTokens:  r.count(*e.Request),
			Status:       statusOf(e),
			Kind:         string(e.Failure.Kind),
			WaitBeforeMS: e.WaitBefore.Milliseconds(),
			AtMS:         e.Time.Sub(r.start).Milliseconds(),
		}
		var u Usage
		if e.Response != nil {
			a.OutputTokens = e.Response.OutputTokens
			u = Usage{CacheRead: e.Response.CacheReadTokens, CacheWrite5m: e.Response.CacheWrite5mTokens, CacheWrite1h: e.Response.CacheWrite1hTokens}
		}
		r.price(&a, u)
		if r.hasSent {
			a.DurationMS = max(e.Time.Sub(r.sent).Milliseconds(), 0)
			r.hasSent = false
		}
		if e.Type == recovery.EventAttempt {
			a.N = len(r.res.AttemptsLog) + 1
			r.res.AttemptsLog = append(r.res.AttemptsLog, a)
			r.res.Attempts++
			r.res.SubmittedInputTokens += a.InputTokens
		} else {
			a.N = len(r.res.RepairLog) + 1
			r.res.RepairLog = append(r.res.RepairLog, a)
			r.res.RepairCalls++
			r.res.RepairInputTokens += a.InputTokens
		}
		r.res.OutputTokens += a.OutputTokens
	case recovery.EventWait:
		r.res.WaitMS += e.Wait.Milliseconds()
	case recovery.EventHold:
		r.res.HoldMS += e.Wait.Milliseconds()
	case recovery.EventFallback:
		r.res.Fallbacks++
	case recovery.EventEscalate:
		r.res.Escalations++
	case recovery.EventAdjust:
		r.res.Adjustments++
	case recovery.EventCompact:
		r.res.Compactions++
	case recovery.EventLoopWarn:
		r.res.LoopWarnings++
	case recovery.EventLoopBreak, recovery.EventStepCap:
		r.res.LoopDetector = e.Detector
	}
}

// statusOf is the HTTP status an attempt got: 200 for an answer, the error
// status for an API error, the status of an answer whose body failed (an
// error with an HTTPStatus method, such as a malformed 200 or a stream cut
// after it began), 0 when no response came back.
func statusOf(e recovery.Event) int {
	if e.Response != nil {
		return http.StatusOK
	}
	var apiErr *recovery.APIError
	if errors.As(e.Err, &apiErr) {
		return apiErr.StatusCode
	}
	var withStatus interface{ HTTPStatus() int }
	if errors.As(e.Err, &withStatus) {
		return withStatus.HTTPStatus()
	}
	return 0
}

// Finish closes the record with the harness's judgement of the turn.
func (r *Recorder) Finish(outcome Outcome, reason string, steps int) Result {
	res := r.res
	res.Outcome = outcome
	res.Reason = reason
	res.Steps = steps
	res.Cost = costOf(len(r.prices) > 0, res.AttemptsLog, res.RepairLog)
	return res
}
