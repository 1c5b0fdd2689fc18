package harness

import (
	"fmt"
	"strconv"
	"strings"
)

// Shard is one slice of the scenario × strategy grid, so that a CI matrix
// can spread a large suite over machines: the grid's runs, in the order an
// unsharded [Run] reports them, cut into Count contiguous slices whose sizes
// differ by at most one; Index (1-based) picks one. The zero Shard is the
// whole grid.
//
// Each run draws its random source from the seed and its own names, never
// from what ran before it, so a shard's results are byte for byte those the
// same runs have in an unsharded report, and the shards' results laid end to
// end in Index order are the unsharded results.
type Shard struct {
	Index int // 1..Count
	Count int
}

// ParseShard reads "K/N": the K-th of N shards, 1 <= K <= N.
func ParseShard(s string) (Shard, error) {
	k, n, ok := strings.Cut(strings.TrimSpace(s), "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want K/N, such as 2/4", s)
	}
	index, err1 := strconv.Atoi(strings.TrimSpace(k))
	count, err2 := strconv.Atoi(strings.TrimSpace(n))
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want K/N with whole numbers, such as 2/4", s)
	}
	sh := Shard{Index: index, Count: count}
	// Checked here, not by validate, which takes the zero Shard for the
	// whole grid: "0/0" is no shard.
	if count < 1 || index < 1 || index > count {
		return Shard{}, fmt.Errorf("shard %d/%d: want K/N with 1 <= K <= N", index, count)
	}
	return sh, nil
}

func (s Shard) validate() error {
	if s == (Shard{}) {
		return nil
	}
	if s.Count < 1 || s.Index < 1 || s.Index > s.Count {
		return fmt.Errorf("shard %d/%d: want K/N with 1 <= K <= N", s.Index, s.Count)
	}
	return nil
}

// IsWhole reports whether s is the whole grid: the zero Shard or 1/1.
func (s Shard) IsWhole() bool { return s == (Shard{}) || s == (Shard{1, 1}) }

// String writes s as "K/N", or "" for the zero Shard.
func (s Shard) String() string {
	if s == (Shard{}) {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Bounds is the slice of a grid of jobs runs that s holds: positions first
// up to, not including, end. The zero Shard holds them all.
func (s Shard) Bounds(jobs int) (first, end int) {
	if s == (Shard{}) {
		return 0, jobs
	}
	return (s.Index - 1) * jobs / s.Count, s.Index * jobs / s.Count
}
