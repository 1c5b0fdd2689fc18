package harness

import (
	"context"
	"net/http"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// cutAt counts the requests sent through it and ends the run's context
// as the n-th goes out (n > 0), or as its answer comes back (n < 0).
type cutAt struct {
	next   http.RoundTripper
	n      int64
	sent   atomic.Int64
	cancel context.CancelFunc
}

func (c *cutAt) RoundTrip(req *http.Request) (*http.Response, error) {
	k := c.sent.Add(1)
	if c.n > 0 && k == c.n {
		c.cancel()
	}
	resp, err := c.next.RoundTrip(req)
	if c.n < 0 && k == -c.n {
		c.cancel()
	}
	return resp, err
}

// The end of a run's context (Ctrl-C, --timeout) may come while a fleet's
// turns wait in the mock on each other's behalf. Wherever it comes — as
// any request of the fleets goes out or its answer comes back — the run
// stops without a panic, the runs it cut are marked cancelled, and every
// run it reports as finished is the run an uninterrupted Run gives.
func TestAFleetRunStopsCleanlyWhereverItsContextEnds(t *testing.T) {
	scs, err := scenario.Load("../scenarios/thundering-herd.yaml", "../scenarios/overload-storm.yaml")
	if err != nil {
		t.Fatal(err)
	}
	strategies := []recovery.Strategy{recovery.Blind(), recovery.ClassifyFleet()}
	prev := testTransport
	t.Cleanup(func() { testTransport = prev })

	run := func(n int64) (ledger.Report, int64) {
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		c := &cutAt{n: n, cancel: cancel}
		testTransport = func(rt http.RoundTripper) http.RoundTripper { c.next = rt; return c }
		rep, err := Run(ctx, scs, strategies, Options{Seed: 1, Parallel: 1})
		if err != nil && n == 0 {
			t.Fatalf("uninterrupted: %v", err)
		}
		return rep, c.sent.Load()
	}
	whole, total := run(0)
	if total < 100 {
		t.Fatalf("the fleets sent %d requests; want enough to cut at many points", total)
	}
	points := 0
	for n := int64(1); n <= total; n += max(1, total/30) {
		for _, at := range []int64{n, -n} {
			rep, _ := run(at)
			cut := 0
			for i, r := range rep.Results {
				if r.Outcome == ledger.OutcomeCancelled || r.Scenario == "" {
					cut++
					continue
				}
				if !reflect.DeepEqual(r, whole.Results[i]) {
					t.Fatalf("cut at request %d: %s × %s is reported finished but differs from the uninterrupted run", at, r.Scenario, r.Strategy)
				}
			}
			if cut == 0 {
				t.Fatalf("cut at request %d of %d: no run was marked cut", at, total)
			}
			points++
		}
	}
	t.Logf("%d requests, cut at %d points", total, points)
}
