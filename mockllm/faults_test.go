package mockllm_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"syscall"
	"time"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/within"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("transport faults over loopback", func() {
	var (
		srv    *mockllm.Server
		url    string
		client *http.Client
		clk    *gate
		good   string
	)

	// serve puts a scenario whose first answer is f on loopback, with
	// session "s" on clk.
	serve := func(f scenario.Fault) {
		srv = mockllm.New([]*scenario.Scenario{faulty(f)}, clock.NewVirtual())
		Expect(srv.Open(scName, "s", clk)).To(Succeed())
		var ep *mockllm.Endpoint
		ep, client = live(srv)
		url = ep.BaseURL(scName) + "v1/messages"
	}

	entry := func() mockllm.Entry {
		es := srv.Entries(scName, "s")
		Expect(es).NotTo(BeEmpty())
		return es[0]
	}

	BeforeEach(func() {
		clk = newGate()
		good = ask("sonnet", 1000, 100)
	})

	It("reset: the client reads connection reset by peer, and nothing else", func() {
		serve(scenario.Fault{Kind: scenario.FaultReset})
		_, err := post(context.Background(), client, url, "s", good)
		Expect(errors.Is(err, syscall.ECONNRESET)).To(BeTrue(), "%v", err)
		Expect(entry()).To(And(
			HaveField("Status", 0), HaveField("Kind", "connection"), HaveField("Fault", "reset")))

		resp, err := post(context.Background(), client, url, "s", good) // the next one is answered
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(200))
		_, _ = readAll(resp)
	})

	// A request that gets no HTTP answer never reached the model: it
	// writes no prompt cache, so the resend that follows writes it, and
	// reads nothing.
	DescribeTable("a fault that sends no answer writes no prompt cache",
		func(f scenario.Fault) {
			sc := faulty(f)
			m := sc.Models["sonnet"]
			m.Cache = &scenario.Cache{}
			sc.Models["sonnet"] = m
			srv = mockllm.New([]*scenario.Scenario{sc}, clock.NewVirtual())
			Expect(srv.Open(scName, "s", clk)).To(Succeed())
			var ep *mockllm.Endpoint
			ep, client = live(srv)
			url = ep.BaseURL(scName) + "v1/messages"
			body := cachedBody(2000, "", true, 1500)
			_, err := post(context.Background(), client, url, "s", body)
			Expect(err).To(HaveOccurred())
			resp, err := post(context.Background(), client, url, "s", body)
			Expect(err).NotTo(HaveOccurred())
			b, err := readAll(resp)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.StatusCode).To(Equal(200), string(b))
			var u cacheUsage
			Expect(json.Unmarshal(b, &u)).To(Succeed())
			Expect(u.Usage.CacheRead).To(Equal(0), "the resend read a prefix the faulted request never sent to the model")
			Expect(u.Usage.CacheCreation).To(Equal(3501))
		},
		Entry("reset", scenario.Fault{Kind: scenario.FaultReset}),
		Entry("garbage", scenario.Fault{Kind: scenario.FaultGarbage}),
	)

	It("garbage: the client reads bytes that are no HTTP response", func() {
		serve(scenario.Fault{Kind: scenario.FaultGarbage})
		_, err := post(context.Background(), client, url, "s", good)
		Expect(err).To(MatchError(ContainSubstring("malformed HTTP")))
		Expect(entry()).To(And(HaveField("Status", 0), HaveField("Kind", "connection")))
	})

	It("malformed: a 200 whose body is whole but not JSON", func() {
		serve(scenario.Fault{Kind: scenario.FaultMalformed})
		resp, err := post(context.Background(), client, url, "s", good)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(200))
		body, err := readAll(resp)
		Expect(err).NotTo(HaveOccurred())
		Expect(body).NotTo(BeEmpty())
		Expect(json.Valid(body)).To(BeFalse())
		Expect(resp.ContentLength).To(Equal(int64(len(body))))
		Expect(entry()).To(And(HaveField("Status", 200), HaveField("Kind", "malformed")))
	})

	It("empty: a 200 with no body at all", func() {
		serve(scenario.Fault{Kind: scenario.FaultEmpty})
		resp, err := post(context.Background(), client, url, "s", good)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(200))
		Expect(resp.ContentLength).To(BeZero())
		Expect(readAll(resp)).To(BeEmpty())
		Expect(entry()).To(And(HaveField("Status", 200), HaveField("Kind", "empty")))
	})

	It("cut: a 200 whose body stops half-way, with an unexpected EOF", func() {
		serve(scenario.Fault{Kind: scenario.FaultCut, After: 3})
		resp, err := post(context.Background(), client, url, "s", good)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(200))
		body, err := readAll(resp)
		Expect(err).To(MatchError(io.ErrUnexpectedEOF))
		Expect(len(body)).To(BeNumerically("<", resp.ContentLength))
		Expect(entry()).To(And(HaveField("Status", 200), HaveField("Kind", "connection"), HaveField("Fault", "{cut_after: 3}")))
	})

	Describe("hang", func() {
		BeforeEach(func() { serve(scenario.Fault{Kind: scenario.FaultHang}) })

		It("holds the request until the client gives up", func() {
			ctx, cancel := context.WithCancel(context.Background())
			errs := make(chan error, 1)
			go func() {
				_, err := post(ctx, client, url, "s", good)
				errs <- err
			}()
			within.Recv(GinkgoT(), clk.hung, "the request to hang")
			Consistently(errs, "50ms").ShouldNot(Receive())
			cancel()
			Expect(within.Recv(GinkgoT(), errs, "the client to give up")).To(MatchError(context.Canceled))
			Expect(entry()).To(And(HaveField("Status", 0), HaveField("Kind", "timeout"), HaveField("Fault", "hang")))
		})

		It("ends when the server closes", func() {
			ep, err := mockllm.Start(srv, "127.0.0.1:0")
			Expect(err).NotTo(HaveOccurred())
			errs := make(chan error, 1)
			go func() {
				_, err := post(context.Background(), client, ep.BaseURL(scName)+"v1/messages", "s", good)
				errs <- err
			}()
			within.Recv(GinkgoT(), clk.hung, "the request to hang")
			Expect(ep.Close()).To(Succeed()) // returns: the hanging handler saw the shutdown
			Expect(within.Recv(GinkgoT(), errs, "the client to give up")).To(HaveOccurred())
		})
	})

	Describe("slow answers, on the session's clock", func() {
		It("delay: waits before the headers, then answers", func() {
			serve(scenario.Fault{Delay: scenario.Duration(20 * time.Second)})
			resp, err := post(context.Background(), client, url, "s", good)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.StatusCode).To(Equal(200))
			Expect(json.Valid(must(readAll(resp)))).To(BeTrue())
			Expect(clk.Now().Sub(clock.Epoch)).To(Equal(20 * time.Second))
			Expect(entry()).To(And(HaveField("Status", 200), HaveField("Kind", "ok"), HaveField("Fault", "{delay: 20s}")))
		})

		It("dribble: sends a body in pieces of 64 bytes, each after the wait", func() {
			serve(scenario.Fault{Dribble: scenario.Duration(time.Second)})
			resp, err := post(context.Background(), client, url, "s", good)
			Expect(err).NotTo(HaveOccurred())
			body := must(readAll(resp))
			Expect(json.Valid(body)).To(BeTrue())
			pieces := (len(body) + 63) / 64
			Expect(clk.Now().Sub(clock.Epoch)).To(Equal(time.Duration(pieces) * time.Second))
		})

		It("a delay past the client's deadline: no status, a timeout, and the connection closed", func() {
			clk.deadline = clk.Now().Add(10 * time.Second)
			serve(scenario.Fault{Delay: scenario.Duration(20 * time.Second)})
			_, err := post(context.Background(), client, url, "s", good)
			Expect(err).To(HaveOccurred())
			Expect(entry()).To(And(HaveField("Status", 0), HaveField("Kind", "timeout")))
		})

		It("a dribble past the client's deadline: the status, then a body that stops", func() {
			clk.deadline = clk.Now().Add(3 * time.Second)
			serve(scenario.Fault{Dribble: scenario.Duration(time.Second)})
			resp, err := post(context.Background(), client, url, "s", good)
			Expect(err).NotTo(HaveOccurred())
			body, err := readAll(resp)
			Expect(err).To(MatchError(io.ErrUnexpectedEOF))
			Expect(body).To(HaveLen(3 * 64))
			Expect(entry()).To(And(HaveField("Status", 200), HaveField("Kind", "timeout")))
		})
	})
})

// must returns v, failing the spec on err.
func must[T any](v T, err error) T {
	ExpectWithOffset(1, err).NotTo(HaveOccurred())
	return v
}
