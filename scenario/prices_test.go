package scenario_test

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/yamlfile"
	"github.com/faultbench/faultbench/scenario"
)

func TestPricesOverrideTheScenarios(t *testing.T) {
	sc, err := scenario.Parse("c.yaml", []byte(strings.Replace(costBase, "%s", `, price: {input: 3, output: 15}`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	other, err := scenario.Parse("o.yaml", []byte(strings.NewReplacer("name: c", "name: o", "models:\n  m:", "models:\n  n:",
		"model: m", "model: n", "expect:\n  classify: {billed_usd: \"<= 0.5\", cache_hit_ratio: \">= 0.1\", cache_read_tokens: \">= 0\"}", "").
		Replace(strings.Replace(costBase, "%s", "", 1))))
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.ParsePrices("p.yaml", []byte("# list prices\nm: {input: 1.25, output: 10, cache_read: 0.125}\nn:\n  input: 2\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Apply([]*scenario.Scenario{sc, other}); err != nil {
		t.Fatal(err)
	}
	if p := sc.Models["m"].Price; p == nil || *p != (scenario.Price{Input: 1.25, Output: 10, CacheRead: 0.125}) {
		t.Fatalf("the file's price replaces the scenario's: %+v", p)
	}
	if p := other.Models["n"].Price; p == nil || p.Resolved().CacheWrite5m != 2.5 {
		t.Fatalf("a model without a price gets the file's, its cache prices resolved from input: %+v", p)
	}
}

func TestPricesNameAnUnknownModelAtItsLine(t *testing.T) {
	sc, err := scenario.Parse("c.yaml", []byte(strings.Replace(costBase, "%s", `, price: {input: 3, output: 15}`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	f, err := scenario.ParsePrices("p.yaml", []byte("m: {input: 1}\nmm: {input: 2}\n"))
	if err != nil {
		t.Fatal(err)
	}
	err = f.Apply([]*scenario.Scenario{sc})
	want := `p.yaml:2:1: mm: no scenario of the run declares model "mm", so its price would apply to nothing; did you mean "m"? (the models: "m")`
	if err == nil || err.Error() != want {
		t.Fatalf("got %v\nwant %s", err, want)
	}
	if sc.Models["m"].Price.Input != 3 {
		t.Fatalf("an error changes nothing: %+v", sc.Models["m"].Price)
	}
}

func TestBadPricesSayWhereAndNeverQuoteTheFile(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"unknown key", "m: {input: 1, ouptut: 2}\n", `p.yaml:1:15: m.ouptut: unknown field "ouptut"; did you mean "output"?`},
		{"not a number", "m: {input: three}\n", `p.yaml:1:12: m.input: want a number, got string "three"`},
		{"negative", "m:\n  input: -1\n", "p.yaml:2:3: m.input: must be between 0 and 10000 dollars per million tokens, got -1"},
		{"above the ceiling", "m: {cache_read: 20000}\n", "p.yaml:1:5: m.cache_read: must be between 0 and 10000"},
		{"no price", "m:\n", "p.yaml:1:1: m: want the model's price, a mapping of input, output"},
		{"a list", "- m\n", "p.yaml:1:1: want a mapping from model names to prices"},
		{"empty", "# nothing\n", "p.yaml: no prices in file"},
		{"YAML", "m: {input: 1\n", "p.yaml:1:"},
		{"not text", "m: {input: 1}\x00secret\n", "p.yaml:1:14: not a YAML text file"},
	} {
		_, err := scenario.ParsePrices("p.yaml", []byte(c.data))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: got %v, want it to start %q", c.name, err, c.want)
		}
		if err != nil && strings.Contains(err.Error(), "secret") {
			t.Errorf("%s: the error quotes the file: %v", c.name, err)
		}
	}
	long := "m: {input: 1}\n# " + strings.Repeat("x", scenario.MaxPriceFileBytes) + "\n"
	if _, err := scenario.ParsePrices("p.yaml", []byte(long)); err == nil || !errors.Is(err, yamlfile.ErrTooLarge) ||
		!strings.Contains(err.Error(), "64 KiB") {
		t.Errorf("a file over the ceiling: %v", err)
	}
}

func TestLoadPricesReadsOnlyASmallRegularFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "prices.yaml")
	if err := os.WriteFile(path, []byte("m: {input: 3}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if f, err := scenario.LoadPrices(path); err != nil || f.Prices["m"].Input != 3 {
		t.Fatalf("%+v %v", f, err)
	}
	if _, err := scenario.LoadPrices(dir); err == nil || !strings.Contains(err.Error(), "a folder") {
		t.Errorf("a folder: %v", err)
	}
	if _, err := scenario.LoadPrices(filepath.Join(dir, "none.yaml")); err == nil || !strings.Contains(err.Error(), "cannot read") {
		t.Errorf("a missing file: %v", err)
	}
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, make([]byte, scenario.MaxPriceFileBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := scenario.LoadPrices(big); err == nil || !errors.Is(err, yamlfile.ErrTooLarge) {
		t.Errorf("a file over the ceiling: %v", err)
	}
}

// FuzzParsePrices checks that no input makes ParsePrices panic, that it
// returns a file or an error naming the file, never both, and that a
// price it accepts is within the ceiling.
func FuzzParsePrices(f *testing.F) {
	for _, s := range []string{"sonnet: {input: 3, output: 15}\n", "m: &p {input: 1}\nn: *p\n", "m: {<<: {input: 2}}\n",
		"m:\n  input: 3\n  cache_write_1h: .inf\n", "- m\n", "m: {input: 1}\n---\nn: {}\n", "\"\": {input: 1}\n"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		pf, err := scenario.ParsePrices("fuzz.yaml", data)
		if (pf == nil) == (err == nil) {
			t.Fatalf("file %+v and error %v", pf, err)
		}
		if err != nil {
			var e *scenario.Error
			if !errors.As(err, &e) || e.File != "fuzz.yaml" {
				t.Fatalf("error %q is no *scenario.Error naming the file", err)
			}
			return
		}
		for name, p := range pf.Prices {
			for _, x := range []float64{p.Input, p.Output, p.CacheWrite5m, p.CacheWrite1h, p.CacheRead} {
				if !(x >= 0 && x <= scenario.MaxPrice) {
					t.Fatalf("%q: price %v accepted", name, x)
				}
			}
		}
	})
}

// A price written with an exponent and no dot (1e308) is a number, as
// YAML 1.2 reads it, and is refused for its size, not its type; 1e3 is a
// price; a second YAML document is said to be in a prices file.
func TestPricesReadExponentsAsNumbersAndNameTheirFile(t *testing.T) {
	if _, err := scenario.ParsePrices("p.yaml", []byte("sonnet: {input: 1e308, output: 1}\n")); err == nil ||
		strings.Contains(err.Error(), "want a number") || !strings.Contains(err.Error(), "input") {
		t.Errorf("1e308: %v", err)
	}
	f, err := scenario.ParsePrices("p.yaml", []byte("sonnet: {input: 1e3, output: 2E-1}\n"))
	if err != nil || f.Prices["sonnet"].Input != 1000 || f.Prices["sonnet"].Output != 0.2 {
		t.Errorf("1e3, 2E-1: %v %+v", err, f)
	}
	if _, err := scenario.ParsePrices("p.yaml", []byte("sonnet: {input: \"1e3\", output: 1}\n")); err == nil || !strings.Contains(err.Error(), "want a number") {
		t.Errorf("a quoted number: %v", err)
	}
	_, err = scenario.ParsePrices("p.yaml", []byte("sonnet: {input: 1, output: 1}\n---\nhaiku: {input: 1, output: 1}\n"))
	if err == nil || !strings.Contains(err.Error(), "a prices file holds one YAML document") || strings.Contains(err.Error(), "scenario") {
		t.Errorf("two documents: %v", err)
	}
}
