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
	}
	lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
	if len(lines) != 2 || !strings.HasSuffix(lines[0], "http://"+addr+"/auth-expired/") || !strings.HasPrefix(lines[1], "truncated-answer") {
		t.Fatalf("want one line per scenario with its base URL, got %q", lines)
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
	if err := <-done; err != nil {
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

func TestServeRefusesNegativeLimits(t *testing.T) {
	code, _, errOut := run(t, "serve", "--max-conns", "-1", "../../scenarios/auth-expired.yaml")
	if code != exitBadInput || !strings.Contains(errOut, "must not be negative") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
}
