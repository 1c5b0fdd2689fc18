package fakeclient

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
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

// StartEnv, when set to a duration ("1.5s"), delays the fake client's
// first request by that much: a client slow to start.
const StartEnv = "FAULTBENCH_FAKE_START"

// Run runs one turn against the base URLs of the environment, by
// policy:
//
//   - good: honours retry-after(-ms), a Gemini error's RetryInfo and
//     x-should-retry, stops on a permanent error, backs off 50 ms·2^n
//     with jitter, lowers max_tokens and shortens its prompt after an
//     overflow, switches to the fallback after three overloads, gives up
//     on a request after 1 s; at most 6 attempts.
//   - naive: retries every failure at once, 12 times, the same request,
//     with no deadline.
//   - once: one request.
//   - jittery: good, but its waits full jitter, U(0, 100 ms·2^n), drawn
//     from a source seeded with the scenario's name (the same draws in
//     every run of a scenario).
//   - clamp: good, but an overflow only lowers max_tokens, as Claude Code
//     does: the same prompt again.
//   - side: first lists the models (GET v1/models) and sends a side
//     request the mock refuses for one of its fields, as Claude Code
//     sends one; then good.
//
// The policies of tree test that grade ends a client's whole tree.
//
// It speaks the wire FAULTBENCH_WIRE names: anthropic (the default),
// openai (Chat Completions) or gemini (generateContent).
func Run(policy string) int {
	if code, ok := tree(policy); ok {
		return code
	}
	env := os.Getenv
	if d, err := time.ParseDuration(env(StartEnv)); err == nil {
		time.Sleep(d)
	}
	w := env("FAULTBENCH_WIRE")
	model, fallback := env("FAULTBENCH_MODEL"), env("FAULTBENCH_FALLBACK_MODEL")
	maxTokens, prompt := 4096, strings.Repeat("hi ", 20)
	attempts, overloads := 6, 0
	client := &http.Client{Timeout: time.Second, Transport: &http.Transport{Proxy: nil}}
	if policy == "side" {
		side(client, env("ANTHROPIC_BASE_URL")+"/v1/messages", model)
		policy = "good"
	}
	switch policy {
	case "naive":
		attempts, client.Timeout = 12, 0
	case "once":
		attempts = 1
	}
	seed := fnv.New64a()
	seed.Write([]byte(env("FAULTBENCH_SCENARIO")))
	draws := rand.New(rand.NewPCG(seed.Sum64(), 1))
	for n := 0; n < attempts; n++ {
		req := request(w, model, prompt, maxTokens)
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
		if policy != "good" && policy != "clamp" && policy != "jittery" {
			continue // at once
		}
		wait := time.Duration(50<<n) * time.Millisecond
		wait -= time.Duration(rand.Float64() * 0.25 * float64(wait))
		if policy == "jittery" {
			wait = time.Duration(draws.Int64N(int64(100<<n) * int64(time.Millisecond)))
		}
		switch {
		case h.Get("x-should-retry") == "false":
			return 1
		case status == 400 && (strings.Contains(text, "context") || strings.Contains(text, "input token count")):
			maxTokens, wait = 1000, 0
			if policy == "good" {
				prompt = "hi"
			}
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
		} else if d, ok := retryInfo(text); ok {
			wait = d
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

// request is one turn's request on the wire w, to the base URL of the
// environment for it.
func request(w, model, prompt string, maxTokens int) *http.Request {
	env := os.Getenv
	var url string
	var body []byte
	switch w {
	case "openai":
		url = env("OPENAI_BASE_URL") + "/chat/completions"
		body, _ = json.Marshal(map[string]any{"model": model, "max_tokens": maxTokens,
			"messages": []any{map[string]any{"role": "user", "content": prompt}}})
	case "gemini":
		url = env("GOOGLE_GEMINI_BASE_URL") + "/v1beta/models/" + model + ":generateContent"
		body, _ = json.Marshal(map[string]any{"generationConfig": map[string]any{"maxOutputTokens": maxTokens},
			"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": prompt}}}}})
	default:
		url = env("ANTHROPIC_BASE_URL") + "/v1/messages"
		body, _ = json.Marshal(map[string]any{"model": model, "max_tokens": maxTokens,
			"messages": []any{map[string]any{"role": "user", "content": prompt}}})
	}
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("content-type", "application/json")
	switch w {
	case "gemini":
		req.Header.Set("x-goog-api-key", env("GEMINI_API_KEY"))
	case "openai":
		req.Header.Set("authorization", "Bearer "+env("OPENAI_API_KEY"))
	default:
		req.Header.Set("anthropic-version", "2023-06-01")
	}
	return req
}

// retryInfo is the wait a Gemini error's google.rpc.RetryInfo detail
// asks for ("retryDelay": "2s"), if it has one.
func retryInfo(body string) (time.Duration, bool) {
	var e struct {
		Error struct {
			Details []struct {
				Type       string `json:"@type"`
				RetryDelay string `json:"retryDelay"`
			} `json:"details"`
		} `json:"error"`
	}
	if json.Unmarshal([]byte(body), &e) != nil {
		return 0, false
	}
	for _, d := range e.Error.Details {
		if strings.HasSuffix(d.Type, "google.rpc.RetryInfo") {
			if w, err := time.ParseDuration(d.RetryDelay); err == nil {
				return w, true
			}
		}
	}
	return 0, false
}
