package mockllm_test

import (
	"encoding/json"
	"net/http"
	"regexp"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var requestIDPattern = regexp.MustCompile(`^req_[0-9a-f]{24}$`)

var _ = Describe("error answers", func() {
	good := ask("sonnet", 1000, 100)

	// scripted serves one request answered by respond.
	scripted := func(respond scenario.Respond) *http.Response {
		srv := mockllm.New([]*scenario.Scenario{newScenario(rule(scenario.When{}, respond))}, clock.NewVirtual())
		return to("s").send(srv, good).Result()
	}

	DescribeTable("default to the real API's envelope for the status",
		func(code int, typ, msg, kind string) {
			srv := mockllm.New([]*scenario.Scenario{newScenario(rule(scenario.When{}, status(code)))}, clock.NewVirtual())
			w := to("s").send(srv, good)
			Expect(w.Code).To(Equal(code))
			Expect(w.Header().Get("Content-Type")).To(Equal("application/json"))
			e := errorOf(w)
			Expect(e.Error.Type).To(Equal(typ))
			if msg != "" {
				Expect(e.Error.Message).To(Equal(msg))
			} else {
				Expect(e.Error.Message).NotTo(BeEmpty())
			}
			Expect(srv.Entries(scName, "s")[0].Kind).To(Equal(kind))
		},
		Entry("400", 400, "invalid_request_error", "", "invalid_request"),
		Entry("401", 401, "authentication_error", "invalid x-api-key", "auth"),
		Entry("402", 402, "billing_error", "", "quota_exhausted"),
		Entry("403", 403, "permission_error", "", "permission"),
		Entry("404", 404, "not_found_error", "", "not_found"),
		Entry("408", 408, "timeout_error", "", "timeout"),
		Entry("409", 409, "conflict_error", "", "conflict"),
		Entry("413", 413, "request_too_large", "", "request_too_large"),
		Entry("422, another 4xx", 422, "invalid_request_error", "", "invalid_request"),
		Entry("429", 429, "rate_limit_error", "", "rate_limit"),
		Entry("500", 500, "api_error", "Internal server error", "server"),
		Entry("502", 502, "api_error", "", "server"),
		Entry("503", 503, "api_error", "", "server"),
		Entry("504", 504, "api_error", "", "server"),
		Entry("520, another 5xx", 520, "api_error", "", "server"),
		Entry("529", 529, "overloaded_error", "Overloaded", "overloaded"),
	)

	It("use the rule's type and message when it gives them", func() {
		resp := scripted(scenario.Respond{Status: 400, Type: "invalid_request_error", Message: "tools.0: bad schema"})
		Expect(resp.StatusCode).To(Equal(400))
		Expect(resp.Header.Get("request-id")).To(MatchRegexp(requestIDPattern.String()))
	})

	It("mark a 529 x-should-retry: true", func() {
		Expect(scripted(status(529)).Header.Get("x-should-retry")).To(Equal("true"))
		Expect(scripted(status(503)).Header.Values("x-should-retry")).To(BeEmpty())
	})

	It("let a rule set x-should-retry and any header", func() {
		resp := scripted(scenario.Respond{Status: 529, Headers: map[string]string{"x-should-retry": "false", "retry-after": "2"}})
		Expect(resp.Header.Values("x-should-retry")).To(Equal([]string{"false"}))
		Expect(resp.Header.Get("retry-after")).To(Equal("2"))
	})
})

var _ = Describe("request IDs", func() {
	var srv *mockllm.Server

	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario(scenario.Rule{Times: 1, Respond: scripted429})}, clock.NewVirtual())
	})

	It("come on every response, in the header and the error body alike", func() {
		for _, w := range []interface {
			Header() http.Header
		}{
			to("s").send(srv, ask("sonnet", 10, 10)),      // 429
			to("s").send(srv, ask("sonnet", 10, 10)),      // 200
			to("s").send(srv, `{`),                        // 400
			call{path: "/nope/v1/messages"}.send(srv, ``), // 404
		} {
			Expect(w.Header().Get("request-id")).To(MatchRegexp(requestIDPattern.String()))
		}
		w := to("s").send(srv, `{`)
		Expect(errorOf(w).RequestID).To(Equal(w.Header().Get("request-id")))
	})

	It("are the same in a replay on a new server, differ between requests and sessions, and never repeat after a reset", func() {
		ids := func(srv *mockllm.Server) []string {
			var out []string
			for _, s := range []string{"a", "a", "b"} {
				out = append(out, to(s).send(srv, ask("sonnet", 10, 10)).Header().Get("request-id"))
			}
			return out
		}
		first := ids(srv)
		Expect(ids(mockllm.New([]*scenario.Scenario{newScenario(scenario.Rule{Times: 1, Respond: status(429)})}, clock.NewVirtual()))).To(Equal(first))
		srv.Reset()
		again := ids(srv)
		for _, id := range again {
			Expect(first).NotTo(ContainElement(id))
		}
		Expect(first[0]).NotTo(Equal(first[1]))
		Expect(first[0]).NotTo(Equal(first[2]))
		Expect(srv.Entries(scName, "a")[1].RequestID).To(Equal(again[1]))
	})

	It("differ from the message ID", func() {
		w := to("s").send(srv, ask("sonnet", 10, 10))
		w = to("s").send(srv, ask("sonnet", 10, 10))
		m := messageOf(w)
		Expect(m.ID).To(MatchRegexp(`^msg_[0-9a-f]{24}$`))
		Expect(m.ID[4:]).NotTo(Equal(w.Header().Get("request-id")[4:]))
	})
})

