package scenario_test

import (
	"math"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/scenario"
)

const costBase = `name: c
description: the cost fields
models:
  m: {context_window: 200000, max_output: 8000%s}
turn: {model: m, max_tokens: 100, answer_tokens: 10, messages: [{count: 1, tokens: 10}]}
script:
  - respond: {cache: miss}
expect:
  classify: {billed_usd: "<= 0.5", cache_hit_ratio: ">= 0.1", cache_read_tokens: ">= 0"}
`

func TestCostFieldsAndBudgets(t *testing.T) {
	sc, err := scenario.Parse("c.yaml", []byte(strings.Replace(costBase, "%s", `, cache: {min_tokens: 2048}, price: {input: 3, output: 15}`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	m := sc.Models["m"]
	if !m.Cache.On() || m.Cache.Min() != 2048 || m.Price.Resolved().CacheWrite1h != 6 || math.Abs(m.Price.Resolved().CacheRead-0.3) > 1e-12 {
		t.Fatalf("cache %+v price %+v", m.Cache, m.Price.Resolved())
	}
	_, err = scenario.Parse("c.yaml", []byte(strings.Replace(costBase, "%s", "", 1)))
	if err == nil || !strings.Contains(err.Error(), "billed_usd needs prices") || !strings.Contains(err.Error(), "cache_hit_ratio needs prices") {
		t.Fatalf("an unpriced scenario's billed_usd: %v", err)
	}
	if strings.Contains(err.Error(), "cache_read_tokens") {
		t.Fatalf("cache_read_tokens needs no price: %v", err)
	}
	_, err = scenario.Parse("c.yaml", []byte(strings.Replace(costBase, "%s", `, price: {input: -1}, cache: {enabled: false}`, 1)))
	if err == nil || !strings.Contains(err.Error(), "c.yaml:4:") || !strings.Contains(err.Error(), "price.input") {
		t.Fatalf("a negative price: %v", err)
	}
}
