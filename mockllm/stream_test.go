package mockllm_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// eventNames reads an SSE body and returns its event names in order.
func eventNames(body io.Reader) []string {
	var names []string
	sc := bufio.NewScanner(body)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if name, ok := strings.CutPrefix(sc.Text(), "event: "); ok {
			names = append(names, name)
		}
	}
	return names
}

var _ = Describe("Anthropic streams, read by the official SDK's stream reader", func() {
	var (
		srv    *mockllm.Server
		base   string
		client anthropic.Client
		http1  *http.Client
	)

	serve := func(script ...scenario.Rule) {
		srv = mockllm.New([]*scenario.Scenario{newScenario(script...)}, clock.NewVirtual())
		var ep *mockllm.Endpoint
		ep, http1 = live(srv)
		base = ep.BaseURL(scName)
		client = anthropic.NewClient(
			option.WithBaseURL(base), option.WithAPIKey("test"), option.WithMaxRetries(0),
			option.WithHTTPClient(http1), option.WithHeader(mockllm.SessionHeader, "s"),
		)
	}

	params := func(maxTokens int64) anthropic.MessageNewParams {
		return anthropic.MessageNewParams{
			Model:     "sonnet",
			MaxTokens: maxTokens,
			System:    []anthropic.TextBlockParam{{Text: tokens.Text(30)}},
			Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(tokens.Text(70)))},
		}
	}

	// stream reads one streamed answer with the SDK: the message gathered
	// with Message.Accumulate, the events seen, and the stream's error.
	stream := func(maxTokens int64) (anthropic.Message, []string, error) {
		s := client.Messages.NewStreaming(context.Background(), params(maxTokens))
		defer s.Close()
		var msg anthropic.Message
		var seen []string
		for s.Next() {
			ev := s.Current()
			seen = append(seen, ev.Type)
			Expect(msg.Accumulate(ev)).To(Succeed())
		}
		return msg, seen, s.Err()
	}

	It("gives the answer as the real API's sequence of events", func() {
		serve()
		msg, seen, err := stream(1000)
		Expect(err).NotTo(HaveOccurred())
		Expect(msg.Content).To(HaveLen(1))
		Expect(msg.Content[0].Text).To(Equal(tokens.Text(answerTokens)))
		Expect(msg.StopReason).To(Equal(anthropic.StopReasonEndTurn))
		Expect(msg.Usage.InputTokens).To(Equal(int64(100)))
		Expect(msg.Usage.OutputTokens).To(Equal(int64(answerTokens)))
		Expect(msg.ID).To(MatchRegexp(`^msg_[0-9a-f]{24}$`))
		deltas := (answerTokens*4 + 63) / 64
		Expect(seen).To(HaveLen(5 + deltas)) // the SDK skips the ping
		Expect(seen[0]).To(Equal("message_start"))
		Expect(seen[len(seen)-2:]).To(Equal([]string{"message_delta", "message_stop"}))

		e := srv.Entries(scName, "s")[0]
		Expect(e.Stream).To(BeTrue())
		Expect(e.Status).To(Equal(200))
		Expect(e.OutputTokens).To(Equal(answerTokens))
	})

	It("sends a ping after the first block starts, as the real API does", func() {
		serve()
		body := strings.Replace(ask("sonnet", 1000, 10), `"max_tokens"`, `"stream":true,"max_tokens"`, 1)
		resp, err := post(context.Background(), http1, base+"v1/messages", "raw", body)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Header.Get("Content-Type")).To(HavePrefix("text/event-stream"))
		Expect(resp.Header.Get("request-id")).To(MatchRegexp(requestIDPattern.String()))
		names := eventNames(resp.Body)
		_ = resp.Body.Close()
		Expect(names[:4]).To(Equal([]string{"message_start", "content_block_start", "ping", "content_block_delta"}))
		Expect(names[len(names)-3:]).To(Equal([]string{"content_block_stop", "message_delta", "message_stop"}))
	})

	It("cuts an answer longer than max_tokens with stop_reason max_tokens in message_delta", func() {
		serve()
		msg, _, err := stream(10)
		Expect(err).NotTo(HaveOccurred())
		Expect(msg.StopReason).To(Equal(anthropic.StopReasonMaxTokens))
		Expect(msg.Usage.OutputTokens).To(Equal(int64(10)))
		Expect(tokens.Count(msg.Content[0].Text)).To(Equal(10))
	})

	It("answers an error status before any event as JSON, not as a stream", func() {
		serve(scenario.Rule{Respond: status(529)})
		_, seen, err := stream(1000)
		Expect(seen).To(BeEmpty())
		var apiErr *anthropic.Error
		Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
		Expect(apiErr.StatusCode).To(Equal(529))
		Expect(apiErr.Type()).To(Equal(anthropic.ErrorTypeOverloadedError))
	})

	Describe("faults inside the stream", func() {
		It("error_after: N events, then an error event the SDK turns into overloaded_error", func() {
			serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultError, After: 4}}})
			_, seen, err := stream(1000)
			Expect(seen).To(Equal([]string{"message_start", "content_block_start", "content_block_delta"})) // and a ping
			var apiErr *anthropic.Error
			Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
			Expect(apiErr.Type()).To(Equal(anthropic.ErrorTypeOverloadedError))
			Expect(apiErr.StatusCode).To(Equal(200)) // the stream's status
			e := srv.Entries(scName, "s")[0]
			Expect(e).To(And(HaveField("Status", 200), HaveField("Kind", "overloaded"), HaveField("Fault", "{error_after: 4}")))
		})

		It("error_after with a type: that error in the event; without a stream, that error's status", func() {
			serve(scenario.Rule{Respond: scenario.Respond{
				Fault: scenario.Fault{Kind: scenario.FaultError, After: 1}, Type: "api_error", Message: "Internal server error",
			}})
			_, _, err := stream(1000)
			var apiErr *anthropic.Error
			Expect(errors.As(err, &apiErr)).To(BeTrue())
			Expect(apiErr.Type()).To(Equal(anthropic.ErrorTypeAPIError))

			w := to("plain").send(srv, ask("sonnet", 1000, 10))
			Expect(w.Code).To(Equal(500))
			Expect(errorOf(w).Error.Type).To(Equal("api_error"))
		})

		It("cut_after: N events, then the connection drops (an unexpected EOF)", func() {
			serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultCut, After: 5}}})
			_, seen, err := stream(1000)
			Expect(seen).To(HaveLen(4)) // five events, one of them a ping
			Expect(err).To(MatchError(io.ErrUnexpectedEOF))
			Expect(srv.Entries(scName, "s")[0]).To(And(HaveField("Status", 200), HaveField("Kind", "connection")))
		})

		It("malformed: an event whose JSON is broken", func() {
			serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultMalformed}}})
			_, seen, err := stream(1000)
			Expect(seen).To(Equal([]string{"message_start"}))
			var syntax *json.SyntaxError
			Expect(errors.As(err, &syntax)).To(BeTrue(), "%v", err)
		})

		It("empty: a 200 stream with no event at all", func() {
			serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultEmpty}}})
			_, seen, err := stream(1000)
			Expect(err).NotTo(HaveOccurred())
			Expect(seen).To(BeEmpty())
			Expect(srv.Entries(scName, "s")[0]).To(HaveField("Kind", "empty"))
		})
	})

	It("streams tool_use blocks as input_json_delta, which the SDK puts back together", func() {
		input := `{"path":"/tmp","pattern":"` + strings.Repeat("x", 150) + `"}`
		ep, hc := live(mockllm.ToolAnswer(false, "Let me look.", [2]string{"grep", input}, [2]string{"ls", `{}`}))
		c := anthropic.NewClient(option.WithBaseURL(ep.BaseURL("any")), option.WithAPIKey("t"), option.WithHTTPClient(hc), option.WithMaxRetries(0))
		s := c.Messages.NewStreaming(context.Background(), params(1000))
		var msg anthropic.Message
		deltas := 0
		for s.Next() {
			ev := s.Current()
			if ev.Type == "content_block_delta" && ev.Delta.Type == "input_json_delta" {
				deltas++
			}
			Expect(msg.Accumulate(ev)).To(Succeed())
		}
		Expect(s.Err()).NotTo(HaveOccurred())
		Expect(deltas).To(Equal(4)) // 175 bytes in 64-byte pieces, then 2 bytes
		Expect(msg.StopReason).To(Equal(anthropic.StopReasonToolUse))
		Expect(msg.Content).To(HaveLen(3))
		Expect(msg.Content[0].Text).To(Equal("Let me look."))
		Expect(msg.Content[1].Type).To(Equal("tool_use"))
		Expect(msg.Content[1].Name).To(Equal("grep"))
		Expect(string(msg.Content[1].Input)).To(Equal(input))
		Expect(string(msg.Content[2].Input)).To(Equal(`{}`))

		// The same answer without a stream.
		whole, err := c.Messages.New(context.Background(), params(1000))
		Expect(err).NotTo(HaveOccurred())
		Expect(whole.Content).To(HaveLen(3))
		Expect(string(whole.Content[1].Input)).To(Equal(input))
	})
})
