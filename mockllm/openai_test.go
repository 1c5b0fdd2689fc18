package mockllm_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3"
	oaoption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// oaError is OpenAI's error body.
type oaError struct {
	Error struct {
		Message string  `json:"message"`
		Type    string  `json:"type"`
		Param   *string `json:"param"`
		Code    *string `json:"code"`
	} `json:"error"`
}

var _ = Describe("OpenAI Chat Completions", func() {
	var (
		srv    *mockllm.Server
		client openai.Client
		hc     *http.Client
		url    string
	)

	serve := func(script ...scenario.Rule) {
		srv = mockllm.New([]*scenario.Scenario{newScenario(script...)}, clock.NewVirtual())
		var ep *mockllm.Endpoint
		ep, hc = live(srv)
		url = ep.BaseURL(scName) + "v1/chat/completions"
		client = openai.NewClient(
			oaoption.WithBaseURL(ep.BaseURL(scName)+"v1/"), oaoption.WithAPIKey("test"), oaoption.WithMaxRetries(0),
			oaoption.WithHTTPClient(hc), oaoption.WithHeader(mockllm.SessionHeader, "s"),
		)
	}

	params := func(model string, maxTokens int64, input int) openai.ChatCompletionNewParams {
		p := openai.ChatCompletionNewParams{
			Model: model,
			Messages: []openai.ChatCompletionMessageParamUnion{
				openai.SystemMessage(tokens.Text(input / 4)),
				openai.UserMessage(tokens.Text(input - input/4)),
			},
		}
		if maxTokens > 0 {
			p.MaxTokens = openai.Int(maxTokens)
		}
		return p
	}

	// sendRaw posts a raw body and returns the status and the error body.
	sendRaw := func(body string) (int, oaError) {
		resp, err := post(context.Background(), hc, url, "raw", body)
		Expect(err).NotTo(HaveOccurred())
		var e oaError
		Expect(json.Unmarshal(must(readAll(resp)), &e)).To(Succeed())
		return resp.StatusCode, e
	}

	apiError := func(err error) *openai.Error {
		var e *openai.Error
		ExpectWithOffset(1, errors.As(err, &e)).To(BeTrue(), "%v", err)
		return e
	}

	It("answers with a chat.completion: content, finish_reason, usage and rate-limit headers", func() {
		serve()
		var resp *http.Response
		c, err := client.Chat.Completions.New(context.Background(), params("sonnet", 1000, 100), oaoption.WithResponseInto(&resp))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.ID).To(MatchRegexp(`^chatcmpl-[0-9a-f]{24}$`))
		Expect(c.Choices).To(HaveLen(1))
		Expect(c.Choices[0].Message.Content).To(Equal(tokens.Text(answerTokens)))
		Expect(c.Choices[0].FinishReason).To(Equal("stop"))
		Expect(c.Usage.PromptTokens).To(Equal(int64(100)))
		Expect(c.Usage.CompletionTokens).To(Equal(int64(answerTokens)))
		Expect(c.Created).To(Equal(clock.Epoch.Unix()))
		Expect(resp.Header.Get("x-request-id")).To(MatchRegexp(requestIDPattern.String()))
		Expect(resp.Header.Get("x-ratelimit-remaining-requests")).To(Equal("9999"))
		Expect(resp.Header.Get("x-ratelimit-reset-tokens")).To(Equal("0s"))

		e := srv.Entries(scName, "s")[0]
		Expect(e).To(And(HaveField("Wire", "openai"), HaveField("InputTokens", 100), HaveField("StopReason", "stop")))
	})

	It("names the service tier that served the request: the one asked, default for auto or none", func() {
		serve()
		for _, c := range []struct {
			asked openai.ChatCompletionNewParamsServiceTier
			want  string
		}{{"", "default"}, {openai.ChatCompletionNewParamsServiceTierAuto, "default"}, {openai.ChatCompletionNewParamsServiceTierFlex, "flex"},
			{openai.ChatCompletionNewParamsServiceTierPriority, "priority"}} {
			p := params("sonnet", 1000, 100)
			p.ServiceTier = c.asked
			r, err := client.Chat.Completions.New(context.Background(), p)
			Expect(err).NotTo(HaveOccurred())
			Expect(string(r.ServiceTier)).To(Equal(c.want), "asked %q", c.asked)
			p.StreamOptions.IncludeUsage = openai.Bool(true)
			st := client.Chat.Completions.NewStreaming(context.Background(), p)
			n := 0
			for st.Next() {
				Expect(string(st.Current().ServiceTier)).To(Equal(c.want), "every chunk, asked %q", c.asked)
				n++
			}
			Expect(st.Err()).NotTo(HaveOccurred())
			Expect(n).To(BeNumerically(">", 2))
		}
	})

	It("cuts an answer at max_tokens with finish_reason length, and at max_output without it", func() {
		serve()
		c, err := client.Chat.Completions.New(context.Background(), params("sonnet", 10, 100))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Choices[0].FinishReason).To(Equal("length"))
		Expect(c.Usage.CompletionTokens).To(Equal(int64(10)))

		c, err = client.Chat.Completions.New(context.Background(), params("sonnet", 0, 100))
		Expect(err).NotTo(HaveOccurred())
		Expect(c.Choices[0].FinishReason).To(Equal("stop")) // 50 tokens fit sonnet's 64,000
		Expect(srv.Entries(scName, "s")[1].MaxTokens).To(BeZero())
	})

	It("streams chunks ending in data: [DONE], with the usage chunk when asked, read by the SDK's accumulator", func() {
		serve()
		p := params("sonnet", 1000, 100)
		p.StreamOptions = openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)}
		s := client.Chat.Completions.NewStreaming(context.Background(), p)
		var acc openai.ChatCompletionAccumulator
		chunks := 0
		for s.Next() {
			acc.AddChunk(s.Current())
			chunks++
		}
		Expect(s.Err()).NotTo(HaveOccurred())
		Expect(acc.Choices).To(HaveLen(1))
		Expect(acc.Choices[0].Message.Content).To(Equal(tokens.Text(answerTokens)))
		Expect(acc.Choices[0].FinishReason).To(Equal("stop"))
		Expect(acc.Usage.TotalTokens).To(Equal(int64(100 + answerTokens)))
		Expect(chunks).To(Equal(1 + (answerTokens*4+63)/64 + 1 + 1)) // role, content, finish, usage

		body := `{"model":"sonnet","stream":true,"messages":[{"role":"user","content":"hi"}]}`
		resp, err := post(context.Background(), hc, url, "raw", body)
		Expect(err).NotTo(HaveOccurred())
		raw := string(must(readAll(resp)))
		Expect(raw).To(HaveSuffix("data: [DONE]\n\n"))
		Expect(raw).NotTo(ContainSubstring(`"usage"`))
	})

	It("streams tool calls, their arguments in pieces", func() {
		input := `{"path":"/tmp","pattern":"` + strings.Repeat("y", 100) + `"}`
		ep, c := live(mockllm.ToolAnswer(true, "", [2]string{"grep", input}))
		cl := openai.NewClient(oaoption.WithBaseURL(ep.BaseURL("x")+"v1/"), oaoption.WithAPIKey("t"), oaoption.WithHTTPClient(c))
		s := cl.Chat.Completions.NewStreaming(context.Background(), params("sonnet", 100, 8))
		var acc openai.ChatCompletionAccumulator
		for s.Next() {
			acc.AddChunk(s.Current())
		}
		Expect(s.Err()).NotTo(HaveOccurred())
		Expect(acc.Choices[0].FinishReason).To(Equal("tool_calls"))
		Expect(acc.Choices[0].Message.ToolCalls).To(HaveLen(1))
		Expect(acc.Choices[0].Message.ToolCalls[0].Function.Name).To(Equal("grep"))
		Expect(acc.Choices[0].Message.ToolCalls[0].Function.Arguments).To(Equal(input))

		whole, err := cl.Chat.Completions.New(context.Background(), params("sonnet", 100, 8))
		Expect(err).NotTo(HaveOccurred())
		Expect(whole.Choices[0].Message.ToolCalls[0].Function.Arguments).To(Equal(input))
	})

	Describe("errors, as OpenAI words them", func() {
		It("context_length_exceeded, for the input alone and with max_tokens", func() {
			serve()
			_, err := client.Chat.Completions.New(context.Background(), params("haiku", 100, 1001))
			e := apiError(err)
			Expect(e.StatusCode).To(Equal(400))
			Expect(e.Code).To(Equal("context_length_exceeded"))
			Expect(e.Param).To(Equal("messages"))
			Expect(e.Message).To(Equal("This model's maximum context length is 1000 tokens. However, your messages resulted in 1001 tokens. Please reduce the length of the messages."))

			_, err = client.Chat.Completions.New(context.Background(), params("haiku", 300, 800))
			Expect(apiError(err).Message).To(Equal("This model's maximum context length is 1000 tokens. However, you requested 1100 tokens (800 in the messages, 300 in the completion). Please reduce the length of the messages or completion."))
			Expect(srv.Entries(scName, "s")[1].Kind).To(Equal("context_overflow"))
		})

		It("max_tokens above the model's output limit", func() {
			serve()
			_, err := client.Chat.Completions.New(context.Background(), params("haiku", 501, 10))
			e := apiError(err)
			Expect(e.Param).To(Equal("max_tokens"))
			Expect(e.Message).To(Equal("max_tokens is too large: 501. This model supports at most 500 completion tokens, whereas you provided 501."))
		})

		It("rate_limit_exceeded, with the wait in the message and the reset headers", func() {
			serve(scenario.Rule{Respond: scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "2"}}})
			_, err := client.Chat.Completions.New(context.Background(), params("sonnet", 100, 10))
			e := apiError(err)
			Expect(e.StatusCode).To(Equal(429))
			Expect(e.Code).To(Equal("rate_limit_exceeded"))
			Expect(e.Message).To(ContainSubstring("Please try again in 2s."))
			Expect(e.Response.Header.Get("x-ratelimit-reset-requests")).To(Equal("2s"))
			Expect(e.Response.Header.Get("x-ratelimit-remaining-requests")).To(Equal("0"))
			Expect(e.Response.Header.Get("retry-after")).To(Equal("2"))
			Expect(srv.Entries(scName, "s")[0].Kind).To(Equal("rate_limit"))
		})

		It("insufficient_quota, for a 429 about quota and for a 402", func() {
			serve(
				scenario.Rule{Times: 1, Respond: scenario.Respond{Status: 429, Message: "You exceeded your current quota"}},
				scenario.Rule{Times: 1, Respond: status(402)},
			)
			for range 2 {
				_, err := client.Chat.Completions.New(context.Background(), params("sonnet", 100, 10))
				e := apiError(err)
				Expect(e.Code).To(Equal("insufficient_quota"))
			}
			Expect(srv.Entries(scName, "s")[1].Kind).To(Equal("quota_exhausted"))
		})

		It("a provider's own envelope, when a rule scripts its body: OpenRouter's 402 as written, its message journalled", func() {
			body := `{"error":{"message":"This request requires more credits","code":402,"metadata":{"limit_source":"openrouter_credits"}},"user_id":"user_x"}`
			serve(scenario.Rule{Respond: scenario.Respond{Status: 402, Body: body}})
			_, err := client.Chat.Completions.New(context.Background(), params("sonnet", 100, 10))
			e := apiError(err)
			Expect(e.StatusCode).To(Equal(402))
			Expect(e.RawJSON()).To(Equal(`{"message":"This request requires more credits","code":402,"metadata":{"limit_source":"openrouter_credits"}}`))
			entry := srv.Entries(scName, "s")[0]
			Expect(entry.Kind).To(Equal("quota_exhausted"))
			Expect(entry.ErrorMessage).To(Equal("This request requires more credits"))
		})

		It("model_not_found for a model the scenario does not serve", func() {
			serve()
			_, err := client.Chat.Completions.New(context.Background(), params("gpt-9", 100, 10))
			e := apiError(err)
			Expect(e.StatusCode).To(Equal(404))
			Expect(e.Code).To(Equal("model_not_found"))
			Expect(e.Message).To(HavePrefix("The model `gpt-9` does not exist or you do not have access to it. The scenario serves: "))
		})

		It("a server error with OpenAI's words", func() {
			serve(scenario.Rule{Respond: status(500)})
			_, err := client.Chat.Completions.New(context.Background(), params("sonnet", 100, 10))
			e := apiError(err)
			Expect(e.Type).To(Equal("server_error"))
			Expect(e.Message).To(HavePrefix("The server had an error"))
		})

		DescribeTable("a request body OpenAI would refuse",
			func(body, param, code, msg string) {
				serve()
				status, e := sendRaw(body)
				Expect(status).To(Equal(400))
				Expect(e.Error.Type).To(Equal("invalid_request_error"))
				Expect(e.Error.Message).To(ContainSubstring(msg))
				if param == "" {
					Expect(e.Error.Param).To(BeNil())
				} else {
					Expect(e.Error.Param).To(HaveValue(Equal(param)))
				}
				if code == "" {
					Expect(e.Error.Code).To(BeNil())
				} else {
					Expect(e.Error.Code).To(HaveValue(Equal(code)))
				}
			},
			Entry("not JSON", `{"model":`, "", "", "We could not parse the JSON body of your request."),
			Entry("no model", `{"messages":[{"role":"user","content":"hi"}]}`, "", "", "you must provide a model parameter"),
			Entry("no messages", `{"model":"sonnet"}`, "messages", "missing_required_parameter", "Missing required parameter: 'messages'."),
			Entry("no messages in the list", `{"model":"sonnet","messages":[]}`, "messages", "empty_array", "Invalid 'messages': empty array."),
			Entry("max_tokens a string", `{"model":"sonnet","max_tokens":"9","messages":[{"role":"user","content":"hi"}]}`,
				"max_tokens", "invalid_type", "Invalid type for 'max_tokens': expected an integer, but got a string instead."),
			Entry("max_tokens past int64", `{"model":"sonnet","max_tokens":9223372036854775807,"messages":[{"role":"user","content":"hi"}]}`,
				"max_tokens", "integer_above_max_value", "Invalid 'max_tokens': integer above maximum value. Expected a value <= 2147483647, but got 9223372036854775807 instead."),
			Entry("content a huge integer", `{"model":"sonnet","messages":[{"role":"user","content":99999999999999999999}]}`,
				"messages[0].content", "invalid_type", "but got an integer instead"),
			Entry("max_tokens 0", `{"model":"sonnet","max_completion_tokens":0,"messages":[{"role":"user","content":"hi"}]}`,
				"max_completion_tokens", "integer_below_min_value", "Expected a value >= 1, but got 0 instead."),
			Entry("a role it does not know", `{"model":"sonnet","messages":[{"role":"robot","content":"hi"}]}`,
				"messages[0].role", "invalid_value", "Invalid value: 'robot'."),
			Entry("a message without content", `{"model":"sonnet","messages":[{"role":"user"}]}`,
				"messages[0].content", "missing_required_parameter", "Missing required parameter: 'messages[0].content'."),
			Entry("a content part without text", `{"model":"sonnet","messages":[{"role":"user","content":[{"type":"text"}]}]}`,
				"messages[0].content[0].text", "missing_required_parameter", "'messages[0].content[0].text'"),
			Entry("content of the wrong type", `{"model":"sonnet","messages":[{"role":"user","content":7}]}`,
				"messages[0].content", "invalid_type", "expected one of a string or array of objects, but got an integer instead"),
			Entry("stream_options without stream", `{"model":"sonnet","stream_options":{"include_usage":true},"messages":[{"role":"user","content":"hi"}]}`,
				"stream_options", "invalid_value", "only allowed when 'stream' is enabled"),
		)
	})

	It("counts system, developer, user, tool and assistant texts, tool call arguments and text parts", func() {
		serve()
		body := `{"model":"sonnet","max_tokens":100,"messages":[
			{"role":"system","content":"abcd"},
			{"role":"developer","content":[{"type":"text","text":"abcdefgh"}]},
			{"role":"user","content":[{"type":"text","text":"abcd"},{"type":"image_url","image_url":{"url":"data:x"}}]},
			{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"ls","arguments":"{\"a\":1}"}}]},
			{"role":"tool","tool_call_id":"c1","content":"abcdefghi"}]}`
		resp, err := post(context.Background(), hc, url, "count", body)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(200))
		_, _ = readAll(resp)
		Expect(srv.Entries(scName, "count")[0].InputTokens).To(Equal(1 + 2 + 1 + 2 + 3))
	})

	Describe("faults inside a stream", func() {
		stream := func() (int, error) {
			s := client.Chat.Completions.NewStreaming(context.Background(), params("sonnet", 1000, 100))
			defer s.Close()
			n := 0
			for s.Next() {
				n++
			}
			return n, s.Err()
		}

		It("error_after: N chunks, then an error object the SDK reports", func() {
			serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultError, After: 3}}})
			n, err := stream()
			Expect(n).To(Equal(3))
			var se *ssestream.StreamError
			Expect(errors.As(err, &se)).To(BeTrue(), "%v", err)
			Expect(se.Message).To(ContainSubstring("overloaded"))
			Expect(srv.Entries(scName, "s")[0]).To(And(HaveField("Status", 200), HaveField("Kind", "overloaded")))
		})

		It("cut_after: N chunks, then the connection drops", func() {
			serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultCut, After: 2}}})
			n, err := stream()
			Expect(n).To(Equal(2))
			Expect(err).To(MatchError(io.ErrUnexpectedEOF))
		})

		It("malformed: a chunk whose JSON is broken", func() {
			serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultMalformed}}})
			n, err := stream()
			Expect(n).To(Equal(1))
			Expect(err).To(HaveOccurred())
		})
	})
})
