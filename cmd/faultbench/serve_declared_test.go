package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/within"
	"github.com/faultbench/faultbench/mockllm"
)

func TestServeEmptyTakesAScenarioDeclaredOverTheAdminRoute(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr bytes.Buffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, &stdout, &stderr, serveFlags{addr: "127.0.0.1:0", empty: true}, nil, ready)
	}()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve ended before it served: %v, stderr: %s", err, stderr.String())
	case <-time.After(within.Deadline):
		t.Fatalf("serve did not start within %v", within.Deadline)
	}
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "0 scenarios on http://"+addr+" ") ||
		!strings.Contains(stderr.String(), "add a scenario: POST http://"+addr+mockllm.ScenariosPath) {
		t.Fatalf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
	transport := &http.Transport{Proxy: nil}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport}
	post := func(url, body string) (int, []byte) {
		t.Helper()
		resp, err := client.Post(url, "application/yaml", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, b
	}
	code, b := post("http://"+addr+mockllm.ScenariosPath, "name: inline\ndescription: one 529\nmodels: {sonnet: {context_window: 1000, max_output: 100}}\nscript: [{when: {attempt: 1}, respond: {status: 529}}]\n")
	if code != http.StatusCreated {
		t.Fatalf("POST: %d %s", code, b)
	}
	var added mockllm.Added
	if err := json.Unmarshal(b, &added); err != nil {
		t.Fatal(err)
	}
	ask := `{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`
	for _, want := range []int{529, 200} {
		if code, b := post(added.AnthropicBaseURL+"v1/messages", ask); code != want {
			t.Fatalf("want %d, got %d %s", want, code, b)
		}
	}
	cancel()
	if err := within.Recv(t, done, "serve to stop"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(stdout.String(), "inline") {
		t.Fatalf("the journal printed at the end leaves out the added scenario's session: %s", stdout.String())
	}

	err := runServe(context.Background(), &stdout, &stderr, serveFlags{addr: "127.0.0.1:0", empty: true}, []string{"scenarios"}, nil)
	if exitCode(err, true) != exitBadInput || !strings.Contains(err.Error(), "--empty") {
		t.Fatalf("--empty with a path: %v", err)
	}
}
