package main

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mockOnlyFile writes a scenario without a turn section (a script for a
// client of your own) into dir.
func mockOnlyFile(t *testing.T, dir string) string {
	t.Helper()
	path := filepath.Join(dir, "mock-only.yaml")
	const yaml = `name: mock-only
description: One 529, then a healthy server.
models: {primary: {context_window: 200000, max_output: 8000}}
script:
  - {when: {attempt: 1}, respond: {status: 529}}
`
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// A mock-only scenario is served like any other: the first request gets
// its 529, the next a complete answer.
func TestServeServesAMockOnlyScenario(t *testing.T) {
	path := mockOnlyFile(t, t.TempDir())
	if code, _, errOut := run(t, "validate", path); code != exitOK {
		t.Fatalf("validate: exit %d: %s", code, errOut)
	}
	addr, _, client := serveFor(t, serveFlags{addr: "127.0.0.1:0"}, path)
	url := "http://" + addr + "/mock-only/v1/messages"
	if code, body := postModel(t, client, url, "primary"); code != 529 {
		t.Fatalf("first request: %d %s, want the scripted 529", code, body)
	}
	if code, body := postModel(t, client, url, "primary"); code != http.StatusOK || !strings.Contains(body, `"output_tokens":100`) {
		t.Fatalf("second request: %d %s, want an answer cut at max_tokens 100", code, body)
	}
}

// run skips a mock-only scenario, naming it, and runs the rest; alone, it
// is a usage error that says what to do instead.
func TestRunSkipsAMockOnlyScenario(t *testing.T) {
	dir := t.TempDir()
	path := mockOnlyFile(t, dir)
	code, _, errOut := run(t, "run", "--strategies", "classify", path)
	if code != exitBadInput || !strings.Contains(errOut, path+": mock-only (no turn section): nothing to run; serve it") {
		t.Fatalf("alone: exit %d, stderr: %s", code, errOut)
	}
	data, err := os.ReadFile("../../scenarios/flaky-5xx.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "flaky-5xx.yaml"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := run(t, "run", "--strategies", "classify", "--format", "json", dir)
	if code != exitOK || !strings.Contains(errOut, "skipping 1 mock-only scenario(s) with no turn to run (serve them): "+path) {
		t.Fatalf("with another: exit %d, stderr: %s", code, errOut)
	}
	if !strings.Contains(out, `"scenario": "flaky-5xx"`) || strings.Contains(out, `"scenario": "mock-only"`) {
		t.Errorf("the report should hold flaky-5xx alone: %.400s", out)
	}
}
