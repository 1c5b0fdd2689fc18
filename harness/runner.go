package harness

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"sync"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// Options shape a Run.
type Options struct {
	// Seed seeds every run's random source: each turn of a run draws from
	// its own, derived from the seed, the scenario's name and the turn's
	// number, never the strategy's, so that every strategy meets the same
	// draws.
	Seed uint64
	// Parallel is how many runs go at once; 0 means GOMAXPROCS.
	Parallel int
	// Shard picks a slice of the scenario × strategy grid to run; the zero
	// Shard runs it all. See [Shard].
	Shard Shard
	// RunTokens bounds the input tokens each run submits and RunMessages
	// the messages it sends, both summed over its requests, and
	// RunRequests the requests it sends: a run that reaches any is
	// stopped, aborted, once its answer is in. 0 means DefaultRunTokens,
	// DefaultRunMessages, DefaultRunRequests.
	RunTokens, RunMessages, RunRequests int
	// Progress, when set, is called after each run finishes with the number
	// finished and the number this call runs. Calls never overlap; done
	// counts up to total.
	Progress func(done, total int)
}

// Run runs every scenario against every strategy over loopback HTTP and
// returns the results in a fixed order: scenarios as given, then
// strategies as given. With opts.Shard it runs only that slice of the
// grid, its results in the same order. A run that breaks the harness (its
// record disagrees with the journal, the mock cannot be reached) still has
// its result in the report; the errors come back joined.
func Run(ctx context.Context, scenarios []*scenario.Scenario, strategies []recovery.Strategy, opts Options) (ledger.Report, error) {
	report := ledger.Report{Seed: opts.Seed, Results: []ledger.Result{}}
	if err := opts.Shard.validate(); err != nil {
		return report, fmt.Errorf("harness: %w", err)
	}
	for _, sc := range scenarios {
		if sc.MockOnly() {
			return report, fmt.Errorf("harness: scenario %q is mock-only (it has no turn): there is nothing to run; serve it", sc.Name)
		}
	}
	jobs := grid(scenarios, strategies, opts.Shard)
	if len(jobs) == 0 {
		return report, nil
	}
	parallel := opts.Parallel
	if parallel <= 0 {
		parallel = runtime.GOMAXPROCS(0)
	}

	mock := mockllm.New(scenarios, clock.NewVirtual())
	ep, err := mockllm.Start(mock, "127.0.0.1:0")
	if err != nil {
		return report, fmt.Errorf("harness: start mock: %w", err)
	}
	defer ep.Close()
	transport := &http.Transport{
		Proxy:               nil, // loopback only, whatever the environment says
		MaxIdleConnsPerHost: parallel * idlePerRun(jobs),
		DisableCompression:  true,
		// A long agent turn resends hundreds of kilobytes at each step:
		// the default 4 KB buffer would write them in as many syscalls.
		WriteBufferSize: 64 << 10,
	}
	defer transport.CloseIdleConnections()
	e := &env{mock: mock, ep: ep, client: &http.Client{Transport: testTransport(transport)}, seed: opts.Seed, runTokens: opts.RunTokens, runMessages: opts.RunMessages, runRequests: opts.RunRequests}
	if e.runTokens <= 0 {
		e.runTokens = DefaultRunTokens
	}
	if e.runMessages <= 0 {
		e.runMessages = DefaultRunMessages
	}
	if e.runRequests <= 0 {
		e.runRequests = DefaultRunRequests
	}

	results := make([]ledger.Result, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	var mu sync.Mutex // serialises opts.Progress
	done := 0
	for range min(parallel, len(jobs)) {
		wg.Go(func() {
			for i := range next {
				results[i], errs[i] = e.run(ctx, jobs[i])
				if opts.Progress != nil {
					mu.Lock()
					done++
					opts.Progress(done, len(jobs))
					mu.Unlock()
				}
			}
		})
	}
	for i := range jobs {
		next <- i
	}
	close(next)
	wg.Wait()
	report.Results = results
	return report, errors.Join(errs...)
}

// testTransport wraps the transport every run sends through: a test's
// seam to end a run's context at a chosen request.
var testTransport = func(rt http.RoundTripper) http.RoundTripper { return rt }

// idlePerRun is how many kept-alive connections one run may leave idle:
// two for a lone turn, and for a workload as many as it has requests in
// flight (its concurrency). A fleet's answers are in flight on the virtual
// clock while other turns send, each on its own connection: with fewer
// idle connections kept, most requests of a long fleet would dial a new
// one, on both sides of the loopback. The peak of connections open is the
// same either way (the requests in flight); only their reuse changes.
func idlePerRun(jobs []job) int {
	n := 2
	for _, j := range jobs {
		n = max(n, j.sc.Workload.Concurrency)
	}
	return n
}

// grid lists the shard's slice of the scenario × strategy runs, scenarios
// outer, strategies inner. A run builds its conversation when it starts
// (run.go), so the grid holds no conversation, only a pointer to each
// job's scenario and strategy.
func grid(scenarios []*scenario.Scenario, strategies []recovery.Strategy, shard Shard) []job {
	first, end := shard.Bounds(len(scenarios) * len(strategies))
	jobs := make([]job, 0, end-first)
	for i := first; i < end; i++ {
		jobs = append(jobs, job{sc: scenarios[i/len(strategies)], strategy: &strategies[i%len(strategies)]})
	}
	return jobs
}
