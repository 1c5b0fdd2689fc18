package openai_test

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/h2non/gock"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3/option"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/openai"
)

// Chunks as Chat Completions streams them: the role, two deltas, the
// finish reason, the usage (stream_options.include_usage), [DONE].
const (
	chunkRole   = `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}` + "\n\n"
	chunkText1  = `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"content":"Bon"},"finish_reason":null}]}` + "\n\n"
	chunkText2  = `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{"content":"jour."},"finish_reason":null}]}` + "\n\n"
	chunkFinish = `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	chunkUsage  = `data: {"id":"chatcmpl-s","object":"chat.completion.chunk","created":1,"model":"gpt-test","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":3,"total_tokens":15}}` + "\n\n"
	chunkDone   = "data: [DONE]\n\n"
)

var _ = Describe("a streamed chat completion", func() {
	var (
		provider *openai.Provider
		ctx      context.Context
	)
	BeforeEach(func() {
		ctx = context.Background()
		httpClient := &http.Client{}
		gock.InterceptClient(httpClient)
		gock.Intercept()
		gock.DisableNetworking()
		DeferCleanup(gock.OffAll)
		provider = openai.New(option.WithBaseURL(baseURL), option.WithAPIKey("test-key"), option.WithHTTPClient(httpClient)).WithStream(true)
	})
	stream := func(events ...string) {
		b := ""
		for _, e := range events {
			b += e
		}
		completions().Times(1).Reply(200).SetHeader("Content-Type", "text/event-stream").SetHeader("x-request-id", "req_s").BodyString(b)
	}

	It("asks for a stream with its usage, and gathers the chunks into one answer", func() {
		var sent []byte
		completions().Times(1).AddMatcher(body(&sent)).Reply(200).SetHeader("Content-Type", "text/event-stream").
			BodyString(chunkRole + chunkText1 + chunkText2 + chunkFinish + chunkUsage + chunkDone)
		resp, err := provider.Send(ctx, turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(sent).To(MatchJSON(`{
			"model": "gpt-test",
			"max_completion_tokens": 1024,
			"messages": [
				{"role": "system", "content": "Be brief."},
				{"role": "user", "content": "Hi"},
				{"role": "assistant", "content": "Hello."},
				{"role": "user", "content": "Say hello in French."}
			],
			"stream": true,
			"stream_options": {"include_usage": true}
		}`))
		Expect(resp.Text).To(Equal("Bonjour."))
		Expect(resp.StopReason).To(Equal("stop"))
		Expect(resp.InputTokens).To(Equal(12))
		Expect(resp.OutputTokens).To(Equal(3))
		Expect(recovery.DefaultClassifier(resp, nil).Kind).To(Equal(recovery.KindOK))
	})

	It("fails the attempt whole when the stream is cut after the 200, as a broken stream", func() {
		stream(chunkRole, chunkText1)
		_, err := provider.Send(ctx, turn())
		Expect(err).To(HaveOccurred())
		Expect(errors.Is(err, recovery.ErrStreamBroken)).To(BeTrue(), err.Error())
		Expect(errors.Is(err, io.ErrUnexpectedEOF)).To(BeTrue(), err.Error())
		var be *recovery.BodyError
		Expect(errors.As(err, &be)).To(BeTrue())
		Expect(be.StatusCode).To(Equal(200))
		f := recovery.DefaultClassifier(nil, err)
		Expect(f.MidStream).To(BeTrue())
	})

	It("reads an error event inside the 200 as the API's error, mid-stream", func() {
		stream(chunkRole, `data: {"error":{"message":"That model is currently overloaded with other requests.","type":"server_error","param":null,"code":null}}`+"\n\n")
		_, err := provider.Send(ctx, turn())
		Expect(errors.Is(err, recovery.ErrStreamBroken)).To(BeTrue(), err.Error())
		var ae *recovery.APIError
		Expect(errors.As(err, &ae)).To(BeTrue(), err.Error())
		Expect(ae.StatusCode).To(Equal(200))
		Expect(ae.Type).To(Equal("server_error"))
		Expect(ae.Message).To(ContainSubstring("currently overloaded"))
	})

	It("reads an error status before the stream as the API's error, not a broken stream", func() {
		completions().Times(1).Reply(503).SetHeader("Content-Type", "application/json").BodyString(serverBody)
		_, err := provider.Send(ctx, turn())
		var ae *recovery.APIError
		Expect(errors.As(err, &ae)).To(BeTrue(), err.Error())
		Expect(ae.StatusCode).To(Equal(503))
		Expect(errors.Is(err, recovery.ErrStreamBroken)).To(BeFalse())
	})
})
