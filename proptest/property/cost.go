package property

import (
	"fmt"
	"slices"
	"time"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// BilledWithinCachedFigures: every request is billed what its own cache
// figures allow (docs/cost.md): an answer of a priced model its input
// less what the cache read and wrote at the input price, the reads at the
// read price, the writes at a write price (the 5-minute or the 1-hour
// one), the output at the output price, to the nano-dollar; an error, or
// an answer of an unpriced model, nothing; and no answer reads and writes
// more than its input. A strategy cannot break it: a mock that reports
// its cache wrong, or a ledger that bills a read at the full price, can.
func BilledWithinCachedFigures(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	for _, a := range slices.Concat(r.AttemptsLog, r.RepairLog) {
		m := sc.Models[a.Model]
		if a.Status != 200 || m.Price == nil {
			if a.BilledUSD != 0 {
				return broken(s, fmt.Sprintf("attempt %d (status %d on %s) was billed $%g: only an answer of a priced model is billed",
					a.N, a.Status, a.Model, a.BilledUSD))
			}
			continue
		}
		reads, writes := a.CacheReadTokens, a.CacheWriteTokens
		if reads < 0 || writes < 0 || reads+writes > a.InputTokens {
			return broken(s, fmt.Sprintf("attempt %d read %d and wrote %d cached tokens of an input of %d", a.N, reads, writes, a.InputTokens))
		}
		p := m.Price.Resolved()
		base := float64(a.InputTokens-reads-writes)*p.Input + float64(a.OutputTokens)*p.Output + float64(reads)*p.CacheRead
		lo := (base + float64(writes)*min(p.CacheWrite5m, p.CacheWrite1h)) / 1e6
		hi := (base + float64(writes)*max(p.CacheWrite5m, p.CacheWrite1h)) / 1e6
		if a.BilledUSD < lo-1e-9 || a.BilledUSD > hi+1e-9 {
			return broken(s, fmt.Sprintf("attempt %d was billed $%.9f; its %d input tokens (%d read from the cache, %d written) and %d output tokens cost $%.9f to $%.9f",
				a.N, a.BilledUSD, a.InputTokens, reads, writes, a.OutputTokens, lo, hi))
		}
	}
	return nil
}

// CacheFollowsItsLifetime: on a model whose scenario declares a cache, a
// request reads from it only if an answered request on that model came
// back within the cache's lifetime before it was sent (a read or a write
// renews it). A turn's request that repeats or extends (same model, as
// much input or more, no compaction between) its last answered request,
// which read or wrote the cache, reads from it when sent within the
// lifetime of that one, unless the script forces misses
// (respond.cache: miss); sent past it, with no answer on the model
// between, it reads nothing and writes again. The lifetime is the
// strategy's prompt_cache ttl on the Anthropic wire (5 minutes unless it
// asks for an hour), 5 minutes on OpenAI's. A strategy cannot break it; a
// mock that keeps a prefix too long, or forgets it, can.
func CacheFollowsItsLifetime(sc *scenario.Scenario, s recovery.Strategy, r ledger.Result) error {
	life := 5 * time.Minute
	wire := sc.Turn.Wire
	anthropic := wire == "" || wire == scenario.WireAnthropic
	if anthropic && s.PromptCache.TTL == recovery.CacheTTL1h {
		life = time.Hour
	}
	lifeMS := life.Milliseconds()
	forcedMiss := slices.ContainsFunc(sc.Script, func(ru scenario.Rule) bool { return ru.Respond.Cache == scenario.CacheMiss })
	sent := func(a ledger.Attempt) int64 { return a.AtMS - a.DurationMS }
	all := slices.Concat(r.AttemptsLog, r.RepairLog)
	slices.SortStableFunc(all, func(a, b ledger.Attempt) int { return int(sent(a) - sent(b)) })
	answeredBetween := func(model string, from, to int64) bool {
		return slices.ContainsFunc(all, func(c ledger.Attempt) bool {
			return c.Status == 200 && c.Model == model && sent(c) > from && sent(c) < to
		})
	}
	for i, a := range all {
		if a.Status != 200 || !sc.Models[a.Model].Cache.On() {
			continue
		}
		if a.CacheReadTokens > 0 && !slices.ContainsFunc(all[:i], func(b ledger.Attempt) bool {
			return b.Status == 200 && b.Model == a.Model && sent(a)-b.AtMS <= lifeMS+1
		}) {
			return broken(s, fmt.Sprintf("attempt %d read %d tokens from %s's cache, though no answer on %s came back in the %v before it was sent",
				a.N, a.CacheReadTokens, a.Model, a.Model, life))
		}
	}
	last := map[int]ledger.Attempt{} // turn → its last answered attempt
	for _, a := range r.AttemptsLog {
		if a.Status != 200 {
			continue
		}
		b, ok := last[a.Turn]
		last[a.Turn] = a
		if !ok || b.Model != a.Model || a.InputTokens < b.InputTokens || !sc.Models[a.Model].Cache.On() ||
			b.CacheReadTokens+b.CacheWriteTokens == 0 ||
			slices.ContainsFunc(r.RepairLog, func(c ledger.Attempt) bool { return sent(c) >= sent(b) && sent(c) <= sent(a) }) {
			continue
		}
		age := sent(a) - sent(b)
		switch {
		case age < lifeMS && !forcedMiss && a.CacheReadTokens == 0:
			return broken(s, fmt.Sprintf("attempt %d repeated or extended attempt %d's request %d ms after it, within the cache's %v lifetime, and read nothing from the cache",
				a.N, b.N, age, life))
		case age > lifeMS+1 && anthropic && a.CacheWriteTokens == 0 && !answeredBetween(a.Model, sent(b), sent(a)):
			return broken(s, fmt.Sprintf("attempt %d repeated or extended attempt %d's request %d ms after it, past the cache's %v lifetime, and wrote nothing to the cache",
				a.N, b.N, age, life))
		}
	}
	return nil
}
