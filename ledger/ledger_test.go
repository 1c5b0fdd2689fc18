package ledger_test

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
)

func attempt(req recovery.Request, resp *recovery.Response, err error, wait time.Duration, at time.Time) recovery.Event {
	f := recovery.DefaultClassifier(resp, err)
	return recovery.Event{Type: recovery.EventAttempt, Time: at, Request: &req, Response: resp, Failure: f, Err: err, WaitBefore: wait}
}

// record builds a result of two attempts (a 529, then an answer after a
// 2 s wait) and one repair call.
func record() ledger.Result {
	start := clock.Epoch
	rec := ledger.NewRecorder("sc", "classify", start, recovery.CountTokens)
	req := recovery.Request{Model: "m", MaxTokens: 100, System: "0123456789", Purpose: recovery.PurposeTurn}
	rec.Observe(attempt(req, nil, &recovery.APIError{StatusCode: 529, Type: "overloaded_error"}, 0, start))
	rec.Observe(recovery.Event{Type: recovery.EventWait, Wait: 2 * time.Second})
	repair := recovery.Request{Model: "m", MaxTokens: 50, System: "0123", Purpose: recovery.PurposeRepair}
	rec.Observe(recovery.Event{Type: recovery.EventRepair, Request: &repair, Response: &recovery.Response{Text: "sum", StopReason: "end_turn", OutputTokens: 1}, Time: start})
	rec.Observe(attempt(req, &recovery.Response{Text: "ok", StopReason: "end_turn", OutputTokens: 7}, nil, 2*time.Second, start.Add(2*time.Second)))
	rec.Observe(recovery.Event{Type: recovery.EventFallback})
	return rec.Finish(ledger.OutcomeSuccess, "", 1)
}

func TestRecorderTotals(t *testing.T) {
	r := record()
	if r.Attempts != 2 || r.RepairCalls != 1 || r.Fallbacks != 1 {
		t.Fatalf("attempts %d, repairs %d, fallbacks %d", r.Attempts, r.RepairCalls, r.Fallbacks)
	}
	if r.SubmittedInputTokens != 6 || r.RepairInputTokens != 1 || r.Exposure() != 7 {
		t.Fatalf("submitted %d, repair %d", r.SubmittedInputTokens, r.RepairInputTokens)
	}
	if r.WaitMS != 2000 || r.AttemptsLog[1].WaitBeforeMS != 2000 || r.AttemptsLog[1].AtMS != 2000 {
		t.Fatalf("wait %d, log %+v", r.WaitMS, r.AttemptsLog[1])
	}
	if r.AttemptsLog[0].Status != 529 || r.AttemptsLog[0].Kind != "overloaded" || r.AttemptsLog[1].Status != http.StatusOK {
		t.Fatalf("log %+v", r.AttemptsLog)
	}
	if r.OutputTokens != 8 {
		t.Fatalf("output %d", r.OutputTokens)
	}
}

func TestReconcile(t *testing.T) {
	r := record()
	journal := []ledger.Served{
		{N: 1, Purpose: "turn", Model: "m", MaxTokens: 100, InputTokens: 3, Status: 529},
		{N: 2, Purpose: "repair", Model: "m", MaxTokens: 50, InputTokens: 1, Status: 200},
		{N: 3, Purpose: "turn", Model: "m", MaxTokens: 100, InputTokens: 3, Status: 200},
	}
	if err := ledger.Reconcile(r, journal); err != nil {
		t.Fatalf("agreeing records: %v", err)
	}
	cases := map[string]func(j []ledger.Served) []ledger.Served{
		"a request the engine never recorded": func(j []ledger.Served) []ledger.Served { return append(j, j[2]) },
		"a missing request":                   func(j []ledger.Served) []ledger.Served { return j[:2] },
		"other input tokens":                  func(j []ledger.Served) []ledger.Served { j[0].InputTokens++; return j },
		"another model":                       func(j []ledger.Served) []ledger.Served { j[2].Model = "x"; return j },
		"another status":                      func(j []ledger.Served) []ledger.Served { j[0].Status = 500; return j },
		"another max_tokens on a repair":      func(j []ledger.Served) []ledger.Served { j[1].MaxTokens = 51; return j },
	}
	for name, mutate := range cases {
		t.Run(name, func(t *testing.T) {
			j := mutate(append([]ledger.Served(nil), journal...))
			if err := ledger.Reconcile(r, j); !errors.Is(err, ledger.ErrMismatch) {
				t.Fatalf("got %v, want ErrMismatch", err)
			}
		})
	}
}

