package strategyfile_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/recovery/strategyfile"
)

// An unknown key is repeated, in the message and in the field path, by at
// most 40 bytes: a shadow-style line in its place does not reach the log.
func TestAnUnknownKeyIsClippedInItsPath(t *testing.T) {
	key := "root:$6$" + strings.Repeat("Hh", 60) + ":19000:0:99999:7:::"
	for _, doc := range []string{"name: x\n" + key + ": 1\n", "name: x\nbackoff:\n  " + key + ": 1\n"} {
		_, err := strategyfile.Parse("x.yaml", []byte(doc))
		if err == nil || strings.Contains(err.Error(), key[:60]) {
			t.Errorf("%v", err)
		}
	}
}

// Every file here is refused, and the error says where and which field,
// in the words of the file.
func TestRefusesWithFieldAndLine(t *testing.T) {
	for _, c := range []struct{ name, data, want string }{
		{"NaN factor", "name: x\nbackoff: {factor: .nan}\n", "x.yaml:2:19: backoff.factor: must be a finite number, got NaN"},
		{"Inf ratio", "name: x\nbackoff: {jitter_ratio: .inf}\n", "backoff.jitter_ratio: must be a finite number, got +Inf"},
		{"huge escalation", "name: x\nescalation:\n  factor: 1e308\n", "x.yaml:3:11: escalation.factor: must be <= 100 (the ceiling on factors), got 1e+308"},
		{"a second document", "name: x\n---\nname: y\n", "x.yaml:2:1: a strategy file holds one YAML document; another begins here"},
		{"a Go type in the message", "name: x\nclassify: 3\n", "x.yaml:2:11: classify: want true or false, got 3"},
		{"a nested Go type", "name: x\nloop_guard: {window: true}\n", "loop_guard.window: want a whole number, got true"},
		{"a list for a string", "name: [a]\n", "x.yaml:1:7: name: want a string, got a list"},
		{"attempts", "name: x\nattempts: 1000000000\n", "x.yaml:2:11: attempts: must be <= 1000 (the ceiling), got 1000000000"},
		{"step_cap", "name: x\nstep_cap: 10001\n", "step_cap: must be <= 10000"},
		{"a long wait", "name: x\nwait_budget: 25h\n", "wait_budget: must be <= 24h0m0s (the ceiling on waits), got 25h0m0s"},
		{"a heartbeat of a nanosecond", "name: x\nheartbeat: 1ns\n", "x.yaml:2:12: heartbeat: must be 0 (none) or >= 1s (the floor on heartbeats), got 1ns"},
		{"a long heartbeat", "name: x\nheartbeat: 25h\n", "heartbeat: must be <= 24h0m0s"},
		{"an AIMD whose floor is above its ceiling", "name: x\nadaptive_limiter: {enabled: true, min_limit: 50, max_limit: 10}\n", "adaptive_limiter.min_limit: must be <= max_limit (10), got 50"},
		{"an AIMD that never cuts", "name: x\nadaptive_limiter: {enabled: true, backoff_ratio: 1}\n", "adaptive_limiter.backoff_ratio: must be below 1"},
		{"a newline in the name", "name: \"a\\nb\"\n", "x.yaml:1:7: name: \"a\\nb\" is not a valid name"},
		{"a lone space", "name: ' '\n", "is not a valid name"},
		{"a long name", "name: " + strings.Repeat("a", 200) + "\n", "name: name of 200 bytes is too long"},
		{"a preset's name", "name: classify\nattempts: 2\n", "x.yaml:1:7: name: \"classify\" is a preset's name, and this strategy differs from that preset"},
		{"a preset's name by its file", "attempts: 2\n", "x.yaml: name: the file has no name field"},
		{"a large file", "name: x\n" + strings.Repeat("# padding\n", 7000), "x.yaml: file too large: 70008 bytes, over the ceiling of 65536 bytes"},
		{"deep nesting", "name: x\nretry: " + strings.Repeat("[", 1000) + "\n", "x.yaml:2:"},
		{"a long bad value", "name: x\nbackoff: {jitter: " + strings.Repeat("secret", 100) + "}\n", `unknown jitter "secretsecretsecretsecretsecretsecretsecr"… (600 bytes)`},
	} {
		file := "x.yaml"
		if c.name == "a preset's name by its file" {
			file = "classify.yaml"
			c.want = "classify" + strings.TrimPrefix(c.want, "x")
		}
		_, err := strategyfile.Parse(file, []byte(c.data))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v\nwant %s", c.name, err, c.want)
		}
	}
}

// A file of 200 bad keys (the YAML ceiling is 256 a mapping) reports the
// first hundred problems, not 200 lines of log.
func TestAHostileFileReportsAtMostAHundredProblems(t *testing.T) {
	var b strings.Builder
	b.WriteString("name: x\n")
	for i := range 200 {
		fmt.Fprintf(&b, "bad_key_%d: 1\n", i)
	}
	_, err := strategyfile.Parse("x.yaml", []byte(b.String()))
	if err == nil {
		t.Fatal("a file of 200 unknown keys loads")
	}
	if n := strings.Count(err.Error(), "unknown field"); n == 0 || n > 100 {
		t.Errorf("%d problems reported, want 1 to 100", n)
	}
}
