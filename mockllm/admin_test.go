package mockllm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the journal and reset over HTTP", func() {
	var (
		srv  *mockllm.Server
		base string
		hc   *http.Client
	)

	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario(scenario.Rule{Times: 1, Respond: status(529)})}, clock.NewVirtual())
		var ep *mockllm.Endpoint
		ep, hc = live(srv)
		base = "http://" + ep.Addr
	})

	journal := func(query string) []mockllm.Entry {
		resp, err := hc.Get(base + mockllm.JournalPath + query)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(200))
		Expect(resp.Header.Get("Content-Type")).To(Equal("application/json"))
		var out []mockllm.Entry
		Expect(json.Unmarshal(must(readAll(resp)), &out)).To(Succeed())
		return out
	}

	It("serves every request as JSON, filtered by scenario and session, with the retry count the SDKs send", func() {
		Expect(journal("")).To(BeEmpty())
		for _, s := range []string{"a", "b", "a"} {
			req, _ := http.NewRequest(http.MethodPost, base+"/sc/v1/messages", strings.NewReader(ask("sonnet", 10, 10)))
			req.Header.Set(mockllm.SessionHeader, s)
			req.Header.Set("X-Stainless-Retry-Count", "1")
			resp, err := hc.Do(req)
			Expect(err).NotTo(HaveOccurred())
			_, _ = readAll(resp)
		}
		Expect(journal("")).To(HaveLen(3))
		a := journal("?scenario=sc&session=a")
		Expect(a).To(HaveLen(2))
		Expect(a[0].Status).To(Equal(529))
		Expect(a[1].Status).To(Equal(200))
		Expect(a[1].RetryCount).To(HaveValue(Equal(1)))
		Expect(journal("?session=nobody")).To(BeEmpty())

		resp, err := hc.Get(base + mockllm.JournalPath)
		Expect(err).NotTo(HaveOccurred())
		raw := string(must(readAll(resp)))
		for _, key := range []string{"scenario", "session", "n", "time_ms", "model", "max_tokens", "input_tokens", "status", "kind", "retry_count"} {
			Expect(raw).To(ContainSubstring(`"` + key + `":`))
		}
	})

	It("forgets every session on POST reset, and takes no other method", func() {
		resp, err := post(context.Background(), hc, base+"/sc/v1/messages", "a", ask("sonnet", 10, 10))
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(529))
		_, _ = readAll(resp)

		resp, err = hc.Get(base + mockllm.ResetPath)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(http.StatusMethodNotAllowed))
		_, _ = readAll(resp)
		Expect(journal("")).To(HaveLen(1))

		resp, err = post(context.Background(), hc, base+mockllm.ResetPath, "", "")
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(200))
		_, _ = readAll(resp)
		Expect(journal("")).To(BeEmpty())

		resp, err = post(context.Background(), hc, base+"/sc/v1/messages", "a", ask("sonnet", 10, 10))
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(529)) // the script starts over
		_, _ = readAll(resp)
	})

	It("takes only GET and HEAD on the journal", func() {
		resp, err := post(context.Background(), hc, base+mockllm.JournalPath, "", "")
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(http.StatusMethodNotAllowed))
		Expect(resp.Header.Get("Allow")).To(Equal(http.MethodGet))
		_, _ = readAll(resp)
	})

	It("answers an unknown admin path with 404", func() {
		resp, err := hc.Get(base + "/_faultbench/nothing")
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(404))
		_, _ = readAll(resp)
	})
})

var _ = Describe("100 sessions at once over loopback", func() {
	It("each see exactly their own script, in their own order", func() {
		const sessions, requests = 100, 6
		srv := mockllm.New([]*scenario.Scenario{newScenario(
			scenario.Rule{When: scenario.When{Attempt: 2}, Respond: status(500)},
			scenario.Rule{Times: 2, Respond: scenario.Respond{Status: 429, Headers: map[string]string{"retry-after": "1"}, EarlyRetry: scenario.EarlyRetryScripted}},
			scenario.Rule{When: scenario.When{Model: "haiku"}, Respond: status(529)},
		)}, clock.NewVirtual())
		ep, _ := live(srv)
		url := ep.BaseURL(scName) + "v1/messages"
		transport := &http.Transport{Proxy: nil, MaxIdleConnsPerHost: sessions}
		DeferCleanup(transport.CloseIdleConnections)
		hc := &http.Client{Transport: transport}

		// Half the sessions ask for haiku after their third request: each
		// must see its own rule counts and its own model.
		var wg sync.WaitGroup
		got := make([][]int, sessions)
		for i := range sessions {
			wg.Go(func() {
				defer GinkgoRecover()
				name := fmt.Sprintf("client-%03d", i)
				for n := range requests {
					model := "sonnet"
					if i%2 == 1 && n >= 3 {
						model = "haiku"
					}
					resp, err := post(context.Background(), hc, url, name, ask(model, 100, 10+i))
					Expect(err).NotTo(HaveOccurred())
					_, _ = io.Copy(io.Discard, resp.Body)
					_ = resp.Body.Close()
					got[i] = append(got[i], resp.StatusCode)
				}
			})
		}
		wg.Wait()
		for i := range sessions {
			want := []int{429, 500, 429, 200, 200, 200}
			if i%2 == 1 {
				want = []int{429, 500, 429, 529, 529, 529}
			}
			Expect(got[i]).To(Equal(want), "session %d", i)
			es := srv.Entries(scName, fmt.Sprintf("client-%03d", i))
			Expect(es).To(HaveLen(requests))
			for n, e := range es {
				Expect(e.N).To(Equal(n + 1))
				Expect(e.InputTokens).To(Equal(10 + i)) // its own requests, no other's
				Expect(e.Status).To(Equal(want[n]))
			}
		}
		Expect(srv.Journal()).To(HaveLen(sessions * requests))
	})
})
