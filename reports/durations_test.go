package reports

import (
	"bytes"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/ledger"
)

// setDurations sets every field of v whose JSON key ends in _ms to ms.
func setDurations(v reflect.Value, ms int64) {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			setDurations(v.Elem(), ms)
		}
	case reflect.Slice:
		for i := range v.Len() {
			setDurations(v.Index(i), ms)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			key, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
			if f := v.Field(i); strings.HasSuffix(key, "_ms") && f.CanSet() && f.CanInt() {
				f.SetInt(ms)
			} else if f.CanSet() {
				setDurations(f, ms)
			}
		}
	}
}

func forgedReport(ms int64) ledger.Report {
	a := ledger.Attempt{N: 1, Purpose: "turn", Model: "m", Status: 529, Kind: "overloaded"}
	r := ledger.Result{Scenario: "s", Strategy: "blind", Outcome: ledger.OutcomeFailed, Reason: "r", Attempts: 2,
		AttemptsLog: []ledger.Attempt{a, a}, RepairLog: []ledger.Attempt{a},
		Workload: &ledger.Workload{Turns: 2, Failed: 2, Attempts: 2, Status529: 2}}
	rep := ledger.Report{Seed: 1, Results: []ledger.Result{r, r}}
	rep.Results[1].Strategy = "classify"
	setDurations(reflect.ValueOf(&rep).Elem(), ms)
	return rep
}

// A JSON report handed back (merge, --baseline) with a negative duration
// is refused, the field named; the most negative int64 used to make
// formatWait recurse until the stack overflowed.
func TestReadJSONRefusesNegativeDurations(t *testing.T) {
	for _, ms := range []int64{-1, math.MinInt64} {
		var buf bytes.Buffer
		if err := JSON(&buf, forgedReport(ms)); err != nil {
			t.Fatal(err)
		}
		_, _, err := ReadJSON(&buf)
		if err == nil || !strings.Contains(err.Error(), "results[0].") || !strings.Contains(err.Error(), "negative") {
			t.Fatalf("a report with %d ms: %v", ms, err)
		}
	}
}

// Every format renders a report whose every duration is as large as an
// int64 holds, or as small as any format could be handed, without a panic.
func TestEveryFormatRendersExtremeDurations(t *testing.T) {
	for _, ms := range []int64{math.MaxInt64, math.MaxInt64 / 1000, math.MinInt64, -1} {
		rep := forgedReport(ms)
		for _, f := range Formats() {
			var buf bytes.Buffer
			if err := Write(&buf, f, rep, Options{Strategies: []string{"blind", "classify"}}); err != nil {
				t.Errorf("%s at %d ms: %v", f, ms, err)
			}
		}
	}
}

// A report of a run that stopped early says so in its JSON, and reads back
// as incomplete.
func TestAnIncompleteReportSaysSo(t *testing.T) {
	rep := forgedReport(5)
	rep.Stopped = &ledger.Stop{Cause: "interrupted", Finished: 2, Runs: 9}
	var buf bytes.Buffer
	if err := JSON(&buf, rep); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), `"complete": false,
  "stopped": {
    "cause": "interrupted",
    "finished": 2,
    "runs": 9
  },`) {
		t.Fatalf("the JSON does not say it is incomplete:\n%.300s", buf.String())
	}
	back, _, err := ReadJSON(&buf)
	if err != nil || back.Stopped == nil || *back.Stopped != *rep.Stopped {
		t.Fatalf("read back: %+v, %v", back.Stopped, err)
	}
	buf.Reset()
	if err := Baseline(&buf, rep, Options{}); err != nil {
		t.Fatal(err)
	}
	if back, _, err := ReadJSON(&buf); err != nil || back.Stopped == nil || *back.Stopped != *rep.Stopped {
		t.Fatalf("the baseline format read back: %+v, %v", back.Stopped, err)
	}
	buf.Reset()
	if err := JSON(&buf, forgedReport(5)); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "complete") {
		t.Fatal("a whole report carries a complete key")
	}
}
