package mockllm_test

import (
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// declared is a mock-only scenario: a 429 asking for 2 s, then answers.
const declared = `name: declared
description: a 429 asking for 2 s, then answers
models: {sonnet: {context_window: 200000, max_output: 8192}}
script:
  - when: {attempt: 1}
    respond: {status: 429, headers: {retry-after: "2"}, early_retry: scripted}
`

type adminAnswer struct {
	Error struct {
		Type     string            `json:"type"`
		Message  string            `json:"message"`
		Problems []mockllm.Problem `json:"problems"`
	} `json:"error"`
}

var _ = Describe("scenarios declared over the admin route", func() {
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

	do := func(method, path, body string) (int, []byte) {
		req, err := http.NewRequest(method, base+path, strings.NewReader(body))
		Expect(err).NotTo(HaveOccurred())
		resp, err := hc.Do(req)
		Expect(err).NotTo(HaveOccurred())
		b, err := readAll(resp)
		Expect(err).NotTo(HaveOccurred())
		return resp.StatusCode, b
	}
	sendTo := func(url string) int {
		code, _ := do(http.MethodPost, strings.TrimPrefix(url, base)+"v1/messages", ask("sonnet", 100, 10))
		return code
	}

	It("serves a YAML scenario in a session of its own, on every wire, until DELETE", func() {
		code, b := do(http.MethodPost, mockllm.ScenariosPath, declared)
		Expect(code).To(Equal(http.StatusCreated), string(b))
		Expect(string(b)).To(ContainSubstring(`?scenario=declared&session=test"`))
		var a mockllm.Added
		Expect(json.Unmarshal(b, &a)).To(Succeed())
		Expect(a).To(Equal(mockllm.Added{
			Name: "declared", Session: "test", BasePath: "/declared/s/test/",
			AnthropicBaseURL: base + "/declared/s/test/", OpenAIBaseURL: base + "/declared/s/test/v1/",
			GeminiBaseURL: base + "/declared/s/test/", JournalURL: base + mockllm.JournalPath + "?scenario=declared&session=test",
		}))
		Expect(sendTo(a.AnthropicBaseURL)).To(Equal(429))
		code, _ = do(http.MethodPost, strings.TrimPrefix(a.OpenAIBaseURL, base)+"chat/completions", openaiAsk("sonnet", 100, 10))
		Expect(code).To(Equal(200))
		Expect(srv.Entries("declared", "test")).To(HaveLen(2))

		code, b = do(http.MethodDelete, mockllm.ScenariosPath+"/declared", "")
		Expect(code).To(Equal(200))
		Expect(string(b)).To(Equal(`{"removed":"declared"}` + "\n"))
		Expect(sendTo(a.AnthropicBaseURL)).To(Equal(404))
		code, _ = do(http.MethodDelete, mockllm.ScenariosPath+"/declared", "")
		Expect(code).To(Equal(404))
	})

	It("takes JSON, and the session the request names", func() {
		code, b := do(http.MethodPost, mockllm.ScenariosPath+"?session=run-7",
			`{"name":"js","description":"overloaded","models":{"sonnet":{"context_window":200000,"max_output":8192}},"script":[{"respond":{"status":529}}]}`)
		Expect(code).To(Equal(http.StatusCreated), string(b))
		var a mockllm.Added
		Expect(json.Unmarshal(b, &a)).To(Succeed())
		Expect(a.BasePath).To(Equal("/js/s/run-7/"))
		Expect(sendTo(a.AnthropicBaseURL)).To(Equal(529))
		Expect(srv.Entries("js", "run-7")).To(HaveLen(1))
	})

	It("refuses an invalid scenario with a file's errors, without the file's name", func() {
		bad := "name: bad\ndescription: two problems\nmodels: {sonnet: {context_window: 200000, max_output: 8192}}\nscript:\n  - respond: {status: 999}\n  - respond: {fault: nonsense}\n"
		path := filepath.Join(GinkgoT().TempDir(), "bad.yaml")
		Expect(os.WriteFile(path, []byte(bad), 0o644)).To(Succeed())
		_, fileErr := scenario.LoadFile(path)
		Expect(fileErr).To(HaveOccurred())

		code, b := do(http.MethodPost, mockllm.ScenariosPath, bad)
		Expect(code).To(Equal(http.StatusBadRequest))
		var got adminAnswer
		Expect(json.Unmarshal(b, &got)).To(Succeed())
		Expect(got.Error.Type).To(Equal("invalid_request_error"))
		lines := strings.Split(got.Error.Message, "\n")
		for i, l := range lines { // "FILE:LINE:COL: ..." for a file, "LINE:COL: ..." here
			lines[i] = path + ":" + l
		}
		Expect(strings.Join(lines, "\n")).To(Equal(fileErr.Error()))
		Expect(got.Error.Problems).To(HaveLen(2))
		Expect(got.Error.Problems[0]).To(Equal(mockllm.Problem{Line: 5, Column: 15, Field: "script[0].respond.status", Reason: scenario.Errors(fileErr)[0].Msg}))
		Expect(got.Error.Problems[1].Field).To(HavePrefix("script[1].respond.fault"))
		Expect(srv.Entries("bad", "test")).To(BeNil())
	})

	It("refuses a name served already, a session that is no path segment, a body over the ceiling and other methods", func() {
		code, b := do(http.MethodPost, mockllm.ScenariosPath, strings.Replace(declared, "declared", scName, 1))
		Expect(code).To(Equal(http.StatusConflict))
		Expect(string(b)).To(ContainSubstring("the server was made with it"))
		code, _ = do(http.MethodPost, mockllm.ScenariosPath, declared)
		Expect(code).To(Equal(http.StatusCreated))
		code, b = do(http.MethodPost, mockllm.ScenariosPath, declared)
		Expect(code).To(Equal(http.StatusConflict))
		Expect(string(b)).To(ContainSubstring("served already"))

		code, _ = do(http.MethodPost, mockllm.ScenariosPath+"?session=a/b", declared)
		Expect(code).To(Equal(http.StatusBadRequest))
		code, b = do(http.MethodPost, mockllm.ScenariosPath, strings.Repeat("#", mockllm.MaxScenarioBytes+1))
		Expect(code).To(Equal(http.StatusRequestEntityTooLarge))
		Expect(string(b)).To(ContainSubstring("the ceiling of a scenario posted"))

		code, _ = do(http.MethodGet, mockllm.ScenariosPath, "")
		Expect(code).To(Equal(http.StatusMethodNotAllowed))
		code, _ = do(http.MethodDelete, mockllm.ScenariosPath+"/"+scName, "")
		Expect(code).To(Equal(http.StatusConflict), "a scenario of New stays")
	})
})
