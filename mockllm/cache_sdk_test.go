package mockllm_test

import (
	"context"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3"
	oaoption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// The official Go SDKs read the cache usage fields serve sends, streamed
// and not, on every wire.
var _ = Describe("the prompt cache's usage, read by the official Go SDKs", func() {
	var (
		ep *mockllm.Endpoint
		hc *http.Client
	)
	BeforeEach(func() {
		sc := newScenario()
		m := sc.Models["sonnet"]
		m.Cache = &scenario.Cache{}
		sc.Models["sonnet"] = m
		ep, hc = live(mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual()))
	})

	It("anthropic-sdk-go reads cache_creation_input_tokens, cache_read_input_tokens and cache_creation", func() {
		client := anthropic.NewClient(option.WithBaseURL(ep.BaseURL(scName)), option.WithAPIKey("t"), option.WithMaxRetries(0),
			option.WithHTTPClient(hc), option.WithHeader(mockllm.SessionHeader, "a"))
		one := anthropic.NewCacheControlEphemeralParam()
		one.TTL = anthropic.CacheControlEphemeralTTLTTL1h
		params := anthropic.MessageNewParams{
			Model: "sonnet", MaxTokens: 100,
			System:   []anthropic.TextBlockParam{{Text: tokens.Text(2000), CacheControl: one}},
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.ContentBlockParamUnion{OfText: &anthropic.TextBlockParam{Text: tokens.Text(1500), CacheControl: anthropic.NewCacheControlEphemeralParam()}})},
		}
		msg, err := client.Messages.New(context.Background(), params)
		Expect(err).NotTo(HaveOccurred())
		Expect(msg.Usage.CacheCreationInputTokens).To(Equal(int64(3500)))
		Expect(msg.Usage.CacheCreation.Ephemeral1hInputTokens).To(Equal(int64(2000)))
		Expect(msg.Usage.CacheCreation.Ephemeral5mInputTokens).To(Equal(int64(1500)))
		Expect(msg.Usage.CacheReadInputTokens).To(BeZero())
		Expect(msg.Usage.InputTokens).To(BeZero())

		stream := client.Messages.NewStreaming(context.Background(), params)
		var acc anthropic.Message
		for stream.Next() {
			Expect(acc.Accumulate(stream.Current())).To(Succeed())
		}
		Expect(stream.Err()).NotTo(HaveOccurred())
		Expect(acc.Usage.CacheReadInputTokens).To(Equal(int64(3500)))
		Expect(acc.Usage.CacheCreationInputTokens).To(BeZero())
		Expect(acc.Usage.OutputTokens).To(Equal(int64(answerTokens)))
	})

	It("openai-go reads prompt_tokens_details.cached_tokens and input_tokens_details.cached_tokens", func() {
		client := openai.NewClient(oaoption.WithBaseURL(ep.BaseURL(scName)+"v1/"), oaoption.WithAPIKey("t"), oaoption.WithMaxRetries(0),
			oaoption.WithHTTPClient(hc), oaoption.WithHeader(mockllm.SessionHeader, "o"))
		chat := openai.ChatCompletionNewParams{Model: "sonnet", Messages: []openai.ChatCompletionMessageParamUnion{
			openai.SystemMessage(tokens.Text(1100)), openai.UserMessage(tokens.Text(300))}}
		c, err := client.Chat.Completions.New(context.Background(), chat)
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Usage.PromptTokensDetails.CachedTokens).To(BeZero())
		chat.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		s := client.Chat.Completions.NewStreaming(context.Background(), chat)
		var acc openai.ChatCompletionAccumulator
		for s.Next() {
			acc.AddChunk(s.Current())
		}
		Expect(s.Err()).NotTo(HaveOccurred())
		Expect(acc.Usage.PromptTokens).To(Equal(int64(1400)))
		Expect(acc.Usage.PromptTokensDetails.CachedTokens).To(Equal(int64(1280)))

		rp := responses.ResponseNewParams{Model: "sonnet", Instructions: openai.String(tokens.Text(1100)),
			Input: responses.ResponseNewParamsInputUnion{OfString: openai.String(tokens.Text(300))}}
		r, err := client.Responses.New(context.Background(), rp)
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Usage.InputTokensDetails.CachedTokens).To(BeZero())
		rs := client.Responses.NewStreaming(context.Background(), rp)
		var final responses.Response
		for rs.Next() {
			if ev := rs.Current(); ev.Type == "response.completed" {
				final = ev.Response
			}
		}
		Expect(rs.Err()).NotTo(HaveOccurred())
		Expect(final.Usage.InputTokens).To(Equal(int64(1400)))
		Expect(final.Usage.InputTokensDetails.CachedTokens).To(Equal(int64(1280)))
	})
})
