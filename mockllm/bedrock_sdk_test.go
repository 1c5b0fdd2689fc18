package mockllm_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/bedrock"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	brtypes "github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// The two Go clients of Bedrock, unmodified but for their endpoint (the
// mock on loopback) and dummy credentials, their retries off: aws-sdk-go-v2's
// bedrockruntime, whose endpoint keeps its path (so it names the scenario
// and the session), and anthropic-sdk-go's bedrock option, whose request
// path is absolute (so the server serves the scenario at its root:
// WithDefaultScenario). Each gets the answer, plain and streamed, and each
// scripted error as its own error type.
var _ = Describe("Bedrock's Go clients over loopback", func() {
	var (
		srv *mockllm.Server
		hc  *http.Client
		ep  *mockllm.Endpoint
		aw  *bedrockruntime.Client
		ac  anthropic.Client
		ctx context.Context
	)
	creds := credentials.NewStaticCredentialsProvider("AKIDFAULTBENCH", "dummy-secret", "")
	serve := func(script ...scenario.Rule) {
		srv = mockllm.New([]*scenario.Scenario{newScenario(script...)}, clock.NewVirtual(), mockllm.WithDefaultScenario(scName))
		ep, hc = live(srv)
		aw = bedrockruntime.New(bedrockruntime.Options{
			Region: "us-east-1", Credentials: creds, HTTPClient: hc, Retryer: aws.NopRetryer{},
			BaseEndpoint: aws.String(ep.SessionURL(scName, "aws")),
		})
		root := strings.TrimSuffix(ep.BaseURL(scName), scName+"/")
		ac = anthropic.NewClient(bedrock.WithConfig(aws.Config{Region: "us-east-1", Credentials: creds}),
			option.WithBaseURL(root), option.WithHTTPClient(hc), option.WithMaxRetries(0))
	}
	body := func() []byte {
		b, err := json.Marshal(map[string]any{
			"anthropic_version": "bedrock-2023-05-31", "max_tokens": 400,
			"messages": []map[string]any{{"role": "user", "content": tokens.Text(70)}},
		})
		Expect(err).NotTo(HaveOccurred())
		return b
	}
	invoke := func() error {
		_, err := aw.InvokeModel(ctx, &bedrockruntime.InvokeModelInput{ModelId: aws.String("sonnet"), Body: body(), ContentType: aws.String("application/json")})
		return err
	}
	// invokeStream reads the stream to its end: the chunks' Messages API
	// events, and the error it ended with.
	invokeStream := func() ([]string, error) {
		out, err := aw.InvokeModelWithResponseStream(ctx, &bedrockruntime.InvokeModelWithResponseStreamInput{ModelId: aws.String("sonnet"), Body: body(), ContentType: aws.String("application/json")})
		if err != nil {
			return nil, err
		}
		s := out.GetStream()
		defer s.Close()
		var events []string
		for ev := range s.Events() {
			chunk, ok := ev.(*brtypes.ResponseStreamMemberChunk)
			Expect(ok).To(BeTrue(), "%T", ev)
			events = append(events, string(chunk.Value.Bytes))
		}
		return events, s.Err()
	}
	params := anthropic.MessageNewParams{
		Model: "sonnet", MaxTokens: 400,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(tokens.Text(70)))},
	}
	anthropicStream := func() (anthropic.Message, error) {
		s := ac.Messages.NewStreaming(ctx, params)
		defer s.Close()
		var m anthropic.Message
		for s.Next() {
			Expect(m.Accumulate(s.Current())).To(Succeed())
		}
		return m, s.Err()
	}
	BeforeEach(func() { ctx = context.Background() })

	It("answers aws-sdk-go-v2 on the scenario's session, plain and as an event stream", func() {
		serve()
		out, err := aw.InvokeModel(ctx, &bedrockruntime.InvokeModelInput{ModelId: aws.String("sonnet"), Body: body(), ContentType: aws.String("application/json")})
		Expect(err).NotTo(HaveOccurred())
		var m anthropic.Message
		Expect(json.Unmarshal(out.Body, &m)).To(Succeed())
		Expect(m.Content[0].Text).To(Equal(tokens.Text(answerTokens)))
		Expect(m.ID).To(HavePrefix("msg_bdrk_"))
		Expect(aws.ToString(out.ContentType)).To(Equal("application/json"))

		events, err := invokeStream()
		Expect(err).NotTo(HaveOccurred())
		Expect(events[0]).To(HavePrefix(`{"type":"message_start"`))
		Expect(events[len(events)-1]).To(HavePrefix(`{"type":"message_stop","amazon-bedrock-invocationMetrics":{"inputTokenCount":70,"outputTokenCount":50`))

		entries := srv.Entries(scName, "aws")
		Expect(entries).To(HaveLen(2))
		for _, e := range entries {
			Expect(e).To(And(HaveField("Wire", "bedrock"), HaveField("Status", 200), HaveField("Model", "sonnet")))
		}
	})

	It("answers anthropic-sdk-go's bedrock option at the server's root, plain and streamed", func() {
		serve()
		m, err := ac.Messages.New(ctx, params)
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Content[0].Text).To(Equal(tokens.Text(answerTokens)))
		sm, err := anthropicStream()
		Expect(err).NotTo(HaveOccurred())
		Expect(sm.Content[0].Text).To(Equal(tokens.Text(answerTokens)))
		Expect(sm.StopReason).To(BeEquivalentTo("end_turn"))
		Expect(srv.Entries(scName, "default")).To(HaveExactElements(HaveField("Wire", "bedrock"), HaveField("Wire", "bedrock")))
	})

	DescribeTable("a scripted error reaches aws-sdk-go-v2 as its exception type, plain and streamed",
		func(respond scenario.Respond, status int, target func(error) bool) {
			serve(rule(scenario.When{}, respond))
			err := invoke()
			Expect(target(err)).To(BeTrue(), "%v", err)
			var re interface{ HTTPStatusCode() int }
			Expect(errors.As(err, &re)).To(BeTrue())
			Expect(re.HTTPStatusCode()).To(Equal(status))
			_, err = invokeStream()
			Expect(target(err)).To(BeTrue(), "%v", err)
		},
		Entry("429", scripted429, 429, isErr[*brtypes.ThrottlingException]),
		Entry("ModelNotReadyException", scenario.Respond{Status: 429, Type: "ModelNotReadyException", EarlyRetry: scenario.EarlyRetryScripted}, 429, isErr[*brtypes.ModelNotReadyException]),
		Entry("503", status(503), 503, isErr[*brtypes.ServiceUnavailableException]),
		Entry("408", status(408), 408, isErr[*brtypes.ModelTimeoutException]),
		Entry("500", status(500), 500, isErr[*brtypes.InternalServerException]),
		Entry("403", status(403), 403, isErr[*brtypes.AccessDeniedException]),
		Entry("400", status(400), 400, isErr[*brtypes.ValidationException]),
	)

	DescribeTable("an error inside the event stream reaches aws-sdk-go-v2 as the stream's exception",
		func(typ string, target func(error) bool) {
			serve(scenario.Rule{Respond: scenario.Respond{Type: typ, Fault: scenario.Fault{Kind: scenario.FaultError, After: 3}}})
			events, err := invokeStream()
			Expect(events).To(HaveLen(3))
			Expect(target(err)).To(BeTrue(), "%v", err)
		},
		Entry("throttlingException", "ThrottlingException", isErr[*brtypes.ThrottlingException]),
		Entry("throttlingException, for Anthropic's rate_limit_error", "rate_limit_error", isErr[*brtypes.ThrottlingException]),
		Entry("serviceUnavailableException, for an overload", "", isErr[*brtypes.ServiceUnavailableException]),
		Entry("modelStreamErrorException, for an error the stream has no member for", "ModelNotReadyException", isErr[*brtypes.ModelStreamErrorException]),
	)

	It("hands anthropic-sdk-go a scripted error as *anthropic.Error, and an exception inside a stream as an error event", func() {
		serve(rule(scenario.When{}, scripted429))
		_, err := ac.Messages.New(ctx, params)
		var ae *anthropic.Error
		Expect(errors.As(err, &ae)).To(BeTrue(), "%v", err)
		Expect(ae.StatusCode).To(Equal(429))
		Expect(ae.Response.Header.Get("X-Amzn-ErrorType")).To(HavePrefix("ThrottlingException:"))
		Expect(ae.Response.Header.Get("Retry-After")).To(BeEmpty())
		serve(scenario.Rule{Respond: scenario.Respond{Type: "ThrottlingException", Fault: scenario.Fault{Kind: scenario.FaultError, After: 3}}})
		_, err = anthropicStream()
		Expect(err).To(MatchError(ContainSubstring("throttlingException")))
	})

	It("refuses a request without Authorization as AWS does, and a malformed body with a ValidationException", func() {
		serve()
		resp, err := post(ctx, hc, ep.BaseURL(scName)+"model/sonnet/invoke", "x", string(body()))
		Expect(err).NotTo(HaveOccurred())
		b, _ := readAll(resp)
		Expect(resp.StatusCode).To(Equal(403))
		Expect(resp.Header.Get("X-Amzn-ErrorType")).To(HavePrefix("MissingAuthenticationTokenException"))
		Expect(string(b)).To(Equal(`{"message":"Missing Authentication Token"}`))

		_, err = aw.InvokeModel(ctx, &bedrockruntime.InvokeModelInput{ModelId: aws.String("sonnet"), Body: []byte(`{"max_tokens":1,"messages":[]}`)})
		var ve *brtypes.ValidationException
		Expect(errors.As(err, &ve)).To(BeTrue(), "%v", err)
		Expect(ve.ErrorMessage()).To(ContainSubstring("required key [anthropic_version] not found"))
		_, err = aw.InvokeModel(ctx, &bedrockruntime.InvokeModelInput{ModelId: aws.String("nope"), Body: body()})
		Expect(errors.As(err, &ve)).To(BeTrue(), "%v", err)
		Expect(ve.ErrorMessage()).To(HavePrefix("The provided model identifier is invalid."))
	})
})

// isErr reports whether err is, or wraps, an error of type T.
func isErr[T error](err error) bool {
	var t T
	return errors.As(err, &t)
}