// A total counted wrong is caught against the journal, not against the
// record's own log.
func TestReconcileChecksTotalsAgainstTheJournal(t *testing.T) {
	journal := []ledger.Served{
		{N: 1, Purpose: "turn", Model: "m", MaxTokens: 100, InputTokens: 3, Status: 529},
		{N: 2, Purpose: "repair", Model: "m", MaxTokens: 50, InputTokens: 1, Status: 200},
		{N: 3, Purpose: "turn", Model: "m", MaxTokens: 100, InputTokens: 3, Status: 200},
	}
	for name, mutate := range map[string]func(r *ledger.Result){
		"attempts":               func(r *ledger.Result) { r.Attempts++ },
		"repair calls":           func(r *ledger.Result) { r.RepairCalls-- },
		"submitted input tokens": func(r *ledger.Result) { r.SubmittedInputTokens += 3 },
		"repair input tokens":    func(r *ledger.Result) { r.RepairInputTokens = 0 },
	} {
		t.Run(name, func(t *testing.T) {
			r := record()
			mutate(&r)
			if err := ledger.Reconcile(r, journal); !errors.Is(err, ledger.ErrMismatch) {
				t.Fatalf("got %v, want ErrMismatch", err)
			}
		})
	}
}

func TestRecorderTimesTheRequestItWasToldWentOut(t *testing.T) {
	start := clock.Epoch
	rec := ledger.NewRecorder("sc", "classify", start, recovery.CountTokens)
	req := recovery.Request{Model: "m", MaxTokens: 100, Purpose: recovery.PurposeTurn}
	ok := &recovery.Response{Text: "ok", StopReason: "end_turn", OutputTokens: 7}
	rec.Sent(start.Add(2 * time.Second))
	rec.Observe(attempt(req, ok, nil, 0, start.Add(5*time.Second)))
	rec.Observe(attempt(req, ok, nil, 0, start.Add(6*time.Second))) // no Sent: no duration
	r := rec.Finish(ledger.OutcomeSuccess, "", 1)
	if got := []int64{r.AttemptsLog[0].AtMS, r.AttemptsLog[0].DurationMS, r.AttemptsLog[1].DurationMS}; got[0] != 5000 || got[1] != 3000 || got[2] != 0 {
		t.Fatalf("at_ms, duration_ms, duration_ms of the next: %v", got)
	}
}

// A policy's hold is the ledger's hold_ms, apart from the retries' wait.
func TestRecorderSumsHoldsApartFromWaits(t *testing.T) {
	rec := ledger.NewRecorder("sc", "classify-fleet", clock.Epoch, recovery.CountTokens)
	rec.Observe(recovery.Event{Type: recovery.EventHold, Wait: 1500 * time.Millisecond, Reason: "rate limiter: rpm"})
	rec.Observe(recovery.Event{Type: recovery.EventHold, Wait: 250 * time.Millisecond, Reason: "adaptive limiter: 4 in flight, limit 4"})
	rec.Observe(recovery.Event{Type: recovery.EventWait, Wait: time.Second})
	r := rec.Finish(ledger.OutcomeSuccess, "", 1)
	if r.HoldMS != 1750 || r.WaitMS != 1000 {
		t.Fatalf("hold %d ms, wait %d ms; want 1750 and 1000", r.HoldMS, r.WaitMS)
	}
}
