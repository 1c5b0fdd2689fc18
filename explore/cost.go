package explore

import (
	"fmt"

	"github.com/faultbench/faultbench/ledger"
)

// FailurePenalty is what an outcome other than success adds to a Cost's
// Scalar: more than any run within the engine's bounds spends in attempts,
// seconds and thousands of tokens on a turn that succeeds, so that the
// scalar keeps the order's first key in almost every case.
const FailurePenalty = 100

// Cost is what a turn cost, in the declared order of docs/explore.md: the
// outcome first (a success is cheaper than anything that is not), then
// requests sent (turn attempts and repair calls), then virtual time spent
// waiting, then input tokens submitted (turn and repair).
type Cost struct {
	Success  bool
	Requests int
	WaitMS   int64
	Tokens   int
}

// CostOf is the cost of a run's result.
func CostOf(r ledger.Result) Cost {
	return Cost{
		Success:  r.Outcome == ledger.OutcomeSuccess,
		Requests: r.Attempts + r.RepairCalls,
		WaitMS:   r.WaitMS,
		Tokens:   r.SubmittedInputTokens + r.RepairInputTokens,
	}
}

// Compare orders two costs by the declared order: -1 when c is cheaper
// than d, 1 when dearer, 0 when equal.
func (c Cost) Compare(d Cost) int {
	switch {
	case c.Success != d.Success:
		if c.Success {
			return -1
		}
		return 1
	case c.Requests != d.Requests:
		return sign(c.Requests - d.Requests)
	case c.WaitMS != d.WaitMS:
		return sign(int(c.WaitMS - d.WaitMS))
	}
	return sign(c.Tokens - d.Tokens)
}

func sign(n int) int {
	switch {
	case n < 0:
		return -1
	case n > 0:
		return 1
	}
	return 0
}

// Scalar is the cost as one number, for the ratios (regret, versus):
// FailurePenalty when the outcome is not a success, plus one per request,
// one per second waited and one per thousand tokens submitted. Stopping
// at once on a turn that cannot succeed costs FailurePenalty, never 0, so
// every ratio is defined.
func (c Cost) Scalar() float64 {
	s := float64(c.Requests) + float64(c.WaitMS)/1000 + float64(c.Tokens)/1000
	if !c.Success {
		s += FailurePenalty
	}
	return s
}

// Ratio is c's scalar over d's: 2 means c cost twice what d did. When
// one of the two succeeded and the other did not, the failure's scalar
// counts as at least the success's plus FailurePenalty, so that the ratio
// keeps the order's first key: a failure is never cheaper than a success,
// however long the success waited (an hour's wait weighs 3,600 by the
// scalar; a failure, 100 plus what it spent).
func (c Cost) Ratio(d Cost) float64 {
	cs, ds := c.Scalar(), d.Scalar()
	switch {
	case !c.Success && d.Success:
		cs = max(cs, ds+FailurePenalty)
	case c.Success && !d.Success:
		ds = max(ds, cs+FailurePenalty)
	}
	return cs / ds
}

func (c Cost) String() string {
	out := "failed"
	if c.Success {
		out = "success"
	}
	return fmt.Sprintf("%s, %d requests, %s waited, %d tokens", out, c.Requests, seconds(c.WaitMS), c.Tokens)
}

// seconds writes milliseconds as a duration a person reads: "7.5s".
func seconds(ms int64) string {
	if ms%1000 == 0 {
		return fmt.Sprintf("%ds", ms/1000)
	}
	return fmt.Sprintf("%gs", float64(ms)/1000)
}
