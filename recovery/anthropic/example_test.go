package anthropic_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"

	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/anthropic"
)

// A Provider wraps an Anthropic client, here pointed at a server on
// loopback that answers one message, and turns a recovery.Request into one
// Messages API call with the SDK's own retries off.
func Example() {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("request-id", "req_example")
		_, _ = io.WriteString(w, `{"id":"msg_example","type":"message","role":"assistant","model":"claude-example",`+
			`"content":[{"type":"text","text":"Bonjour."}],"stop_reason":"end_turn","stop_sequence":null,`+
			`"usage":{"input_tokens":9,"output_tokens":3}}`)
	}))
	defer srv.Close()

	provider := anthropic.New(
		option.WithBaseURL(srv.URL),
		option.WithAPIKey("sk-example"),
	).WithRequestOptions(func(r recovery.Request) []option.RequestOption {
		return []option.RequestOption{option.WithHeader("X-Faultbench-Purpose", string(r.Purpose))}
	})

	resp, err := provider.Send(context.Background(), recovery.Request{
		Model:     "claude-example",
		MaxTokens: 256,
		Messages:  []recovery.Message{{Role: "user", Text: "Say hello in French."}},
		Purpose:   recovery.PurposeTurn,
	})
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	fmt.Println(resp.Text, resp.StopReason, resp.InputTokens, resp.OutputTokens, resp.Header.Get("request-id"))
	fmt.Println(recovery.DefaultClassifier(resp, nil).Kind)
	// Output:
	// Bonjour. end_turn 9 3 req_example
	// ok
}
