package mockllm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"github.com/openai/openai-go/v3"
	oaoption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("OpenAI Responses API, read by openai-go's responses client", func() {
	var (
		srv    *mockllm.Server
		client openai.Client
		hc     *http.Client
	)
	serve := func(sc *scenario.Scenario) {
		srv = mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		var ep *mockllm.Endpoint
		ep, hc = live(srv)
		client = openai.NewClient(oaoption.WithBaseURL(ep.BaseURL(scName)+"v1/"), oaoption.WithAPIKey("t"), oaoption.WithMaxRetries(0),
			oaoption.WithHTTPClient(hc), oaoption.WithHeader(mockllm.SessionHeader, "s"))
	}
	params := func(model string, maxOut int64, input int) responses.ResponseNewParams {
		p := responses.ResponseNewParams{
			Model:        model,
			Instructions: openai.String(tokens.Text(input / 4)),
			Input:        responses.ResponseNewParamsInputUnion{OfString: openai.String(tokens.Text(input - input/4))},
		}
		if maxOut > 0 {
			p.MaxOutputTokens = openai.Int(maxOut)
		}
		return p
	}
	apiErr := func(err error) *openai.Error {
		var e *openai.Error
		ExpectWithOffset(1, errors.As(err, &e)).To(BeTrue(), "%v", err)
		return e
	}

	It("answers a response with one message, usage by the token rule, journalled on its wire", func() {
		serve(newScenario())
		r, err := client.Responses.New(context.Background(), params("sonnet", 1000, 100))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.ID).To(HavePrefix("resp_"))
		Expect(string(r.Status)).To(Equal("completed"))
		Expect(r.OutputText()).To(Equal(tokens.Text(answerTokens)))
		Expect(r.Usage.InputTokens).To(Equal(int64(100)))
		Expect(r.Usage.OutputTokens).To(Equal(int64(answerTokens)))
		e := srv.Entries(scName, "s")[0]
		Expect(e).To(And(HaveField("Wire", "openai-responses"), HaveField("InputTokens", 100), HaveField("MaxTokens", 1000),
			HaveField("StopReason", "completed"), HaveField("OutputTokens", answerTokens)))
	})

	It("echoes the request's settings in its response, plain and streamed, as the SDK reads them", func() {
		serve(newScenario())
		p := params("sonnet", 1000, 100)
		p.Temperature, p.TopP, p.ParallelToolCalls = openai.Float(0.25), openai.Float(0.5), openai.Bool(false)
		p.User, p.PromptCacheKey, p.SafetyIdentifier = openai.String("u-1"), openai.String("k-1"), openai.String("s-1")
		p.MaxToolCalls, p.TopLogprobs, p.PreviousResponseID = openai.Int(3), openai.Int(2), openai.String("resp_prev")
		p.Metadata = map[string]string{"run": "7"}
		p.Truncation, p.ServiceTier = responses.ResponseNewParamsTruncationAuto, responses.ResponseNewParamsServiceTierFlex
		p.Reasoning = shared.ReasoningParam{Effort: shared.ReasoningEffortLow}
		p.Text = responses.ResponseTextConfigParam{Verbosity: responses.ResponseTextConfigVerbosityLow}
		p.ToolChoice = responses.ResponseNewParamsToolChoiceUnion{OfFunctionTool: &responses.ToolChoiceFunctionParam{Name: "read"}}
		p.Tools = []responses.ToolUnionParam{{OfFunction: &responses.FunctionToolParam{Name: "read", Strict: openai.Bool(true),
			Parameters: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}}}}}
		echoes := func(r *responses.Response) {
			GinkgoHelper()
			Expect(r.Instructions.OfString).To(Equal(tokens.Text(25)))
			Expect(r.Temperature).To(Equal(0.25))
			Expect(r.TopP).To(Equal(0.5))
			Expect(r.ParallelToolCalls).To(BeFalse())
			Expect(r.User).To(Equal("u-1"))
			Expect(r.PromptCacheKey).To(Equal("k-1"))
			Expect(r.SafetyIdentifier).To(Equal("s-1"))
			Expect(r.MaxToolCalls).To(Equal(int64(3)))
			Expect(r.TopLogprobs).To(Equal(int64(2)))
			Expect(r.PreviousResponseID).To(Equal("resp_prev"))
			Expect(r.Metadata).To(Equal(shared.Metadata{"run": "7"}))
			Expect(string(r.Truncation)).To(Equal("auto"))
			Expect(string(r.ServiceTier)).To(Equal("flex"))
			Expect(string(r.Reasoning.Effort)).To(Equal("low"))
			Expect(string(r.Text.Verbosity)).To(Equal("low"))
			Expect(r.ToolChoice.Name).To(Equal("read"))
			Expect(r.Tools).To(HaveLen(1))
			Expect(r.Tools[0].Name).To(Equal("read"))
			Expect(r.Tools[0].Strict).To(BeTrue())
			Expect(r.MaxOutputTokens).To(Equal(int64(1000)))
		}
		r, err := client.Responses.New(context.Background(), p)
		Expect(err).NotTo(HaveOccurred())
		echoes(r)

		st := client.Responses.NewStreaming(context.Background(), p)
		n := 0
		for st.Next() {
			if ev := st.Current(); strings.HasPrefix(ev.Type, "response.") && ev.Response.ID != "" {
				echoes(&ev.Response) // created, in_progress, completed
				n++
			}
		}
		Expect(st.Err()).NotTo(HaveOccurred())
		Expect(n).To(Equal(3))

		// Unsent, the API's defaults; "auto" is served by the default tier.
		p = params("sonnet", 0, 100)
		p.ServiceTier = responses.ResponseNewParamsServiceTierAuto
		r, err = client.Responses.New(context.Background(), p)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.ServiceTier)).To(Equal("default"))
		Expect(r.Temperature).To(Equal(1.0))
		Expect(r.ParallelToolCalls).To(BeTrue())
		Expect(r.Tools).To(BeEmpty())
		Expect(string(r.ToolChoice.OfToolChoiceMode)).To(Equal("auto"))
		Expect(string(r.Truncation)).To(Equal("disabled"))
	})

	It("streams the response.* events, which the SDK reads whole", func() {
		serve(newScenario())
		s := client.Responses.NewStreaming(context.Background(), params("sonnet", 1000, 100))
		var seen []string
		var final responses.Response
		text := ""
		for s.Next() {
			ev := s.Current()
			seen = append(seen, ev.Type)
			if ev.Type == "response.output_text.delta" {
				text += ev.Delta
			}
			if ev.Type == "response.completed" {
				final = ev.Response
			}
		}
		Expect(s.Err()).NotTo(HaveOccurred())
		Expect(seen[:4]).To(Equal([]string{"response.created", "response.in_progress", "response.output_item.added", "response.content_part.added"}))
		Expect(seen[len(seen)-4:]).To(Equal([]string{"response.output_text.done", "response.content_part.done", "response.output_item.done", "response.completed"}))
		Expect(text).To(Equal(tokens.Text(answerTokens)))
		Expect(final.OutputText()).To(Equal(text))
		Expect(final.Usage.TotalTokens).To(Equal(int64(100 + answerTokens)))
	})

	It("cuts an answer at max_output_tokens: incomplete, reason max_output_tokens", func() {
		serve(newScenario())
		r, err := client.Responses.New(context.Background(), params("sonnet", 20, 100))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Status)).To(Equal("incomplete"))
		Expect(r.IncompleteDetails.Reason).To(Equal("max_output_tokens"))
		Expect(r.Usage.OutputTokens).To(Equal(int64(20)))
		Expect(srv.Entries(scName, "s")[0]).To(And(HaveField("Kind", "truncated"), HaveField("StopReason", "max_output_tokens")))
	})

	It("answers tool calls as function_call items, and takes their outputs back", func() {
		sc := newScenario(rule(scenario.When{Attempt: 1}, scenario.Respond{ToolUse: []scenario.ToolUse{{Name: "read", Input: `{"p":1}`}}}))
		sc.Tools = []scenario.Tool{{Name: "read"}}
		serve(sc)
		r, err := client.Responses.New(context.Background(), params("sonnet", 1000, 100))
		Expect(err).NotTo(HaveOccurred())
		Expect(r.Output).To(HaveLen(1))
		call := r.Output[0]
		Expect(call.Type).To(Equal("function_call"))
		Expect(call.CallID).To(MatchRegexp(`^call_[0-9a-f]{24}$`))
		Expect(call.Name).To(Equal("read"))
		Expect(call.Arguments.OfString).To(Equal(`{"p":1}`))

		out := responses.ResponseInputItemParamOfFunctionCallOutput("p is 1")
		out.OfFunctionCallOutput.CallID = openai.String(call.CallID)
		next := params("sonnet", 1000, 100)
		next.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{
			responses.ResponseInputItemParamOfMessage("look at p", responses.EasyInputMessageRoleUser),
			responses.ResponseInputItemParamOfFunctionCall(`{"p":1}`, call.CallID, "read"),
			out,
		}}
		r, err = client.Responses.New(context.Background(), next)
		Expect(err).NotTo(HaveOccurred())
		Expect(string(r.Status)).To(Equal("completed"))

		// An output for a call never made is refused as the real API refuses it.
		orphan := responses.ResponseInputItemParamOfFunctionCallOutput("x")
		orphan.OfFunctionCallOutput.CallID = openai.String("call_nope")
		next.Input = responses.ResponseNewParamsInputUnion{OfInputItemList: responses.ResponseInputParam{orphan}}
		_, err = client.Responses.New(context.Background(), next)
		e := apiErr(err)
		Expect(e.StatusCode).To(Equal(400))
		Expect(e.Message).To(Equal("No tool call found for function call output with call_id call_nope."))
	})

	It("fails a stream mid-way with an error event and response.failed", func() {
		serve(newScenario(scenario.Rule{Times: 1, Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultError, After: 5}}}))
		w := call{path: "/" + scName + "/v1/responses", session: "raw"}.send(srv, `{"model":"sonnet","stream":true,"input":"hi"}`)
		Expect(w.Code).To(Equal(200))
		names := eventNames(strings.NewReader(w.Body.String()))
		Expect(names).To(HaveLen(7))
		Expect(names[5:]).To(Equal([]string{"error", "response.failed"}))
		data := sseData(w.Body.String())
		Expect(data[6]).To(ContainSubstring(`"status":"failed","error":{"code":"server_error","message":"That model is currently overloaded`))
		Expect(srv.Entries(scName, "raw")[0]).To(And(HaveField("Kind", "overloaded"), HaveField("StopReason", "")))
	})

	It("words errors as OpenAI does: the window, max_output_tokens below 16, a 429 with its wait", func() {
		serve(newScenario(rule(scenario.When{Model: "sonnet"}, scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "3"}})))
		_, err := client.Responses.New(context.Background(), params("haiku", 0, 1001))
		e := apiErr(err)
		Expect(e.StatusCode).To(Equal(400))
		Expect(e.Code).To(Equal("context_length_exceeded"))
		Expect(e.Message).To(Equal("Your input exceeds the context window of this model. Please adjust your input and try again."))

		_, err = client.Responses.New(context.Background(), params("haiku", 5, 10))
		e = apiErr(err)
		Expect(e.Message).To(Equal("Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16, but got 5 instead."))

		_, err = client.Responses.New(context.Background(), params("sonnet", 100, 10))
		e = apiErr(err)
		Expect(e.StatusCode).To(Equal(429))
		Expect(e.Message).To(ContainSubstring("Please try again in 3s."))
		var body oaError
		Expect(json.Unmarshal([]byte(e.RawJSON()), &body.Error)).To(Succeed())
	})
})
