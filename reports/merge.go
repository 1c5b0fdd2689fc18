package reports

import (
	"errors"
	"fmt"
	"slices"

	"github.com/faultbench/faultbench/ledger"
)

// Shard says where one shard's results sit in the whole scenario × strategy
// grid of a run (faultbench run --shard K/N). The grid is cut into Count
// contiguous slices, slice K holding positions (K-1)·Jobs/Count up to
// K·Jobs/Count (the cut harness.Shard makes); this is slice Index.
type Shard struct {
	Index int `json:"index"` // K of K/N, from 1
	Count int `json:"count"` // N
	First int `json:"first"` // position in the grid of the shard's first result, from 0
	Jobs  int `json:"jobs"`  // runs in the whole grid
}

// Part is one report to merge, as [ReadJSON] gave it back.
type Part struct {
	Name   string // where it came from, for errors: a file name
	Report ledger.Report
	Shard  *Shard // nil for a report that is not a shard
}

// Merge joins reports into one. Shards of one run are put back in grid
// order, whatever order they come in, and the result is the report an
// unsharded run writes, byte for byte once rendered: so every shard 1..N of
// the same run, seed and grid must be there, each once, and each must hold
// exactly its slice. Reports that are not shards are joined in the order
// given. Either way the seeds must agree and no scenario × strategy may
// appear twice; a mix of shards and whole reports is an error.
func Merge(parts []Part) (ledger.Report, error) {
	if len(parts) == 0 {
		return ledger.Report{}, errors.New("reports: merge: no reports")
	}
	sharded := 0
	for _, p := range parts {
		if p.Shard != nil {
			sharded++
		}
		if p.Report.Seed != parts[0].Report.Seed {
			return ledger.Report{}, fmt.Errorf("reports: merge: %s has seed %d, %s has seed %d: not one run",
				p.Name, p.Report.Seed, parts[0].Name, parts[0].Report.Seed)
		}
	}
	switch {
	case sharded == len(parts):
		if err := checkShards(parts); err != nil {
			return ledger.Report{}, err
		}
		parts = slices.Clone(parts)
		slices.SortFunc(parts, func(a, b Part) int { return a.Shard.Index - b.Shard.Index })
	case sharded > 0:
		return ledger.Report{}, errors.New("reports: merge: some reports are shards and some are not")
	}

	out := ledger.Report{Seed: parts[0].Report.Seed, Results: []ledger.Result{}}
	from := map[key]string{}
	for _, p := range parts {
		for _, r := range p.Report.Results {
			k := key{r.Scenario, r.Strategy}
			if other, dup := from[k]; dup {
				return ledger.Report{}, fmt.Errorf("reports: merge: %s on %s is in both %s and %s", r.Strategy, r.Scenario, other, p.Name)
			}
			from[k] = p.Name
			out.Results = append(out.Results, r)
		}
	}
	return out, nil
}

// checkShards checks that parts are the shards 1..N of one grid, each once
// and each with its whole slice.
func checkShards(parts []Part) error {
	first := parts[0].Shard
	byIndex := map[int]string{}
	for _, p := range parts {
		s := p.Shard
		if s.Count != first.Count || s.Jobs != first.Jobs {
			return fmt.Errorf("reports: merge: %s is shard %d/%d of %d runs, %s is shard %d/%d of %d runs: not one run",
				p.Name, s.Index, s.Count, s.Jobs, parts[0].Name, first.Index, first.Count, first.Jobs)
		}
		if s.Index < 1 || s.Index > s.Count {
			return fmt.Errorf("reports: merge: %s says it is shard %d/%d", p.Name, s.Index, s.Count)
		}
		if other, dup := byIndex[s.Index]; dup {
			return fmt.Errorf("reports: merge: %s and %s are both shard %d/%d", other, p.Name, s.Index, s.Count)
		}
		byIndex[s.Index] = p.Name
		lo, hi := (s.Index-1)*s.Jobs/s.Count, s.Index*s.Jobs/s.Count
		if s.First != lo || len(p.Report.Results) != hi-lo {
			return fmt.Errorf("reports: merge: %s holds %d results from position %d, but shard %d/%d of %d runs is %d from position %d",
				p.Name, len(p.Report.Results), s.First, s.Index, s.Count, s.Jobs, hi-lo, lo)
		}
	}
	var missing []int
	for k := 1; k <= first.Count; k++ {
		if _, ok := byIndex[k]; !ok {
			missing = append(missing, k)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("reports: merge: shards %v of %d missing", missing, first.Count)
	}
	return nil
}
