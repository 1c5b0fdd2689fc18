package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	oaoption "github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/internal/within"
)

// TestServeBucketRefusesTheOfficialSDKAndCurlAlike: under serve, the 429
// of rate-limit-bucket comes from its 3-requests-a-minute bucket, which the
// official Go SDKs and a plain HTTP client on the other wire drain together
// (one organisation's key), and the headers tell the wait.
func TestServeBucketRefusesTheOfficialSDKAndCurlAlike(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr bytes.Buffer
	ready := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- runServe(ctx, &stdout, &stderr, serveFlags{addr: "127.0.0.1:0"}, []string{"../../scenarios/rate-limit-bucket.yaml"}, ready)
	}()
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
	hc := &http.Client{Transport: transport}
	base := "http://" + addr + "/rate-limit-bucket/"

	sdk := anthropic.NewClient(option.WithBaseURL(base), option.WithAPIKey("test"),
		option.WithHTTPClient(hc), option.WithMaxRetries(0), option.WithHeader("X-Faultbench-Session", "sdk"))
	params := anthropic.MessageNewParams{
		Model: "primary", MaxTokens: 256,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("hi"))},
	}
	for i := range 2 {
		var resp *http.Response
		if _, err := sdk.Messages.New(ctx, params, option.WithResponseInto(&resp)); err != nil {
			t.Fatalf("request %d: %v", i+1, err)
		}
		if got := resp.Header.Get("anthropic-ratelimit-requests-remaining"); got != strconv.Itoa(2-i) {
			t.Fatalf("request %d: %q requests remaining, want %d", i+1, got, 2-i)
		}
	}

	// curl on the OpenAI wire, in a session of its own, pays the same bucket.
	post := func() *http.Response {
		body := `{"model":"primary","max_completion_tokens":256,"messages":[{"role":"user","content":"hi"}]}`
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, base+"v1/chat/completions", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("X-Faultbench-Session", "curl")
		resp, err := hc.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	resp := post()
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusOK || resp.Header.Get("x-ratelimit-remaining-requests") != "0" {
		t.Fatalf("third request: %d, %q remaining; want 200 and 0", resp.StatusCode, resp.Header.Get("x-ratelimit-remaining-requests"))
	}
	resp = post()
	var body struct {
		Error struct{ Code, Message string }
	}
	_ = json.NewDecoder(resp.Body).Decode(&body)
	_ = resp.Body.Close()
	if resp.StatusCode != http.StatusTooManyRequests || body.Error.Code != "rate_limit_exceeded" ||
		!strings.Contains(body.Error.Message, "requests per min (RPM): Limit 3") {
		t.Fatalf("curl's fourth request: %d %+v, want the bucket's 429", resp.StatusCode, body.Error)
	}
	if ra := resp.Header.Get("retry-after"); ra != "20" && ra != "19" {
		t.Fatalf("retry-after %q, want the refill of one request, 20s", ra)
	}

	_, err := sdk.Messages.New(ctx, params)
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) || apiErr.StatusCode != http.StatusTooManyRequests {
		t.Fatalf("the SDK's fifth request: %v, want a 429", err)
	}
	if !strings.Contains(apiErr.Error(), "rate limit of 3 requests per minute") || apiErr.Response.Header.Get("retry-after") == "" {
		t.Fatalf("the SDK's 429 does not name the bucket or lacks retry-after: %v", apiErr)
	}
	// The official OpenAI SDK, in a third session, meets the same bucket.
	oa := openai.NewClient(oaoption.WithBaseURL(base+"v1/"), oaoption.WithAPIKey("test"),
		oaoption.WithHTTPClient(hc), oaoption.WithMaxRetries(0), oaoption.WithHeader("X-Faultbench-Session", "openai-sdk"))
	_, err = oa.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    "primary",
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("hi")},
	})
	var oaErr *openai.Error
	if !errors.As(err, &oaErr) || oaErr.StatusCode != http.StatusTooManyRequests || oaErr.Code != "rate_limit_exceeded" {
		t.Fatalf("the OpenAI SDK's request: %v, want the bucket's 429", err)
	}
	if oaErr.Response.Header.Get("x-ratelimit-remaining-requests") != "0" || oaErr.Response.Header.Get("retry-after") == "" {
		t.Fatalf("the OpenAI SDK's 429 lacks the bucket's headers: %v", oaErr.Response.Header)
	}
	cancel()
	if err := within.Recv(t, done, "serve to end"); err != nil {
		t.Fatal(err)
	}
}
