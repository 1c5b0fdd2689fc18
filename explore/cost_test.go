package explore

import "testing"

// TestCostOrder pins the declared order: outcome, then requests, wait and
// tokens; and the scalar the ratios use.
func TestCostOrder(t *testing.T) {
	ok := func(req int, wait int64, tok int) Cost {
		return Cost{Success: true, Requests: req, WaitMS: wait, Tokens: tok}
	}
	failed := Cost{Requests: 1}
	for _, c := range []struct {
		a, b Cost
		want int
	}{
		{ok(9, 90000, 900000), failed, -1}, // any success is cheaper than a failure
		{failed, Cost{}, 1},                // giving up at once is the cheapest failure
		{ok(1, 90000, 900000), ok(2, 0, 0), -1},
		{ok(2, 1000, 900000), ok(2, 2000, 0), -1},
		{ok(2, 1000, 10), ok(2, 1000, 20), -1},
		{ok(2, 1000, 10), ok(2, 1000, 10), 0},
	} {
		if got := c.a.Compare(c.b); got != c.want {
			t.Errorf("%v vs %v: %d, want %d", c.a, c.b, got, c.want)
		}
		if got := c.b.Compare(c.a); got != -c.want {
			t.Errorf("%v vs %v: %d, want %d", c.b, c.a, got, -c.want)
		}
	}
	if got := ok(2, 1500, 3000).Scalar(); got != 6.5 {
		t.Errorf("scalar %v, want 2 + 1.5 + 3 = 6.5", got)
	}
	if got := (Cost{}).Scalar(); got != FailurePenalty {
		t.Errorf("giving up at once: scalar %v, want %d", got, FailurePenalty)
	}
}

// TestWorseRanksHoldingThenScoreThenLowerIndex: the search's order, which
// makes its answer the same at any parallelism.
func TestWorseRanksHoldingThenScoreThenLowerIndex(t *testing.T) {
	for _, c := range []struct {
		a, b Case
		want bool
	}{
		{Case{Index: 5, Holds: true, Score: 1}, Case{Index: 1, Score: 9}, true},
		{Case{Index: 5, Holds: true, Score: 3}, Case{Index: 1, Holds: true, Score: 2}, true},
		{Case{Index: 1, Holds: true, Score: 2}, Case{Index: 5, Holds: true, Score: 2}, true},
		{Case{Index: 5, Holds: true, Score: 2}, Case{Index: 1, Holds: true, Score: 2}, false},
	} {
		if got := worse(c.a, c.b); got != c.want {
			t.Errorf("worse(%+v, %+v) = %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

// TestRatioNeverRanksAFailureBelowASuccess: a success that waited an
// hour weighs 3,600 by the scalar, more than a failure's penalty; the
// ratio still puts the failure above it, by at least the penalty, and
// the success below the failure.
func TestRatioNeverRanksAFailureBelowASuccess(t *testing.T) {
	hour := Cost{Success: true, Requests: 2, WaitMS: 3_600_000}
	failed := Cost{Requests: 1, Tokens: 1000}
	if got, want := failed.Ratio(hour), (hour.Scalar()+FailurePenalty)/hour.Scalar(); got != want {
		t.Errorf("failure over an hour's success: %v, want %v", got, want)
	}
	if got := hour.Ratio(failed); got >= 1 {
		t.Errorf("an hour's success over a failure: %v, want below 1", got)
	}
	// Between two successes, or two failures, the scalars alone decide.
	quick := Cost{Success: true, Requests: 1}
	if got := hour.Ratio(quick); got != hour.Scalar()/quick.Scalar() {
		t.Errorf("two successes: %v", got)
	}
	if got := failed.Ratio(Cost{}); got != failed.Scalar()/FailurePenalty {
		t.Errorf("two failures: %v", got)
	}
	// A failure that spent more than the success plus the penalty keeps
	// its own scalar.
	dear := Cost{Requests: 9000}
	if got := dear.Ratio(quick); got != dear.Scalar()/quick.Scalar() {
		t.Errorf("a dear failure: %v", got)
	}
}
