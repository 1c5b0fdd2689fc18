package reports

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A forged report is refused at its line and column, and the error quotes
// nothing of the file: a negative count, a negative number written as a
// float, an outcome that does not exist, a key twice (a second "results"
// at the end used to empty the report), a value of the wrong type.
func TestReadJSONRefusesForgedReportsWhereTheyAre(t *testing.T) {
	const result = `{"scenario": "s", "strategy": "blind", "outcome": "success", "attempts": 1, "submitted_input_tokens": 10}`
	for _, c := range []struct{ name, in, want string }{
		{"negative attempts", "{\"seed\": 1,\n\"results\": [\n" + strings.Replace(result, `"attempts": 1`, `"attempts": -5`, 1) + "\n]}",
			"3:74: not a faultbench JSON report: results[0].attempts: a negative number"},
		{"negative tokens as a float", "{\"seed\": 1,\n\"results\": [\n" + strings.Replace(result, `: 10`, `: -1e18`, 1) + "\n]}",
			"3:103: not a faultbench JSON report: results[0].submitted_input_tokens: a negative number"},
		{"unknown outcome", "{\"seed\": 1,\n\"results\": [\n" + strings.Replace(result, `"success"`, `"totally-unknown"`, 1) + "\n]}",
			"3:51: not a faultbench JSON report: results[0].outcome: not one of success, truncated, failed, aborted, cancelled"},
		{"results twice", "{\"seed\": 1,\n\"results\": [\n" + result + "\n],\n\"results\": []}",
			"5:1: not a faultbench JSON report: the key results twice in the report's object"},
		{"a key twice in a result", "{\"seed\": 1,\n\"results\": [\n" + strings.Replace(result, `"attempts": 1`, `"attempts": 1, "attempts": 0`, 1) + "\n]}",
			"3:77: not a faultbench JSON report: results[0]: the key attempts twice in one object"},
		{"a string for a count", "{\"seed\": 1,\n\"results\": [\n" + strings.Replace(result, `"attempts": 1`, `"attempts": "many"`, 1) + "\n]}",
			"3:80: not a faultbench JSON report: results[0].attempts: a string where a int belongs"},
		{"a float for a count", "{\"seed\": 1,\n\"results\": [\n" + strings.Replace(result, `"attempts": 1`, `"attempts": 1.5`, 1) + "\n]}",
			"results[0].attempts: a number where a int belongs"},
		{"a negative seed", "{\n  \"seed\": -1, \"results\": []}", "2:11: not a faultbench JSON report: seed: a negative number"},
	} {
		_, _, err := ReadJSON(strings.NewReader(c.in))
		var pe *PositionError
		if err == nil || !strings.Contains(err.Error(), c.want) || !errors.As(err, &pe) || !errors.Is(err, ErrNotReport) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
}

// No error quotes the file: a hostile key or value is named by its place.
func TestReadJSONErrorsQuoteNothingOfTheFile(t *testing.T) {
	const mark = "SECRET\u001b[31m"
	for _, in := range []string{
		`{"seed": 1, "results": [{"outcome": "` + mark + `"}]}`,
		`{"seed": 1, "results": [{"attempts": "` + mark + `"}]}`,
		`{"seed": 1, "results": [{"` + mark + `": 1, "` + mark + `": 2}]}`,
		`{"seed": 1, "results": [{"x": {"` + mark + `": -1}}]}`,
		`{"seed": 1, "results": [{"attempts": 12345678901234567890123}]}`,
		`{"seed": 1, "` + mark + `": 1, "` + mark + `": 2, "results": []}`,
		`{"seed": 1, "results": [` + mark + `]}`,
	} {
		_, _, err := ReadJSON(strings.NewReader(in))
		if err == nil || strings.Contains(err.Error(), "SECRET") || strings.Contains(err.Error(), "1234567890") {
			t.Errorf("%.60s: %v", in, err)
		}
	}
}

// A stopped context stops the reading, with its cause.
func TestReadJSONContextStopsWhenTold(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("told to stop")
	cancel(stop)
	in := `{"seed": 1, "results": [` + strings.Repeat(`{"scenario": "s", "strategy": "b", "outcome": "success"},`, 10) + `{"scenario": "s", "strategy": "b", "outcome": "success"}]}`
	if _, _, err := ReadJSONContext(ctx, strings.NewReader(in)); !errors.Is(err, stop) {
		t.Fatalf("got %v, want the context's cause", err)
	}
}

// FuzzReadJSON: ReadJSON never panics, and what it accepts holds only
// outcomes that exist and no negative figure (JSON, written back, has no
// "-" before a digit outside a string); what it refuses says where.
func FuzzReadJSON(f *testing.F) {
	f.Add(`{"seed": 1, "results": [{"scenario": "s", "strategy": "b", "outcome": "success", "attempts": 1}]}`)
	f.Add(`{"seed": 1, "results": [{"outcome": "failed", "attempts_log": [{"n": 1, "wait_before_ms": 5}]}], "verdicts": []}`)
	f.Add(`{"seed": 1, "complete": false, "stopped": {"cause": "interrupted", "finished": 1, "runs": 2}, "results": []}`)
	f.Add(`{"seed": 1, "results": [], "results": []}`)
	f.Fuzz(func(t *testing.T, in string) {
		rep, _, err := ReadJSON(strings.NewReader(in))
		if err != nil {
			var pe *PositionError
			if errors.Is(err, ErrNotReport) && !errors.As(err, &pe) {
				t.Fatalf("a refusal without its place: %v", err)
			}
			return
		}
		for _, r := range rep.Results {
			if !knownOutcome(r.Outcome) || r.Attempts < 0 || r.WaitMS < 0 || r.SubmittedInputTokens < 0 {
				t.Fatalf("accepted %+v", r)
			}
		}
	})
}
