package mockllm_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// metadataOf is a metadata object of n keys key0.., each value v.
func metadataOf(n int, v string) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = fmt.Sprintf("%q:%q", fmt.Sprint("key", i), v)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

var _ = Describe("the Responses API's refusals, as the real API words them", func() {
	var srv *mockllm.Server
	BeforeEach(func() { srv = mockllm.New([]*scenario.Scenario{newScenario()}, nil) })
	send := func(extra string) *openAIErr {
		c := to("s")
		c.path = "/" + scName + "/v1/responses"
		w := c.send(srv, `{"model":"sonnet","input":"hi"`+extra+`}`)
		if w.Code == http.StatusOK {
			return nil
		}
		var e openAIErr
		ExpectWithOffset(1, json.Unmarshal(w.Body.Bytes(), &e)).To(Succeed(), w.Body.String())
		ExpectWithOffset(1, w.Code).To(Equal(http.StatusBadRequest))
		return &e
	}
	DescribeTable("refused with 400",
		func(extra, param, code, message string) {
			e := send(extra)
			Expect(e).NotTo(BeNil(), "answered 200")
			Expect(e.Error.Type).To(Equal("invalid_request_error"))
			Expect(e.Error.Param).To(Equal(param))
			Expect(e.Error.Code).To(Equal(code))
			Expect(e.Error.Message).To(Equal(message))
		},
		Entry("an unknown parameter", `,"x":1`, "x", "unknown_parameter", "Unknown parameter: 'x'."),
		Entry("the first of 1,000 unknown parameters", strings.Repeat(`,"p":1`, 1000), "p", "unknown_parameter", "Unknown parameter: 'p'."),
		Entry("reasoning as a string", `,"reasoning":"high"`, "reasoning", "invalid_type",
			"Invalid type for 'reasoning': expected an object, but got a string instead."),
		Entry("metadata as an array", `,"metadata":[]`, "metadata", "invalid_type",
			"Invalid type for 'metadata': expected an object, but got an array instead."),
		Entry("17 metadata keys", `,"metadata":`+metadataOf(17, "v"), "metadata", "object_above_max_properties",
			"Invalid 'metadata': too many properties. Expected an object with at most 16 properties, but got an object with 17 properties instead."),
		Entry("20 metadata keys of 20 KB", `,"metadata":`+metadataOf(20, strings.Repeat("v", 20<<10)), "metadata", "object_above_max_properties",
			"Invalid 'metadata': too many properties. Expected an object with at most 16 properties, but got an object with 20 properties instead."),
		Entry("a metadata value of 513 characters", `,"metadata":{"k":"`+strings.Repeat("é", 513)+`"}`, "metadata.k", "string_above_max_length",
			"Invalid 'metadata.k': string too long. Expected a string with maximum length 512, but got a string with length 513 instead."),
		Entry("a metadata key of 65 characters", `,"metadata":{"`+strings.Repeat("k", 65)+`":"v"}`, "metadata", "string_above_max_length",
			"Invalid 'metadata': key too long. Expected a key with maximum length 64, but got a key with length 65 instead."),
		Entry("a metadata value that is no string", `,"metadata":{"run":7}`, "metadata.run", "invalid_type",
			"Invalid type for 'metadata.run': expected a string, but got an integer instead."),
		Entry("metadata nested 5,000 deep", `,"metadata":{"a":`+strings.Repeat(`{"a":`, 5000)+"1"+strings.Repeat("}", 5000)+"}", "metadata.a", "invalid_type",
			"Invalid type for 'metadata.a': expected a string, but got an object instead."),
	)
	It("refuses a setting it echoes nested deeper than 64 levels as a body it cannot parse, and echoes one 64 deep", func() {
		deep := func(n int) string { return `,"text":` + strings.Repeat(`{"a":`, n) + "1" + strings.Repeat("}", n) }
		e := send(deep(65))
		Expect(e).NotTo(BeNil(), "answered 200")
		Expect(e.Error.Message).To(HavePrefix("We could not parse the JSON body of your request."))
		Expect(send(deep(64))).To(BeNil())
		Expect(send(`,"tools":` + strings.Repeat("[", 5000) + strings.Repeat("]", 5000))).NotTo(BeNil())
	})
	It("takes the limits themselves, null settings, and the parameters of the SDKs and Codex", func() {
		Expect(send(`,"metadata":` + metadataOf(16, strings.Repeat("é", 512)))).To(BeNil())
		Expect(send(`,"metadata":{"` + strings.Repeat("k", 64) + `":""}`)).To(BeNil())
		Expect(send(`,"metadata":null,"reasoning":null`)).To(BeNil())
		Expect(send(`,"reasoning":{"effort":"high"},"include":[],"client_metadata":{"a":"b"},"stream_options":null,"prompt_cache_retention":"24h"`)).To(BeNil())
	})
})

