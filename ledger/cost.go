package ledger

import "math"

// Price is what a model's tokens cost, in dollars per million tokens
// (docs/cost.md): input neither read from the prompt cache nor written to
// it, output, a cache write of each lifetime, and a cache read. The
// harness fills it from the scenario's models.<name>.price, cache prices
// resolved.
type Price struct {
	Input, Output, CacheWrite5m, CacheWrite1h, CacheRead float64
}

// Prices is a price per model name; a model it does not list bills
// nothing.
type Prices map[string]Price

// Usage is what an answer's usage says the provider billed of its input:
// the tokens read from the cache and those written to it, by lifetime.
// The rest of the request's counted input is billed at the input price.
type Usage struct {
	CacheRead, CacheWrite5m, CacheWrite1h int
}

// Bill is what one answered request costs under p: its counted input
// less what the cache read and wrote at the input price, the writes and
// reads at theirs, and its output, rounded to the nano-dollar so that
// sums print the same everywhere. A request whose cache figures exceed
// its input (an API that counts otherwise) bills no negative input.
func (p Price) Bill(input, output int, u Usage) float64 {
	plain := max(input-u.CacheRead-u.CacheWrite5m-u.CacheWrite1h, 0)
	usd := (float64(plain)*p.Input + float64(output)*p.Output + float64(u.CacheWrite5m)*p.CacheWrite5m +
		float64(u.CacheWrite1h)*p.CacheWrite1h + float64(u.CacheRead)*p.CacheRead) / 1e6
	return roundUSD(usd)
}

// roundUSD rounds dollars to the nano-dollar.
func roundUSD(usd float64) float64 { return math.Round(usd*1e9) / 1e9 }

// Cost is a result's billed figures (docs/reports.md): the cache's tokens
// and, when the run's models have prices, the dollars billed and the
// share of the answered requests' input read from the cache.
type Cost struct {
	CacheReadTokens  int `json:"cache_read_tokens"`
	CacheWriteTokens int `json:"cache_write_tokens"`
	// BilledInputTokens is the counted input of the requests that got an
	// answer (only those are billed).
	BilledInputTokens int     `json:"billed_input_tokens"`
	BilledUSD         float64 `json:"billed_usd"`
	// CacheHitRatio is CacheReadTokens over BilledInputTokens, 0 when
	// nothing was billed.
	CacheHitRatio float64 `json:"cache_hit_ratio"`
}

// add counts one attempt in c.
func (c *Cost) add(a Attempt) {
	c.CacheReadTokens += a.CacheReadTokens
	c.CacheWriteTokens += a.CacheWriteTokens
	if a.billed() {
		c.BilledInputTokens += a.InputTokens
	}
	c.BilledUSD = roundUSD(c.BilledUSD + a.BilledUSD)
	c.ratio()
}

func (c *Cost) ratio() {
	c.CacheHitRatio = 0
	if c.BilledInputTokens > 0 {
		c.CacheHitRatio = math.Round(float64(c.CacheReadTokens)/float64(c.BilledInputTokens)*1e4) / 1e4
	}
}

// billed reports whether the attempt got an answer the provider bills:
// a 200, complete, cut at max_tokens, or broken after it began.
func (a Attempt) billed() bool { return a.Status == 200 }

// price fills an attempt's bill from its answer's usage.
func (r *Recorder) price(a *Attempt, u Usage) {
	a.CacheReadTokens, a.CacheWriteTokens = u.CacheRead, u.CacheWrite5m+u.CacheWrite1h
	if p, ok := r.prices[a.Model]; ok && a.billed() {
		a.BilledUSD = p.Bill(a.InputTokens, a.OutputTokens, u)
	}
}

// SetPrices has the recorder bill each answered request at its model's
// price; without it, a result carries no Cost unless the cache was used.
func (r *Recorder) SetPrices(p Prices) { r.prices = p }

// costOf sums a result's attempts and repair calls into its Cost: nil
// when the run is not priced and never touched a cache.
func costOf(priced bool, logs ...[]Attempt) *Cost {
	c := &Cost{}
	for _, log := range logs {
		for _, a := range log {
			c.add(a)
		}
	}
	if !priced && c.CacheReadTokens+c.CacheWriteTokens == 0 {
		return nil
	}
	return c
}
