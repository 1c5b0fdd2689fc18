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