// openAIErr is OpenAI's error envelope.
type openAIErr struct {
	Error struct {
		Message string `json:"message"`
		Type    string `json:"type"`
		Param   string `json:"param"`
		Code    string `json:"code"`
	} `json:"error"`
}

var _ = Describe("Gemini's streamGenerateContent", func() {
	var srv *mockllm.Server
	BeforeEach(func() {
		srv = mockllm.New([]*scenario.Scenario{newScenario()}, clock.NewVirtual())
	})
	gemini := func(query string, f scenario.Fault) *httptest.ResponseRecorder {
		if !f.IsZero() {
			srv = mockllm.New([]*scenario.Scenario{faulty(f)}, clock.NewVirtual())
		}
		c := call{path: "/" + scName + "/v1beta/models/sonnet:streamGenerateContent" + query, session: "g", header: http.Header{"X-Goog-Api-Key": {"k"}}}
		return c.send(srv, `{"contents":[{"role":"user","parts":[{"text":"`+tokens.Text(40)+`"}]}]}`)
	}
	type response struct {
		Candidates []struct {
			Content struct {
				Parts []struct{ Text string } `json:"parts"`
			} `json:"content"`
			FinishReason string `json:"finishReason"`
		} `json:"candidates"`
	}
	It("answers one JSON array of responses without ?alt=sse, as the API streams it", func() {
		w := gemini("", scenario.Fault{})
		Expect(w.Code).To(Equal(http.StatusOK))
		Expect(w.Header().Get("Content-Type")).To(Equal("application/json"))
		var rs []response
		Expect(json.Unmarshal(w.Body.Bytes(), &rs)).To(Succeed(), w.Body.String())
		Expect(len(rs)).To(BeNumerically(">", 1))
		text := ""
		for _, r := range rs {
			text += r.Candidates[0].Content.Parts[0].Text
		}
		Expect(text).To(Equal(tokens.Text(answerTokens)))
		Expect(rs[len(rs)-1].Candidates[0].FinishReason).To(Equal("STOP"))
		Expect(w.Body.String()).To(And(HavePrefix("[{"), HaveSuffix("}]"), ContainSubstring("},\r\n{")))
	})
	It("answers server-sent events with ?alt=sse, and so for ?key=…&alt=sse", func() {
		for _, q := range []string{"?alt=sse", "?key=k&alt=sse"} {
			w := gemini(q, scenario.Fault{})
			Expect(w.Header().Get("Content-Type")).To(HavePrefix("text/event-stream"))
			Expect(w.Body.String()).To(And(HavePrefix("data: {"), HaveSuffix("}\n\n")))
		}
	})
	It("ends an array cut by an error with the error as its last element", func() {
		w := gemini("", scenario.Fault{Kind: scenario.FaultError, After: 1})
		var rs []json.RawMessage
		Expect(json.Unmarshal(w.Body.Bytes(), &rs)).To(Succeed(), w.Body.String())
		Expect(rs).To(HaveLen(2))
		Expect(string(rs[1])).To(HavePrefix(`{"error":`))
	})
})
