package mockllm_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("limits and abuse over loopback", func() {
	var (
		srv  *mockllm.Server
		base string
		hc   *http.Client
	)

	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		var ep *mockllm.Endpoint
		ep, hc = live(srv)
		base = "http://" + ep.Addr
	})

	send := func(path, body string) (int, []byte) {
		resp, err := post(context.Background(), hc, base+path, "s", body)
		Expect(err).NotTo(HaveOccurred())
		return resp.StatusCode, must(readAll(resp))
	}

	DescribeTable("a body over 32 MB is 413 request_too_large on both APIs",
		func(path string, typ string) {
			body := io.MultiReader(strings.NewReader(`{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":"`),
				io.LimitReader(repeat('a'), 33<<20), strings.NewReader(`"}]}`))
			req, _ := http.NewRequest(http.MethodPost, base+path, body) // streamed: no length given
			resp, err := hc.Do(req)
			Expect(err).NotTo(HaveOccurred())
			Expect(resp.StatusCode).To(Equal(http.StatusRequestEntityTooLarge))
			Expect(string(must(readAll(resp)))).To(ContainSubstring(typ))
		},
		Entry("Anthropic", "/sc/v1/messages", `"type":"request_too_large"`),
		Entry("OpenAI", "/sc/v1/chat/completions", `"code":"request_too_large"`),
	)

	It("answers malformed JSON with 400 invalid_request_error on both APIs", func() {
		code, body := send("/sc/v1/messages", `{"model":`)
		Expect(code).To(Equal(400))
		Expect(string(body)).To(ContainSubstring(`"invalid_request_error"`))
		code, body = send("/sc/v1/chat/completions", `{"model":`)
		Expect(code).To(Equal(400))
		Expect(string(body)).To(ContainSubstring(`"invalid_request_error"`))
	})

	DescribeTable("answers an unknown path or scenario with 404 in the API's shape",
		func(path, want string) {
			code, body := send(path, ask("sonnet", 10, 10))
			Expect(code).To(Equal(404))
			Expect(json.Valid(body)).To(BeTrue())
			Expect(string(body)).To(ContainSubstring(want))
		},
		Entry("an unknown scenario, Anthropic", "/nope/v1/messages", `"not_found_error"`),
		Entry("an unknown scenario, OpenAI", "/nope/v1/chat/completions", `"code":"unknown_url"`),
		Entry("an unknown path", "/sc/v1/models", `"not_found_error"`),
		Entry("an unknown path under OpenAI's", "/sc/v1/embeddings", `"message":"Unknown request URL: POST /sc/v1/embeddings. Please check the URL`),
		Entry("a Chat Completions path misspelt", "/sc/v1/chat/completion", `"code":"unknown_url"`),
		Entry("a path with dots", "/../../etc/passwd", `"not_found_error"`),
	)

	It("refuses a session name longer than 200 bytes, and keeps nothing of it", func() {
		req, _ := http.NewRequest(http.MethodPost, base+"/sc/v1/messages", strings.NewReader(ask("sonnet", 10, 10)))
		req.Header.Set(mockllm.SessionHeader, strings.Repeat("x", 201))
		resp, err := hc.Do(req)
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(400))
		_, _ = readAll(resp)
		j := srv.Journal()
		Expect(j).To(HaveLen(1)) // journalled as a stray, its name not kept
		Expect(j[0]).To(And(HaveField("Session", ""), HaveField("Route", "/sc/v1/messages"), HaveField("Status", 400)))
	})

	It("shows a stray in the journal served over HTTP, as in Journal()", func() {
		resp, err := hc.Post(base+"/sc/v1/embeddings", "application/json", strings.NewReader(`{}`))
		Expect(err).NotTo(HaveOccurred())
		_, _ = readAll(resp)
		resp, err = hc.Get(base + mockllm.JournalPath)
		Expect(err).NotTo(HaveOccurred())
		body, _ := readAll(resp)
		Expect(string(body)).To(ContainSubstring(`"route": "/sc/v1/embeddings"`))
	})

	It("stops making sessions at 10,000 until a reset", func() {
		for i := range 10000 { // in process: the cap is the server's, not the network's
			to(fmt.Sprintf("s%d", i)).send(srv, `{`)
		}
		w := to("one-too-many").send(srv, ask("sonnet", 10, 10))
		Expect(w.Code).To(Equal(400))
		Expect(errorOf(w).Error.Message).To(ContainSubstring("too many sessions"))
		Expect(to("s1").send(srv, ask("sonnet", 10, 10)).Code).To(Equal(200)) // known sessions go on
		srv.Reset()
		Expect(to("one-too-many").send(srv, ask("sonnet", 10, 10)).Code).To(Equal(200))
	})

	It("keeps one session's answers out of another's, whatever the first sends", func() {
		for _, body := range []string{`{`, `[]`, `{"model":null}`, "\x00\xff", strings.Repeat("[", 10000), ask("sonnet", 0, 5)} {
			code, _ := send("/sc/v1/messages", body)
			Expect(code).To(Equal(400))
			code, _ = send("/sc/v1/chat/completions", body)
			Expect(code).To(Equal(400))
		}
		resp, err := post(context.Background(), hc, base+"/sc/v1/messages", "other", ask("sonnet", 10, 10))
		Expect(err).NotTo(HaveOccurred())
		Expect(resp.StatusCode).To(Equal(200))
		_, _ = readAll(resp)
		Expect(srv.Entries(scName, "other")).To(HaveLen(1))
		Expect(srv.Entries(scName, "other")[0].N).To(Equal(1))
	})
})
