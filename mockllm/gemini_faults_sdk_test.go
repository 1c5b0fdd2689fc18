package mockllm_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"
	"google.golang.org/genai"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// The official Gemini Go SDK (google.golang.org/genai) on each transport
// fault, plain and streamed: what it gives its caller (an error, or an
// answer it does not know is short) and what the journal records.
var _ = Describe("the Gemini SDK on transport faults", func() {
	var (
		srv    *mockllm.Server
		client *genai.Client
		clk    *gate
	)
	start := func(r scenario.Rule) {
		sc := newScenario(r)
		sc.Models["gemini-test"] = scenario.Model{ContextWindow: 100000000, MaxOutput: 500}
		sc.Turn.Model, sc.Turn.Wire = "gemini-test", scenario.WireGemini
		srv = mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
		Expect(srv.Open(scName, "g1", clk)).To(Succeed())
		ep, err := mockllm.Start(srv, "127.0.0.1:0")
		Expect(err).NotTo(HaveOccurred())
		transport := &http.Transport{Proxy: nil}
		DeferCleanup(func() {
			Expect(ep.Close()).To(Succeed())
			transport.CloseIdleConnections()
		})
		client, err = genai.NewClient(context.Background(), &genai.ClientConfig{
			APIKey: "test", Backend: genai.BackendGeminiAPI, HTTPClient: &http.Client{Transport: transport},
			HTTPOptions: genai.HTTPOptions{BaseURL: ep.BaseURL(scName), Headers: http.Header{mockllm.SessionHeader: {"g1"}}},
		})
		Expect(err).NotTo(HaveOccurred())
	}
	BeforeEach(func() { clk = newGate() })
	config := &genai.GenerateContentConfig{MaxOutputTokens: 400, AutomaticContinuation: genai.Ptr(false)}
	contents := func(n int) []*genai.Content {
		return []*genai.Content{{Role: genai.RoleUser, Parts: []*genai.Part{{Text: tokens.Text(n)}}}}
	}
	// ask sends one request, plain or streamed, and returns the text the
	// SDK gave, how many frames (1 for a plain answer), and its error.
	ask := func(ctx context.Context, streamed bool, input int) (string, int, error) {
		if !streamed {
			r, err := client.Models.GenerateContent(ctx, "gemini-test", contents(input), config)
			if err != nil {
				return "", 0, err
			}
			return r.Text(), 1, nil
		}
		text, frames := "", 0
		for chunk, err := range client.Models.GenerateContentStream(ctx, "gemini-test", contents(input), config) {
			if err != nil {
				return text, frames, err
			}
			text += chunk.Text()
			frames++
		}
		return text, frames, nil
	}
	fault := func(f scenario.Fault) scenario.Rule {
		return scenario.Rule{Times: 1, Respond: scenario.Respond{Fault: f}}
	}

	DescribeTable("errors, or says how short its answer is, and the journal says what was served",
		func(r scenario.Rule, streamed bool, input int, kind string, check func(text string, frames int, err error)) {
			start(r)
			ctx := context.Background()
			if r.Respond.Fault.Kind == scenario.FaultHang {
				var cancel context.CancelFunc
				// Bounded: the SDK's own timeout is what ends a hang.
				ctx, cancel = context.WithTimeout(ctx, 200*time.Millisecond)
				defer cancel()
			}
			text, frames, err := ask(ctx, streamed, input)
			check(text, frames, err)
			es := srv.Entries(scName, "g1")
			Expect(es).To(HaveLen(1))
			Expect(es[0].Kind).To(Equal(kind), "%+v", es[0])
			Expect(es[0].Wire).To(Equal("gemini"))
			Expect(es[0].Stream).To(Equal(streamed))
		},
		Entry("reset, plain", fault(scenario.Fault{Kind: scenario.FaultReset}), false, 70, "connection", fails),
		Entry("reset, streamed", fault(scenario.Fault{Kind: scenario.FaultReset}), true, 70, "connection", fails),
		Entry("hang, plain, until the context's deadline", fault(scenario.Fault{Kind: scenario.FaultHang}), false, 70, "timeout", timesOut),
		Entry("hang, streamed, until the context's deadline", fault(scenario.Fault{Kind: scenario.FaultHang}), true, 70, "timeout", timesOut),
		Entry("empty, plain: an answer with no candidate, and no error", fault(scenario.Fault{Kind: scenario.FaultEmpty}), false, 70, "empty", quietlyEmpty),
		Entry("empty, streamed: no frame, and no error", fault(scenario.Fault{Kind: scenario.FaultEmpty}), true, 70, "empty", quietlyEmpty),
		Entry("garbage, plain", fault(scenario.Fault{Kind: scenario.FaultGarbage}), false, 70, "connection", fails),
		Entry("garbage, streamed", fault(scenario.Fault{Kind: scenario.FaultGarbage}), true, 70, "connection", fails),
		Entry("cut_after, plain: the body stops half-way", fault(scenario.Fault{Kind: scenario.FaultCut, After: 3}), false, 70, "connection", fails),
		Entry("cut_after, streamed: three frames, then the SDK's error", fault(scenario.Fault{Kind: scenario.FaultCut, After: 3}), true, 70, "connection", cutAfter(3)),
		Entry("dribble, plain: slow but whole", fault(scenario.Fault{Dribble: scenario.Duration(time.Second)}), false, 70, "ok", whole),
		Entry("dribble, streamed: slow but whole", fault(scenario.Fault{Dribble: scenario.Duration(time.Second)}), true, 70, "ok", whole),
		Entry("a body over 32 MB, plain: 413", scenario.Rule{Respond: scenario.Respond{OK: true}}, false, 9<<20, "request_too_large", tooLarge),
		Entry("a body over 32 MB, streamed: 413", scenario.Rule{Respond: scenario.Respond{OK: true}}, true, 9<<20, "request_too_large", tooLarge),
	)
})

// The outcomes the Gemini SDK gives a fault.
var (
	fails = func(_ string, _ int, err error) {
		GinkgoHelper()
		Expect(err).To(HaveOccurred())
		var e genai.APIError
		Expect(errors.As(err, &e)).To(BeFalse(), "a transport fault, no API error: %v", err)
	}
	timesOut = func(_ string, _ int, err error) {
		GinkgoHelper()
		Expect(err).To(MatchError(context.DeadlineExceeded))
	}
	// The SDK takes an empty 200 as an answer: a plain one with no
	// candidate, a stream with no frame; a caller that does not check for
	// a candidate goes on with nothing.
	quietlyEmpty = func(text string, frames int, err error) {
		GinkgoHelper()
		Expect(err).NotTo(HaveOccurred())
		Expect(frames).To(BeNumerically("<=", 1))
		Expect(text).To(BeEmpty())
	}
	whole = func(text string, _ int, err error) {
		GinkgoHelper()
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Equal(tokens.Text(answerTokens)))
	}
	tooLarge = func(_ string, _ int, err error) {
		GinkgoHelper()
		var e genai.APIError
		Expect(errors.As(err, &e)).To(BeTrue(), "%v", err)
		Expect(e.Code).To(Equal(http.StatusRequestEntityTooLarge))
	}
)

func cutAfter(n int) func(string, int, error) {
	return func(text string, frames int, err error) {
		GinkgoHelper()
		Expect(frames).To(Equal(n))
		Expect(text).NotTo(BeEmpty())
		Expect(strings.HasPrefix(tokens.Text(answerTokens), text)).To(BeTrue())
		Expect(err).To(HaveOccurred(), fmt.Sprintf("after %d frames", frames))
	}
}
