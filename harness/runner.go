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
	// Seed seeds every run's random source (each run derives its own from
	// the seed and its name).
	Seed uint64
	// Parallel is how many runs go at once; 0 means GOMAXPROCS.
	Parallel int
}

// Run runs every scenario against every strategy over loopback HTTP and
// returns the results in a fixed order: scenarios as given, then
// strategies as given. A run that breaks the harness (its record disagrees
// with the journal, the mock cannot be reached) still has its result in the
// report; the errors come back joined.
func Run(ctx context.Context, scenarios []*scenario.Scenario, strategies []recovery.Strategy, opts Options) (ledger.Report, error) {
	report := ledger.Report{Seed: opts.Seed}
	if len(scenarios) == 0 || len(strategies) == 0 {
		report.Results = []ledger.Result{}
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
		MaxIdleConnsPerHost: parallel * 2,
		DisableCompression:  true,
	}
	defer transport.CloseIdleConnections()
	e := &env{mock: mock, ep: ep, client: &http.Client{Transport: transport}, seed: opts.Seed}

	var jobs []job
	for _, sc := range scenarios {
		req := Conversation(sc.Turn)
		for _, st := range strategies {
			jobs = append(jobs, job{sc: sc, strategy: st, request: req})
		}
	}
	results := make([]ledger.Result, len(jobs))
	errs := make([]error, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(parallel, len(jobs)) {
		wg.Go(func() {
			for i := range next {
				results[i], errs[i] = e.run(ctx, jobs[i])
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
