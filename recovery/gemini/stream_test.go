package gemini_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/h2non/gock"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/gemini"
)

func sse(frames ...string) string {
	var b strings.Builder
	for _, f := range frames {
		b.WriteString("data: " + f + "\r\n\r\n")
	}
	return b.String()
}

const (
	frame1    = `{"candidates":[{"content":{"parts":[{"text":"Bon"}],"role":"model"},"index":0}],"modelVersion":"gemini-test","responseId":"resp-s"}`
	frame2    = `{"candidates":[{"content":{"parts":[{"text":"jour."}],"role":"model"},"index":0}],"modelVersion":"gemini-test","responseId":"resp-s"}`
	lastFrame = `{"candidates":[{"content":{"parts":[{"text":""}],"role":"model"},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":12,"candidatesTokenCount":3,"totalTokenCount":15},"modelVersion":"gemini-test","responseId":"resp-s"}`
	errFrame  = `{"error":{"code":429,"message":"You exceeded your current quota.","status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"7s"}]}}`
)

var _ = Describe("Provider.WithStream", func() {
	var (
		httpClient *http.Client
		provider   *gemini.Provider
		ctx        context.Context
	)
	streamed := func() *gock.Request {
		return gock.New(baseURL).Post("/v1beta/models/gemini-test:streamGenerateContent").MatchParam("alt", "sse")
	}
	BeforeEach(func() {
		ctx = context.Background()
		httpClient = &http.Client{}
		gock.InterceptClient(httpClient)
		gock.DisableNetworking()
		DeferCleanup(gock.OffAll)
		provider = newProvider(httpClient).WithStream(true)
	})

	It("gathers the frames into one answer, usage from the last", func() {
		streamed().Reply(200).SetHeader("Content-Type", "text/event-stream").BodyString(sse(frame1, frame2, lastFrame))
		resp, err := provider.Send(ctx, turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("Bonjour."))
		Expect(resp.StopReason).To(Equal("end_turn"))
		Expect(resp.InputTokens).To(Equal(12))
		Expect(resp.OutputTokens).To(Equal(3))
		Expect(gock.IsDone()).To(BeTrue())
	})

	It("stops reading at the frame with a finishReason and usage", func() {
		streamed().Reply(200).BodyString(sse(frame1, lastFrame, "not json"))
		resp, err := provider.Send(ctx, turn())
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.Text).To(Equal("Bon"))
	})

	It("reads an error inside the stream as its status, after a 200", func() {
		streamed().Reply(200).BodyString(sse(frame1, errFrame))
		_, err := provider.Send(ctx, turn())
		Expect(errors.Is(err, recovery.ErrStreamBroken)).To(BeTrue(), "%v", err)
		var apiErr *recovery.APIError
		Expect(errors.As(err, &apiErr)).To(BeTrue())
		Expect(apiErr.StatusCode).To(Equal(200))
		Expect(apiErr.Type).To(Equal("RESOURCE_EXHAUSTED"))
		Expect(apiErr.RetryDelay).To(Equal(7 * time.Second))
		f := recovery.DefaultClassifier(nil, err)
		Expect(f.Kind).To(Equal(recovery.KindRateLimit))
		Expect(f.MidStream).To(BeTrue())
	})

	It("takes a stream that ends before a finishReason as cut", func() {
		streamed().Reply(200).BodyString(sse(frame1, frame2))
		_, err := provider.Send(ctx, turn())
		var be *recovery.BodyError
		Expect(errors.As(err, &be)).To(BeTrue(), "%v", err)
		Expect(errors.Is(err, io.ErrUnexpectedEOF)).To(BeTrue())
		Expect(errors.Is(err, recovery.ErrStreamBroken)).To(BeTrue())
		Expect(recovery.DefaultClassifier(nil, err).Kind).To(Equal(recovery.KindConnection))
	})

	It("reads an error status before the stream as a plain call's", func() {
		streamed().Reply(503).BodyString(unavail)
		_, err := provider.Send(ctx, turn())
		Expect(errors.Is(err, recovery.ErrStreamBroken)).To(BeFalse())
		f := recovery.DefaultClassifier(nil, err)
		Expect(f.Kind).To(Equal(recovery.KindOverloaded))
		Expect(f.StatusCode).To(Equal(503))
	})
})
