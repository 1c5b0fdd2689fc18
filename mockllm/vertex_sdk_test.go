package mockllm_test

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/anthropics/anthropic-sdk-go/v2/vertex"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// anthropic-sdk-go's vertex option, unmodified but for its base URL (the
// mock's address: the option makes the path absolute, so the project
// names the scenario, <scenario>--<session>) and a static dummy token,
// parses every answer and error of the mock's Vertex wire, plain and
// streamed: Google's zero-quota 429 array, a model that is not enabled,
// an overloaded model in Anthropic's envelope, an error inside a stream.
var _ = Describe("anthropic-sdk-go's vertex option over loopback", func() {
	var (
		srv    *mockllm.Server
		client anthropic.Client
		hc     *http.Client
		base   string
		ctx    context.Context
	)
	serve := func(script ...scenario.Rule) {
		srv = mockllm.New([]*scenario.Scenario{newScenario(script...)}, clock.NewVirtual())
		var ep *mockllm.Endpoint
		ep, hc = live(srv)
		base = strings.TrimSuffix(ep.BaseURL(scName), scName+"/")
		creds := &google.Credentials{TokenSource: oauth2.StaticTokenSource(&oauth2.Token{AccessToken: "dummy"})}
		client = anthropic.NewClient(
			option.WithHTTPClient(hc), vertex.WithCredentials(context.Background(), "us-east5", scName+"--vx", creds),
			option.WithBaseURL(base), option.WithMaxRetries(0),
		)
	}
	params := func(model string) anthropic.MessageNewParams {
		return anthropic.MessageNewParams{
			Model:     anthropic.Model(model),
			MaxTokens: 400,
			Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(tokens.Text(70)))},
		}
	}
	apiError := func(err error) *anthropic.Error {
		var e *anthropic.Error
		ExpectWithOffset(1, errors.As(err, &e)).To(BeTrue(), "%v", err)
		return e
	}
	stream := func(model string) (anthropic.Message, error) {
		s := client.Messages.NewStreaming(ctx, params(model))
		defer s.Close()
		var m anthropic.Message
		for s.Next() {
			if err := m.Accumulate(s.Current()); err != nil {
				return m, err
			}
		}
		return m, s.Err()
	}
	both := func(model string) []error {
		_, plain := client.Messages.New(ctx, params(model))
		_, streamed := stream(model)
		return []error{plain, streamed}
	}
	BeforeEach(func() { ctx = context.Background() })

	It("answers rawPredict and streamRawPredict, the model named by the path, the session by the project", func() {
		serve()
		m, err := client.Messages.New(ctx, params("sonnet"))
		Expect(err).NotTo(HaveOccurred())
		Expect(m.Content[0].Text).To(Equal(tokens.Text(answerTokens)))
		Expect(m.ID).To(HavePrefix("msg_vrtx_"))
		Expect(m.Usage.InputTokens).To(BeEquivalentTo(70))

		sm, err := stream("sonnet")
		Expect(err).NotTo(HaveOccurred())
		Expect(sm.Content[0].Text).To(Equal(tokens.Text(answerTokens)))
		Expect(string(sm.StopReason)).To(Equal("end_turn"))

		entries := srv.Entries(scName, "vx")
		Expect(entries).To(HaveLen(2))
		for _, e := range entries {
			Expect(e).To(And(HaveField("Wire", "vertex"), HaveField("Status", 200), HaveField("Model", "sonnet")))
		}
	})

	It("lets the session header win over the project's session", func() {
		serve()
		_, err := client.Messages.New(ctx, params("sonnet"), option.WithHeader(mockllm.SessionHeader, "hd"))
		Expect(err).NotTo(HaveOccurred())
		Expect(srv.Entries(scName, "hd")).To(HaveLen(1))
		Expect(srv.Entries(scName, "vx")).To(BeEmpty())
	})

	It("words a 429 as Vertex's quota error, a JSON array with no retry-after, which the SDK still parses", func() {
		serve(rule(scenario.When{}, status(429)))
		for _, err := range both("sonnet") {
			e := apiError(err)
			Expect(e.StatusCode).To(Equal(429))
			Expect(e.RawJSON()).To(HavePrefix(`[{"error":{"code":429,"message":"Quota exceeded for aiplatform.googleapis.com/online_prediction_requests_per_base_model`))
			Expect(e.RawJSON()).To(HaveSuffix(`"status":"RESOURCE_EXHAUSTED"}}]`))
			Expect(e.Response.Header.Get("Retry-After")).To(BeEmpty())
		}
		Expect(srv.Entries(scName, "vx")[0]).To(HaveField("Kind", "rate_limit"))
	})

	It("words a FAILED_PRECONDITION as Google's 400, and an overloaded model as Anthropic's 529", func() {
		precondition := scenario.Respond{Status: 400, Type: "FAILED_PRECONDITION", Message: "Project is not allowed to use Publisher Model"}
		serve(rule(scenario.When{Attempt: 1}, precondition), rule(scenario.When{Attempt: 2}, precondition), rule(scenario.When{}, status(529)))
		for _, err := range both("sonnet") {
			e := apiError(err)
			Expect(e.StatusCode).To(Equal(400))
			Expect(e.RawJSON()).To(Equal(`{"error":{"code":400,"message":"Project is not allowed to use Publisher Model","status":"FAILED_PRECONDITION"}}`))
		}
		for _, err := range both("sonnet") {
			e := apiError(err)
			Expect(e.StatusCode).To(Equal(529))
			Expect(e.RawJSON()).To(ContainSubstring(`"type":"overloaded_error"`))
		}
	})

	It("ends a stream with Anthropic's error event, which the SDK reports", func() {
		serve(scenario.Rule{Respond: scenario.Respond{Fault: scenario.Fault{Kind: scenario.FaultError, After: 3}}})
		_, err := stream("sonnet")
		Expect(err).To(HaveOccurred())
		Expect(err.Error()).To(ContainSubstring("overloaded"))
	})

	It("answers a model the scenario does not serve with Google's NOT_FOUND naming the publisher model", func() {
		serve()
		e := apiError(func() error { _, err := client.Messages.New(ctx, params("claude-nope")); return err }())
		Expect(e.StatusCode).To(Equal(404))
		Expect(e.RawJSON()).To(ContainSubstring("Publisher Model `publishers/anthropic/models/claude-nope` was not found"))
		Expect(e.RawJSON()).To(ContainSubstring(`"status":"NOT_FOUND"`))
	})

	It("counts tokens on count-tokens:rawPredict", func() {
		serve()
		n, err := client.Messages.CountTokens(ctx, anthropic.MessageCountTokensParams{
			Model:    "sonnet",
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(tokens.Text(70)))},
		})
		Expect(err).NotTo(HaveOccurred())
		Expect(n.InputTokens).To(BeEquivalentTo(70))
	})

	It("refuses a request without a bearer token, or without anthropic_version, as Vertex does", func() {
		serve()
		path := base + "v1/projects/" + scName + "/locations/us-east5/publishers/anthropic/models/sonnet:rawPredict"
		body := `{"anthropic_version":"vertex-2023-10-16","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`
		resp, err := hc.Post(path, "application/json", strings.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		b, _ := readAll(resp)
		Expect(resp.StatusCode).To(Equal(401))
		Expect(string(b)).To(HavePrefix(`{"error":{"code":401,"message":"Request had invalid authentication credentials.`))
		Expect(string(b)).To(HaveSuffix(`"status":"UNAUTHENTICATED"}}`))

		req, err := http.NewRequestWithContext(ctx, http.MethodPost, path, strings.NewReader(`{"max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`))
		Expect(err).NotTo(HaveOccurred())
		req.Header.Set("Authorization", "Bearer x")
		resp, err = hc.Do(req)
		Expect(err).NotTo(HaveOccurred())
		b, _ = readAll(resp)
		Expect(resp.StatusCode).To(Equal(400))
		Expect(string(b)).To(ContainSubstring(`"message":"anthropic_version: Field required"`))
	})
})
