package mockllm_test

import (
	"encoding/json"
	"regexp"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

var _ = Describe("the ids an answer carries", func() {
	// ids sends one request on each wire to a new server and returns the
	// request-id and the answer's id of each.
	ids := func() []string {
		srv := mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
		var out []string
		for _, c := range []struct{ path, body string }{
			{"/" + scName + "/v1/messages", ask("sonnet", 30, 120)},
			{"/" + scName + "/v1/chat/completions", chatBody(`[` + userHi + `]`)},
			{"/" + scName + "/v1/responses", `{"model":"sonnet","input":"hi"}`},
		} {
			w := call{path: c.path, session: "s"}.send(srv, c.body)
			Expect(w.Code).To(Equal(200), w.Body.String())
			var a struct{ ID string }
			Expect(json.Unmarshal(w.Body.Bytes(), &a)).To(Succeed())
			out = append(out, w.Header().Get("request-id")+w.Header().Get("x-request-id"), a.ID)
		}
		return out
	}

	// A user's recorded fixtures and diffs of two runs hold these ids: a
	// change to how they are made changes every journal and answer, so it
	// is made on purpose, here.
	It("are the same bytes on every build and every replay, 96 bits each", func() {
		got := ids()
		Expect(got).To(Equal([]string{
			"req_81456310850e91f41a15afd8", "msg_08cbac3a234865e6b5949eb3",
			"req_68406310850b91f495c0a6d8", "chatcmpl-7b5f54903de7cf724c4d5e3f",
			"req_1b426310850c91f46ca9aad8", "resp_6d475975f1020b8a169db466",
		}))
		Expect(ids()).To(Equal(got))
		hex := regexp.MustCompile(`[0-9a-f]{24}$`)
		for _, id := range got {
			h := hex.FindString(id)
			Expect(h).NotTo(BeEmpty(), id)
			Expect(h[16:]).NotTo(Equal(h[:8]), "%s: the last third repeats the first", id)
		}
	})
})
