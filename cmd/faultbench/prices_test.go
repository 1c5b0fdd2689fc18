package main

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// --prices overrides a scenario's prices: at twice the scenario's own,
// every dollar doubles, the cache's figures stay.
func TestRunPricesOverrideTheScenarios(t *testing.T) {
	const sc = "../../scenarios/cache-agent-history.yaml"
	billed := func(args ...string) (usd float64, read int) {
		t.Helper()
		code, out, errOut := run(t, append([]string{"run", "--format", "json", "--strategies", "claude-code"}, append(args, sc)...)...)
		if code != exitOK {
			t.Fatalf("exit %d: %s", code, errOut)
		}
		var rep struct {
			Results []struct {
				Cost struct {
					BilledUSD       float64 `json:"billed_usd"`
					CacheReadTokens int     `json:"cache_read_tokens"`
				} `json:"cost"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Results) != 1 {
			t.Fatalf("%v: %.300s", err, out)
		}
		return rep.Results[0].Cost.BilledUSD, rep.Results[0].Cost.CacheReadTokens
	}
	own, ownRead := billed()
	prices := filepath.Join(t.TempDir(), "prices.yaml")
	if err := os.WriteFile(prices, []byte("# Sonnet at twice its list price\nsonnet: {input: 6, output: 30}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	twice, read := billed("--prices", prices)
	if own <= 0 || math.Abs(twice-2*own) > 1e-8 || read != ownRead {
		t.Fatalf("billed $%v at the scenario's prices, $%v at twice them (cache read %d, then %d)", own, twice, ownRead, read)
	}
}

func TestRunPricesRefuseAnUnknownModelAndABadFile(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ data, want string }{
		{"sonnet: {input: 3}\nsonet: {input: 1}\n", `prices.yaml:2:1: sonet: no scenario of the run declares model "sonet"`},
		{"sonnet: {input: -3, output: fifteen}\n", "prices.yaml:1:10: sonnet.input: must be between 0 and 10000"},
	} {
		p := filepath.Join(dir, "prices.yaml")
		if err := os.WriteFile(p, []byte(c.data), 0o600); err != nil {
			t.Fatal(err)
		}
		code, out, errOut := run(t, "run", "--prices", p, "../../scenarios/cache-agent-history.yaml")
		if code != exitBadInput || !strings.Contains(errOut, "--prices: "+filepath.Join(dir, c.want)) || out != "" {
			t.Errorf("exit %d, stdout %d bytes: %s", code, len(out), errOut)
		}
	}
}
