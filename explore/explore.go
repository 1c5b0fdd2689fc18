package explore

import (
	"context"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"

	"github.com/faultbench/faultbench/harness"
	"github.com/faultbench/faultbench/recovery"
)

// RunSeed is the seed every explored run uses: `faultbench run`'s
// default, so that the written scenario replays as it was found.
const RunSeed = 1

// Options shape a search. The zero values of Runs, Parallel and the
// bounds take the defaults their comments give.
type Options struct {
	// Strategy is explored.
	Strategy recovery.Strategy
	// Against is the reference of ObjectiveVersus and ObjectiveOutcome.
	Against *recovery.Strategy
	// Objective defaults to ObjectiveVersus with Against, else
	// ObjectiveViolation.
	Objective Objective
	// Runs is how many scripts to generate; 0 means 1,000.
	Runs int
	// Seed seeds the generator: script i is Generate(Seed, i, …).
	Seed uint64
	// Parallel is how many scripts run at once; 0 means GOMAXPROCS. The
	// result does not depend on it.
	Parallel int
	// Stop, when it closes, ends the search early: no further script
	// starts, those started finish, and the result covers the scripts
	// 0 … Ran−1 (so it is still the same for the same scripts).
	Stop <-chan struct{}
	// Progress, when set, is called after each script with the number
	// done and Runs; calls never overlap.
	Progress func(done, total int)
	// ShrinkBound bounds the candidates the shrinker tries; 0 means
	// DefaultShrinkBound.
	ShrinkBound int
	// HindsightBound bounds hindsight's search (regret); the zero value
	// means ExploreBound.
	HindsightBound Bound
}

// Found is a search's answer.
type Found struct {
	// Ran is how many scripts ran (Runs, unless Stop closed first);
	// Held is how many of them the objective held for.
	Ran, Held int
	// Mismatches is how many scripts were left out because a run's
	// record disagreed with the mock's journal (Case.Mismatch).
	Mismatches int
	// Worst is the worst case found, as generated; nil when the objective
	// held for none.
	Worst *Case
	// Shrunk is Worst shrunk, and Tried the candidates the shrinker ran.
	Shrunk *Case
	Tried  int
}

type explorer struct {
	opts Options
	name string // the scenarios' name, before the script's number
}

// Explore generates opts.Runs scripts, runs the strategy on each over one
// mock on loopback, and returns the worst by the objective, shrunk.
func Explore(ctx context.Context, opts Options) (Found, error) {
	if opts.Objective == "" {
		opts.Objective = ObjectiveViolation
		if opts.Against != nil {
			opts.Objective = ObjectiveVersus
		}
	}
	if opts.Objective.NeedsAgainst() && opts.Against == nil {
		return Found{}, fmt.Errorf("explore: objective %s needs a strategy to compare with", opts.Objective)
	}
	if opts.Runs <= 0 {
		opts.Runs = 1000
	}
	if opts.Parallel <= 0 {
		opts.Parallel = runtime.GOMAXPROCS(0)
	}
	if opts.HindsightBound == (Bound{}) {
		opts.HindsightBound = ExploreBound
	}
	x := &explorer{opts: opts, name: baseName(opts)}
	b, err := harness.NewBench(RunSeed)
	if err != nil {
		return Found{}, err
	}
	defer b.Close()

	f, err := x.search(ctx, b)
	if err != nil || f.Worst == nil {
		return f, err
	}
	shrunk, tried, err := x.shrink(ctx, b, *f.Worst)
	f.Shrunk, f.Tried = &shrunk, tried
	return f, err
}

// tally is what a search keeps of the scripts judged so far: the counts,
// the worst case that holds, and the error of the lowest script. Each is
// a function of the set of scripts, not of the order they finished in
// (worse is a total order), so that any number of workers agree; and
// memory does not grow with --runs.
type tally struct {
	mu       sync.Mutex
	found    Found
	err      error
	errIndex int
	done     int
}

// add counts one script judged, and tells progress (when set) under the
// tally's lock, so that its calls never overlap and done only grows.
func (t *tally) add(c Case, err error, progress func(done, total int), total int) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.done++
	if progress != nil {
		defer progress(t.done, total)
	}
	if err != nil {
		if t.err == nil || c.Index < t.errIndex {
			t.err, t.errIndex = err, c.Index
		}
		return
	}
	if c.Mismatch {
		t.found.Mismatches++
	}
	if !c.Holds {
		return
	}
	t.found.Held++
	if t.found.Worst == nil || worse(c, *t.found.Worst) {
		t.found.Worst = &c
	}
}

// search runs scripts 0 … Runs−1 (fewer when Stop closes) on Parallel
// workers and returns what the tally kept of them.
func (x *explorer) search(ctx context.Context, b *harness.Bench) (Found, error) {
	n := x.opts.Runs
	var t tally
	next := make(chan int)
	var wg sync.WaitGroup
	for range min(x.opts.Parallel, n) {
		wg.Go(func() {
			for i := range next {
				c, err := x.one(ctx, b, i)
				c.Index = i
				t.add(c, err, x.opts.Progress, n)
			}
		})
	}
	ran := 0
dispatch:
	for ; ran < n; ran++ {
		select { // a stop already given wins over a worker ready to take a script
		case <-x.opts.Stop:
			break dispatch
		case <-ctx.Done():
			break dispatch
		default:
		}
		select {
		case <-x.opts.Stop:
			break dispatch
		case <-ctx.Done():
			break dispatch
		case next <- ran:
		}
	}
	close(next)
	wg.Wait()
	t.found.Ran = ran
	if err := context.Cause(ctx); err != nil {
		return t.found, err
	}
	return t.found, t.err
}

// one generates, serves and judges script i.
func (x *explorer) one(ctx context.Context, b *harness.Bench, i int) (Case, error) {
	sc := Generate(x.opts.Seed, i, x.scenarioName(i))
	if err := sc.Validate(); err != nil {
		return Case{Index: i}, fmt.Errorf("explore: script %d: the generator made an invalid scenario: %w", i, err)
	}
	if err := b.Add(sc); err != nil {
		return Case{Index: i}, err
	}
	defer b.Remove(sc.Name)
	c, err := x.judge(ctx, b, sc, i)
	if err != nil {
		return c, fmt.Errorf("explore: script %d: %w", i, err)
	}
	return c, nil
}

// scenarioName is script i's name, which is also the written file's: the
// runs' jitter is drawn from it (harness.Run), so it never changes after
// generation.
func (x *explorer) scenarioName(i int) string { return fmt.Sprintf("%s-%d", x.name, i) }

var unsafeName = regexp.MustCompile(`[^a-z0-9._-]+`)

// baseName names a search's scenarios: the strategy, the objective and
// --against, and the seed, e.g. "explore-blind-versus-classify-s1".
func baseName(o Options) string {
	parts := []string{"explore", o.Strategy.Name, string(o.Objective)}
	if o.Objective.NeedsAgainst() {
		parts = append(parts, o.Against.Name)
	}
	name := strings.Join(parts, "-")
	name = strings.Trim(unsafeName.ReplaceAllString(strings.ToLower(name), "-"), "-._")
	if len(name) > 80 {
		name = name[:80]
	}
	return fmt.Sprintf("%s-s%d", name, o.Seed)
}
