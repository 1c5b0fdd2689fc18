package main

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/within"
)

// In serve a session starts at the real time of its first request: a
// retry-after date the scenario writes as "8 s into the session" must be 8
// s after that, not a date of 2026-01-01 long past.
func TestServeSendsAbsoluteTimesFromTheSessionsRealStart(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr bytes.Buffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, &stdout, &stderr, serveFlags{addr: "127.0.0.1:0"}, []string{"../../scenarios/retry-after-date.yaml"}, ready)
	}()
	defer func() { cancel(); within.Recv(t, done, "serve to end") }()
	var addr string
	select {
	case addr = <-ready:
	case err := <-done:
		t.Fatalf("serve ended before it served: %v, stderr: %s", err, stderr.String())
	case <-time.After(within.Deadline):
		t.Fatalf("serve did not start within %v, stderr: %s", within.Deadline, stderr.String())
	}
	transport := &http.Transport{Proxy: nil}
	defer transport.CloseIdleConnections()
	before := time.Now().Truncate(time.Second)
	body := `{"model":"sonnet","max_tokens":100,"messages":[{"role":"user","content":"hi"}]}`
	req, _ := http.NewRequest(http.MethodPost, "http://"+addr+"/retry-after-date/v1/messages", strings.NewReader(body))
	resp, err := (&http.Client{Transport: transport}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	after := time.Now()
	if resp.StatusCode != 429 {
		t.Fatalf("status %d, want 429", resp.StatusCode)
	}
	date, err := http.ParseTime(resp.Header.Get("Retry-After"))
	if err != nil {
		t.Fatalf("retry-after %q: %v", resp.Header.Get("Retry-After"), err)
	}
	// The session began between before and after; the date is 8 s later,
	// rounded up to the second.
	if date.Before(before.Add(8*time.Second)) || date.After(after.Add(9*time.Second)) {
		t.Fatalf("retry-after %v, want 8 s after the request (made between %v and %v)", date, before, after)
	}
}
