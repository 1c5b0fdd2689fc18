package mockllm_test

import (
	"context"
	"errors"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the official SDK over loopback", func() {
	var (
		srv    *mockllm.Server
		client anthropic.Client
	)

	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario(
			scenario.Rule{When: scenario.When{Model: "haiku"}, Times: 1, Respond: scenario.Respond{Status: 529}},
			// The server's clock never moves here: the retry is handed to the
			// script rather than refused as early.
			scenario.Rule{Times: 1, Respond: scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "2"}, EarlyRetry: scenario.EarlyRetryScripted}},
		)}, clock.NewVirtual())
		ep, err := mockllm.Start(srv, "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		transport := &http.Transport{Proxy: nil}
		DeferCleanup(func() {
			Expect(ep.Close()).To(Succeed())
			transport.CloseIdleConnections()
		})
		client = anthropic.NewClient(
			option.WithBaseURL(ep.BaseURL(scName)),
			option.WithAPIKey("test"),
			option.WithMaxRetries(0),
			option.WithHTTPClient(&http.Client{Transport: transport}),
			option.WithHeader(mockllm.SessionHeader, "s1"),
		)
	})

	send := func(model string, maxTokens int64) (*anthropic.Message, error) {
		return client.Messages.New(context.Background(), anthropic.MessageNewParams{
			Model:     anthropic.Model(model),
			MaxTokens: maxTokens,
			System:    []anthropic.TextBlockParam{{Text: tokens.Text(30)}},
			Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(tokens.Text(70)))},
		})
	}

	It("gets an error as *anthropic.Error with its status and type, then an answer", func() {
		_, err := send("sonnet", 1000)
		var apiErr *anthropic.Error
		Expect(errors.As(err, &apiErr)).To(BeTrue(), "%v", err)
		Expect(apiErr.StatusCode).To(Equal(429))
		Expect(apiErr.Type()).To(Equal(anthropic.ErrorTypeRateLimitError))
		Expect(apiErr.RequestID).To(MatchRegexp(requestIDPattern.String()))
		Expect(apiErr.Response.Header.Get("retry-after")).To(Equal("2"))

		msg, err := send("sonnet", 1000)
		Expect(err).NotTo(HaveOccurred())
		Expect(msg.StopReason).To(Equal(anthropic.StopReasonEndTurn))
		Expect(msg.Usage.InputTokens).To(Equal(int64(100)))
		Expect(msg.Usage.OutputTokens).To(Equal(int64(answerTokens)))
		Expect(msg.Content).To(HaveLen(1))
		Expect(msg.Content[0].Text).To(Equal(tokens.Text(answerTokens)))

		es := srv.Entries(scName, "s1")
		Expect(es).To(HaveLen(2))
		Expect(es[0].RetryCount).To(HaveValue(Equal(0))) // the SDK says which try this is
		Expect(es[1].InputTokens).To(Equal(100))
	})

	It("gets an answer cut at max_tokens", func() {
		_, _ = send("sonnet", 1000) // the 429
		msg, err := send("sonnet", 10)
		Expect(err).NotTo(HaveOccurred())
		Expect(msg.StopReason).To(Equal(anthropic.StopReasonMaxTokens))
		Expect(msg.Usage.OutputTokens).To(Equal(int64(10)))
	})

	It("gets a 529 as overloaded_error and a limit as invalid_request_error", func() {
		_, err := send("haiku", 100)
		var apiErr *anthropic.Error
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.StatusCode).To(Equal(529))
		Expect(apiErr.Type()).To(Equal(anthropic.ErrorTypeOverloadedError))
		Expect(apiErr.Response.Header.Get("x-should-retry")).To(Equal("true"))

		_, err = send("haiku", 501)
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.StatusCode).To(Equal(400))
		Expect(apiErr.Type()).To(Equal(anthropic.ErrorTypeInvalidRequestError))
		Expect(apiErr.Message).To(Equal("max_tokens: 501 > 500, which is the maximum allowed number of output tokens for haiku"))
	})
})
