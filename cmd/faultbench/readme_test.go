package main

// The README's sample output is written by this test. After a change to
// the sample's scenarios, the presets or the table rendering, rewrite it
// (and the SDK table, which internal/clientcheck writes) with:
//
//	go test ./cmd/faultbench/ ./internal/clientcheck/ -run 'Readme|DefaultSuite' -update

import (
	"flag"
	"testing"

	"github.com/faultbench/faultbench/internal/gendoc"
)

var update = flag.Bool("update", false, "rewrite the README's generated regions from what the code writes now")

// readmeUpdate is the command that rewrites the README's generated regions.
const readmeUpdate = "go test ./cmd/faultbench/ ./internal/clientcheck/ -run 'Readme|DefaultSuite' -update"

// TestReadmeSample runs the command the README shows above its sample —
// two scenarios, not the suite, to keep the test quick — and compares its
// output with the README's generated:sample region.
func TestReadmeSample(t *testing.T) {
	code, out, errOut := run(t, "run", "--strategies", "blind,classify",
		"../../scenarios/loop-repeat.yaml", "../../scenarios/overloaded-then-backup.yaml")
	if code != exitOK {
		t.Fatalf("exit %d, stderr: %s", code, errOut)
	}
	gendoc.Check(t, "../../README.md", "sample", "```\n"+out+"```\n", *update, readmeUpdate)
}

// TestReadmeFleetSample runs the command docs/fleets.md shows and compares
// its output with that page's generated:fleet-sample region.
func TestReadmeFleetSample(t *testing.T) {
	code, out, errOut := run(t, "run", "--strategies", "blind,classify,claude-code,classify-fleet", "../../scenarios/thundering-herd.yaml")
	if code != exitOK {
		t.Fatalf("exit %d, stderr: %s", code, errOut)
	}
	gendoc.Check(t, "../../docs/fleets.md", "fleet-sample", "```\n"+out+"```\n", *update, readmeUpdate)
}
