package anthropic_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/anthropic"
)

// events writes server-sent events as the Messages API streams them.
func events(names ...string) string {
	data := map[string]string{
		"message_start":       `{"type":"message_start","message":{"id":"msg_s","type":"message","role":"assistant","model":"claude-test","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":12,"output_tokens":1}}}`,
		"content_block_start": `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
		"ping":                `{"type":"ping"}`,
		"delta":               `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}`,
		"content_block_stop":  `{"type":"content_block_stop","index":0}`,
		"message_delta":       `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":5}}`,
		"message_stop":        `{"type":"message_stop"}`,
		"error":               `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
	}
	var b strings.Builder
	for _, n := range names {
		name := n
		if n == "delta" {
			name = "content_block_delta"
		}
		b.WriteString("event: " + name + "\ndata: " + data[n] + "\n\n")
	}
	return b.String()
}

var whole = []string{"message_start", "content_block_start", "ping", "delta", "delta", "content_block_stop", "message_delta", "message_stop"}

var _ = Describe("a streaming provider", func() {
	// stream serves one SSE body, then, when cut, drops the connection.
	serve := func(body string, cut bool) *anthropic.Provider {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			w.Header().Set("request-id", "req_s")
			_, _ = io.WriteString(w, body)
			if cut {
				_ = http.NewResponseController(w).Flush()
				conn, _, err := http.NewResponseController(w).Hijack()
				if err == nil {
					_ = conn.Close()
				}
			}
		}))
		DeferCleanup(srv.Close)
		return anthropic.New(option.WithBaseURL(srv.URL), option.WithAPIKey("k"), option.WithHTTPClient(srv.Client())).WithStream(true)
	}

	It("gathers the events into one answer, with its headers", func() {
		resp, err := serve(events(whole...), false).Send(context.Background(), turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("HelloHello"))
		Expect(resp.StopReason).To(Equal("end_turn"))
		Expect(resp.InputTokens).To(Equal(12))
		Expect(resp.OutputTokens).To(Equal(5))
		Expect(resp.Header.Get("request-id")).To(Equal("req_s"))
	})

	It("keeps an answer whose connection drops after message_stop", func() {
		resp, err := serve(events(whole...), true).Send(context.Background(), turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("HelloHello"))
	})

	It("fails on an error event as an overload, with the stream's status, throwing the partial answer away", func() {
		resp, err := serve(events("message_start", "content_block_start", "delta", "error"), false).Send(context.Background(), turn())
		Expect(resp).To(BeNil())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
		Expect(apiErr.StatusCode).To(Equal(200))
		Expect(apiErr.Type).To(Equal("overloaded_error"))
		f := recovery.DefaultClassifier(nil, err)
		Expect(f.Kind).To(Equal(recovery.KindOverloaded))
		Expect(f.MidStream).To(BeTrue(), "the SDKs do not retry it")
		Expect(err).To(MatchError(recovery.ErrStreamBroken))
	})

	It("fails on a cut stream as a connection failure that kept its status", func() {
		resp, err := serve(events("message_start", "content_block_start", "delta"), true).Send(context.Background(), turn())
		Expect(resp).To(BeNil())
		var bodyErr *anthropic.BodyError
		Expect(errors.As(err, &bodyErr)).To(BeTrue(), "%v", err)
		Expect(bodyErr.HTTPStatus()).To(Equal(200))
		Expect(errors.Is(err, io.ErrUnexpectedEOF)).To(BeTrue())
		f := recovery.DefaultClassifier(nil, err)
		Expect(f.Kind).To(Equal(recovery.KindConnection))
		Expect(f.MidStream).To(BeTrue())
	})

	It("fails on a stream that ends before message_stop", func() {
		_, err := serve(events("message_start", "content_block_start", "delta"), false).Send(context.Background(), turn())
		Expect(err).To(MatchError(anthropic.ErrIncompleteStream))
		Expect(err).To(MatchError(recovery.ErrStreamBroken))
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindConnection))
	})

	It("fails on an error status before the stream as the API error it is", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(529)
			_, _ = io.WriteString(w, overloadedBody)
		}))
		DeferCleanup(srv.Close)
		p := anthropic.New(option.WithBaseURL(srv.URL), option.WithAPIKey("k"), option.WithHTTPClient(srv.Client())).WithStream(true)
		_, err := p.Send(context.Background(), turn())
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
		Expect(apiErr.StatusCode).To(Equal(529))
		Expect(recovery.DefaultClassifier(nil, err).MidStream).To(BeFalse(), "the stream never began")
	})
})

var _ = Describe("a body that does not make sense", func() {
	It("fails as a *BodyError with the status that came", func() {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"id":"msg_01","type":"mess`)
		}))
		DeferCleanup(srv.Close)
		p := anthropic.New(option.WithBaseURL(srv.URL), option.WithAPIKey("k"), option.WithHTTPClient(srv.Client()))
		_, err := p.Send(context.Background(), turn())
		var bodyErr *anthropic.BodyError
		Expect(errors.As(err, &bodyErr)).To(BeTrue(), "%v", err)
		Expect(bodyErr.StatusCode).To(Equal(200))
	})
})
