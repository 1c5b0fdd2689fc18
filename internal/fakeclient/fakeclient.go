package fakeclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Env names the policy a test binary that is also the fake client runs:
// its TestMain calls Run when the variable is set, and exits with its code.
const Env = "FAULTBENCH_FAKE_CLIENT"

// Run runs one turn against the base URLs of the environment, by
// policy:
//
//   - good: honours retry-after(-ms) and x-should-retry, stops on a
//     permanent error, backs off 50 ms·2^n with jitter, lowers max_tokens
//     after an overflow, switches to the fallback after three overloads,
//     gives up on a request after 1 s; at most 6 attempts.
//   - naive: retries every failure at once, 12 times, the same request,
//     with no deadline.
//   - once: one request.
//   - side: first lists the models (GET v1/models) and sends a side
//     request the mock refuses for one of its fields, as Claude Code
//     sends one; then good.
func Run(policy string) int {
	env := os.Getenv
	openai := env("FAULTBENCH_WIRE") == "openai"
	url := env("ANTHROPIC_BASE_URL") + "/v1/messages"
	if openai {
		url = env("OPENAI_BASE_URL") + "/chat/completions"
	}
	model, fallback := env("FAULTBENCH_MODEL"), env("FAULTBENCH_FALLBACK_MODEL")
	maxTokens := 4096
	attempts, overloads := 6, 0
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{Proxy: nil}}
	if policy == "side" {
		side(client, url, model)
		policy = "good"
	}
	switch policy {
	case "naive":
		attempts, client.Timeout = 12, 0
	case "once":
		attempts = 1
	}
	for n := 0; n < attempts; n++ {
		body, _ := json.Marshal(map[string]any{"model": model, "max_tokens": maxTokens,
			"messages": []any{map[string]any{"role": "user", "content": "hi"}}})
		req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
		req.Header.Set("content-type", "application/json")
		req.Header.Set("anthropic-version", "2023-06-01")
		req.Header.Set("X-Stainless-Retry-Count", strconv.Itoa(n))
		resp, err := client.Do(req)
		status, text, h := 0, "", http.Header{}
		if err == nil {
			b, rerr := io.ReadAll(resp.Body)
			resp.Body.Close()
			status, text, h = resp.StatusCode, string(b), resp.Header
			if rerr == nil && status == 200 && json.Valid(b) {
				return 0
			}
		}
		if policy != "good" {
			continue // at once
		}
		wait := time.Duration(50<<n) * time.Millisecond
		wait -= time.Duration(rand.Float64() * 0.25 * float64(wait))
		switch {
		case h.Get("x-should-retry") == "false":
			return 1
		case status == 400 && strings.Contains(text, "context"):
			maxTokens, wait = 1000, 0
		case status == 400, status == 403, status == 404, strings.Contains(text, "insufficient_quota"):
			return 1
		case status == 529 || status == 503:
			if overloads++; overloads >= 3 && fallback != "" {
				model, wait = fallback, 0
			}
		}
		if v, err := strconv.ParseFloat(h.Get("retry-after-ms"), 64); err == nil {
			wait = time.Duration(v * float64(time.Millisecond))
		} else if v, err := strconv.ParseFloat(h.Get("retry-after"), 64); err == nil {
			wait = time.Duration(v * float64(time.Second))
		}
		if n+1 < attempts {
			time.Sleep(wait)
		}
	}
	fmt.Fprintln(os.Stderr, "gave up")
	return 1
}

// side sends what a client may send beside its turn: a models listing,
// and a request the mock refuses for its body (messages not a list).
func side(client *http.Client, url, model string) {
	if resp, err := client.Get(strings.TrimSuffix(url, "/messages") + "/models"); err == nil {
		resp.Body.Close()
	}
	body, _ := json.Marshal(map[string]any{"model": model, "max_tokens": 1, "messages": 5})
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("content-type", "application/json")
	req.Header.Set("anthropic-version", "2023-06-01")
	if resp, err := client.Do(req); err == nil {
		resp.Body.Close()
	}
}