var _ = Describe("routing", func() {
	var srv *mockllm.Server

	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
	})

	DescribeTable("answers a path it does not serve with 404 not_found_error, and journals it",
		func(path string) {
			w := call{path: path}.send(srv, ask("sonnet", 10, 10))
			Expect(w.Code).To(Equal(http.StatusNotFound))
			Expect(errorOf(w).Error.Type).To(Equal("not_found_error"))
			// Journalled with its route and status, not lost.
			j := srv.Journal()
			Expect(j).To(HaveLen(1))
			Expect(j[0]).To(And(HaveField("Route", path), HaveField("Status", 404), HaveField("Kind", "not_found"),
				HaveField("RequestID", w.Header().Get("request-id"))))
		},
		Entry("an unknown scenario", "/other/v1/messages"),
		Entry("no scenario", "/v1/messages"),
		Entry("another API", "/sc/v1/complete"),
		Entry("the root", "/"),
		Entry("a trailing slash", "/sc/v1/messages/"),
	)

	It("answers another method on the messages path with 405", func() {
		w := call{path: "/sc/v1/messages", method: http.MethodGet}.send(srv, "")
		Expect(w.Code).To(Equal(http.StatusMethodNotAllowed))
		Expect(w.Header().Get("Allow")).To(Equal("POST"))
		Expect(errorOf(w).Error.Type).To(Equal("invalid_request_error"))
		// Journalled with its route and method, it uses up no request
		// number: the next POST is the session's first.
		Expect(srv.Entries(scName, "default")).To(BeEmpty())
		stray := srv.Journal()[0]
		Expect(stray.Route).To(Equal("/sc/v1/messages"))
		Expect(stray.Method).To(Equal(http.MethodGet))
		Expect(stray.Scenario).To(Equal(scName))
		Expect(stray.Status).To(Equal(http.StatusMethodNotAllowed))
		to("default").send(srv, ask("sonnet", 100, 10))
		Expect(srv.Entries(scName, "default")[0].N).To(Equal(1))
	})
})

var _ = Describe("usage, as the real APIs write it", func() {
	It("Anthropic: the cache counts and the service tier, in the answer and in message_start", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		w := to("s").send(srv, ask("sonnet", 100, 10))
		var m struct{ Usage map[string]any }
		Expect(json.Unmarshal(w.Body.Bytes(), &m)).To(Succeed())
		Expect(m.Usage).To(HaveKeyWithValue("cache_creation_input_tokens", BeNumerically("==", 0)))
		Expect(m.Usage).To(HaveKeyWithValue("cache_read_input_tokens", BeNumerically("==", 0)))
		Expect(m.Usage).To(HaveKeyWithValue("service_tier", "standard"))
		w = to("s").send(srv, strings.Replace(ask("sonnet", 100, 10), "{", `{"stream":true,`, 1))
		Expect(sseData(w.Body.String())[0]).To(ContainSubstring(`"cache_read_input_tokens":0`))
	})

	It("OpenAI: prompt_tokens_details", func() {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		w := call{path: "/" + scName + "/v1/chat/completions", session: "s"}.send(srv, chatBody(`[`+userHi+`]`))
		Expect(w.Body.String()).To(ContainSubstring(`"prompt_tokens_details":{"cached_tokens":0`))
	})
})
