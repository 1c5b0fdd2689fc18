package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/within"
)

func TestServePrintsBaseURLsServesAndPrintsTheJournalOnStop(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr bytes.Buffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, &stdout, &stderr, serveFlags{addr: "127.0.0.1:0"}, []string{"../../scenarios/auth-expired.yaml", "../../scenarios/truncated-answer.yaml"}, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve ended before it served: %v, stderr: %s", err, stderr.String())
	case <-time.After(within.Deadline):
		t.Fatalf("serve did not start within %v, stderr: %s", within.Deadline, stderr.String())
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], " http://"+addr+"/auth-expired/ ") || !strings.HasPrefix(lines[1], "truncated-answer") ||
		!strings.HasSuffix(lines[0], "  models: sonnet") {
		t.Fatalf("want one line per scenario with its base URL and models, got %q", lines)
	}

	transport := &http.Transport{Proxy: nil}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}
	body := `{"model":"sonnet","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}`
	for _, path := range []string{"/auth-expired/v1/messages", "/truncated-answer/v1/chat/completions"} {
		req, _ := http.NewRequest(http.MethodPost, "http://"+addr+path, strings.NewReader(body))
		req.Header.Set("X-Faultbench-Session", "me")
		req.Header.Set("X-Stainless-Retry-Count", "0")
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		_ = resp.Body.Close()
	}
	resp, err := client.Get("http://" + addr + "/_faultbench/journal")
	if err != nil {
		t.Fatal(err)
	}
	var journal []map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&journal); err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if len(journal) != 2 || journal[0]["status"] != float64(401) || journal[1]["wire"] != "openai" || journal[0]["retry_count"] != float64(0) {
		t.Fatalf("journal %v", journal)
	}

	cancel() // Ctrl-C
	if err := within.Recv(t, done, "serve to end"); err != nil {
		t.Fatal(err)
	}
	out := stdout.String()
	for _, want := range []string{"== journal ==", "| auth-expired ", "| me ", "| 401 ", "| truncated-answer", "| openai "} {
		if !strings.Contains(out, want) {
			t.Errorf("the journal table lacks %q:\n%s", want, out)
		}
	}
}

func TestServeRefusesABadAddressAsBadInput(t *testing.T) {
	code, _, errOut := run(t, "serve", "--addr", "no-port", "../../scenarios/auth-expired.yaml")
	if code != exitBadInput {
		t.Fatalf("exit %d, want %d; stderr: %s", code, exitBadInput, errOut)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	code, _, errOut = run(t, "serve", "--addr", ln.Addr().String(), "../../scenarios/auth-expired.yaml")
	if code != exitBadInput || !strings.Contains(errOut, "--addr") {
		t.Fatalf("a busy port: exit %d, stderr %s", code, errOut)
	}
	code, _, _ = run(t, "serve", "--addr", "127.0.0.1:0", "no-such-folder")
	if code != exitBadInput {
		t.Fatalf("a missing folder: exit %d", code)
	}
}

// serveFor starts serve with args until the test ends and returns its
// address, its stdout and an HTTP client.
func serveFor(t *testing.T, f serveFlags, args ...string) (addr string, stdout *bytes.Buffer, client *http.Client) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout = &bytes.Buffer{}
	var stderr bytes.Buffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() { done <- runServe(ctx, stdout, &stderr, f, args, ready) }()
	select {
	case addr = <-ready:
	case err := <-done:
		cancel()
		t.Fatalf("serve ended before it served: %v, stderr: %s", err, stderr.String())
	case <-time.After(within.Deadline):
		t.Fatalf("serve did not start within %v, stderr: %s", within.Deadline, stderr.String())
	}
	transport := &http.Transport{Proxy: nil}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		cancel()
		if err := within.Recv(t, done, "serve to end"); err != nil {
			t.Error(err)
		}
	})
	return addr, stdout, &http.Client{Transport: transport}
}

func postModel(t *testing.T, client *http.Client, url, model string) (int, string) {
	t.Helper()
	body := `{"model":"` + model + `","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}`
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	req.Header.Set("X-Faultbench-Session", "me")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(data)
}

func TestServeListsTheModelsServedAndAliasesAClientsModelName(t *testing.T) {
	const sc = "../../scenarios/overloaded-transient.yaml"
	addr, stdout, client := serveFor(t, serveFlags{addr: "127.0.0.1:0"}, sc)
	url := "http://" + addr + "/overloaded-transient/v1/messages"
	code, body := postModel(t, client, url, "claude-sonnet-4-5")
	if code != http.StatusNotFound || !strings.Contains(body, `"type":"not_found_error"`) || !strings.Contains(body, "The scenario serves: ") {
		t.Fatalf("unknown model: %d %s", code, body)
	}
	if !strings.Contains(stdout.String(), "  models: ") {
		t.Errorf("no models on the scenario's line: %s", stdout)
	}
	served := strings.TrimSpace(stdout.String()[strings.LastIndex(stdout.String(), "models: ")+len("models: "):])
	first := strings.Split(served, ", ")[0]

	addr, stdout, client = serveFor(t, serveFlags{addr: "127.0.0.1:0", aliases: []string{"any=" + first}}, sc)
	if !strings.Contains(stdout.String(), "; also any->"+first) {
		t.Errorf("the alias is not listed: %s", stdout)
	}
	url = "http://" + addr + "/overloaded-transient/v1/messages"
	for range 5 { // through the scripted faults to an answer
		if code, body = postModel(t, client, url, "claude-sonnet-4-5"); code == http.StatusOK {
			break
		}
		if code == http.StatusNotFound {
			t.Fatalf("aliased model still unknown: %s", body)
		}
	}
	if code != http.StatusOK {
		t.Fatalf("no answer for the aliased model: %d %s", code, body)
	}
	resp, err := client.Get("http://" + addr + "/_faultbench/journal")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var journal []map[string]any
	if err := json.NewDecoder(resp.Body).Decode(&journal); err != nil {
		t.Fatal(err)
	}
	if len(journal) == 0 || journal[0]["model"] != "claude-sonnet-4-5" {
		t.Errorf("the journal does not keep the model the client sent: %v", journal)
	}
}

func TestServeRefusesABadModelAlias(t *testing.T) {
	for _, alias := range []string{"nothing", "=primary", "any=", "any=no-such-model"} {
		code, _, errOut := run(t, "serve", "--addr", "127.0.0.1:0", "--model-alias", alias, "../../scenarios/auth-expired.yaml")
		if code != exitBadInput || !strings.Contains(errOut, "--model-alias") {
			t.Errorf("--model-alias %s: exit %d, stderr %s", alias, code, errOut)
		}
	}
}

func TestServeRefusesAnUnknownDefaultScenario(t *testing.T) {
	code, _, errOut := run(t, "serve", "--addr", "127.0.0.1:0", "--default-scenario", "nope", "../../scenarios/auth-expired.yaml")
	if code != exitBadInput || !strings.Contains(errOut, `--default-scenario "nope"`) {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}

func TestServeRefusesNegativeLimits(t *testing.T) {
	code, _, errOut := run(t, "serve", "--max-conns", "-1", "../../scenarios/auth-expired.yaml")
	if code != exitBadInput || !strings.Contains(errOut, "must not be negative") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
