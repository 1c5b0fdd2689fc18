package mockllm_test

import (
	"context"
	"net/http"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("a session in the URL's path", func() {
	var srv *mockllm.Server

	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario(scenario.Rule{Times: 1, Respond: status(529)})}, clock.NewVirtual())
	})

	at := func(path string) call { return call{path: path} }

	It("gives each base URL its own script state, without a header", func() {
		body := ask("sonnet", 1000, 10)
		Expect(at("/sc/s/one/v1/messages").send(srv, body).Code).To(Equal(529))
		Expect(at("/sc/s/one/v1/messages").send(srv, body).Code).To(Equal(http.StatusOK))
		// Another session has used none of the rule's one time.
		Expect(at("/sc/s/two/v1/chat/completions").send(srv, `{"model":"sonnet","messages":[{"role":"user","content":"hi"}]}`).Code).To(Equal(503))
		Expect(srv.Entries(scName, "one")).To(HaveLen(2))
		two := srv.Entries(scName, "two")
		Expect(two).To(HaveLen(1))
		Expect(two[0].Wire).To(Equal("openai"))
		Expect(srv.Entries(scName, "default")).To(BeEmpty())
	})

	It("wins over the session header", func() {
		c := at("/sc/s/path/v1/messages")
		c.session = "header"
		Expect(c.send(srv, ask("sonnet", 1000, 10)).Code).To(Equal(529))
		Expect(srv.Entries(scName, "path")).To(HaveLen(1))
		Expect(srv.Entries(scName, "header")).To(BeEmpty())
	})

	It("is named by Endpoint.SessionURL", func() {
		ep, client := live(srv)
		Expect(ep.SessionURL(scName, "x")).To(Equal("http://" + ep.Addr + "/sc/s/x/"))
		resp, err := post(context.Background(), client, ep.SessionURL(scName, "x")+"v1/messages", "", ask("sonnet", 1000, 10))
		Expect(err).NotTo(HaveOccurred())
		_, _ = readAll(resp)
		Expect(srv.Entries(scName, "x")).To(HaveLen(1))
	})

	It("is not one when the session is empty", func() {
		Expect(at("/sc/s//v1/messages").send(srv, ask("sonnet", 1000, 10)).Code).To(Equal(http.StatusNotFound))
	})
})
