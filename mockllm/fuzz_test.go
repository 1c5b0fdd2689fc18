package mockllm

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The request decoders walk bodies in place instead of decoding them; the
// fuzz targets hold them to what encoding/json makes of the same bytes.
// Whatever a decoder accepts, a reference built on encoding/json must read
// the same model, max_tokens and input tokens from; whatever it refuses
// must get a well-formed error. Neither may panic. The seed corpus is in
// testdata/fuzz; run a target with
//
//	go test -run '^$' -fuzz FuzzDecodeAnthropic ./mockllm/
//
// (FuzzDecodeResponses and FuzzDecodeGemini check what a decoder accepts
// against properties rather than a reference reading.)

func FuzzDecodeAnthropic(f *testing.F) {
	for _, s := range anthropicSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var q wire.Request
		if e := anthropicWire.Decode(body, &q); e != nil {
			checkRefusal(t, e, anthropicWire)
			return
		}
		want := refAnthropic(t, body)
		got := refRequest{model: q.Model, maxTokens: q.MaxTokens, stream: q.Stream, input: q.InputTokens()}
		if got != want {
			t.Fatalf("decoder read %+v, encoding/json %+v, from %q", got, want, body)
		}
	})
}

func FuzzDecodeOpenAI(f *testing.F) {
	for _, s := range openaiSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var q wire.Request
		if e := openaiWire.Decode(body, &q); e != nil {
			checkRefusal(t, e, openaiWire)
			return
		}
		want := refOpenAI(t, body)
		got := refRequest{model: q.Model, maxTokens: q.MaxTokens, stream: q.Stream, input: q.InputTokens()}
		if got != want {
			t.Fatalf("decoder read %+v, encoding/json %+v, from %q", got, want, body)
		}
	})
}

// FuzzDecodeResponses holds the Responses API decoder to its refusals:
// whatever it refuses gets a well-formed error; whatever it accepts has a
// model and a count no smaller than its instructions', and echoes each
// setting as encoding/json reads the body's last value of that key,
// within wire.MaxEchoBytes, nested at most 64 deep; its metadata keeps
// the API's limits and it has no parameter the API does not take. It may
// not panic.
func FuzzDecodeResponses(f *testing.F) {
	for _, s := range responsesSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var q wire.Request
		if e := responsesWire.Decode(body, &q); e != nil {
			checkRefusal(t, e, responsesWire)
			return
		}
		if q.Model == "" || q.InputTokens() < q.SystemTokens || q.InputTokens() < 0 {
			t.Fatalf("accepted %q as %+v", body, q)
		}
		var top map[string]json.RawMessage
		if err := json.Unmarshal(body, &top); err != nil {
			t.Fatalf("accepted %q, which encoding/json refuses: %v", body, err)
		}
		for k := range top {
			if !responsesParams[k] {
				t.Fatalf("accepted the unknown parameter %q: %q", k, body)
			}
		}
		if m := top["metadata"]; m != nil && string(m) != "null" {
			var meta map[string]string
			if err := json.Unmarshal(m, &meta); err != nil || len(meta) > 16 {
				t.Fatalf("accepted metadata %q (%v)", m, err)
			}
			for k, v := range meta {
				if utf8.RuneCountInString(k) > 64 || utf8.RuneCountInString(v) > 512 {
					t.Fatalf("accepted metadata %q: %q", k, v)
				}
			}
		}
		total := 0
		for _, v := range q.Echoed {
			if d := depthOf(v.Value); d > 64 {
				t.Fatalf("echoes %s nested %d deep: %q", v.Key, d, body)
			}
			total += len(v.Value)
			if bytes.ContainsAny(v.Value, "\n\r") {
				t.Fatalf("echoes %s with a line break, which would cut a stream's data line: %q", v.Key, v.Value)
			}
			var got, want bytes.Buffer
			if json.Compact(&got, v.Value) != nil || json.Compact(&want, top[v.Key]) != nil || got.String() != want.String() {
				t.Fatalf("echoes %s as %q, the body's is %q: %q", v.Key, v.Value, top[v.Key], body)
			}
		}
		if total > wire.MaxEchoBytes {
			t.Fatalf("echoes %d bytes: %q", total, body)
		}
	})
}

// responsesParams are the top-level parameters of the Responses API.
var responsesParams = func() map[string]bool {
	m := map[string]bool{}
	for _, k := range strings.Fields(`access_programs background client_metadata context_management conversation image include input
		instructions max_output_tokens max_tool_calls metadata model moderation parallel_tool_calls previous_response_id prompt
		prompt_cache_key prompt_cache_options prompt_cache_retention reasoning safety_identifier service_tier store stream
		stream_options temperature text tool_choice tools top_logprobs top_p truncation user`) {
		m[k] = true
	}
	return m
}()

// depthOf is how deep a JSON value nests arrays and objects.
func depthOf(v []byte) int {
	dec := json.NewDecoder(bytes.NewReader(v))
	depth, most := 0, 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return most
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			depth++
			most = max(most, depth)
		case json.Delim('}'), json.Delim(']'):
			depth--
		}
	}
}

var geminiSeeds = []string{
	`{"contents":[{"role":"user","parts":[{"text":"hi"}]}],"generationConfig":{"maxOutputTokens":100}}`,
	`{"contents":[{"role":"user","parts":[{"text":"hi"}]},{"role":"model","parts":[{"functionCall":{"id":"c","name":"ls","args":{"d":"."}}}]},` +
		`{"role":"user","parts":[{"functionResponse":{"id":"c","name":"ls","response":{"output":"a.go"}}}]}],` +
		`"systemInstruction":{"parts":[{"text":"Be brief."}]},"tools":[{"functionDeclarations":[{"name":"ls","description":"list","parameters":{"type":"object"}}]}]}`,
	`{"contents":[]}`,
	`{"contents":[{"role":"system","parts":[{"text":"x"}]}]}`,
	`{"contents":[{"parts":[]}]}`,
	`{"generation_config":{"max_output_tokens":"ten"},"contents":[{"parts":[{"text":"\u00e9\"\\"}]}]}`,
	`{"contents":[{"parts":[{"text":"a"}]}],"contents":[{"parts":[{"text":"bb"}]}]}`,
	`[1,2]`, `{`, ``,
}

// FuzzDecodeGemini holds the Gemini decoder to its refusals: whatever it
// refuses gets a well-formed error; whatever it accepts is JSON that
// encoding/json reads, with at least one content, and a count of input
// no larger than the body (every token is four bytes of some text in
// it) and never negative; the model and stream the route gave are kept.
// It may not panic.
func FuzzDecodeGemini(f *testing.F) {
	for _, s := range geminiSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		q := wire.Request{Model: "m", HasModel: true, Stream: true}
		if e := geminiWire.Decode(body, &q); e != nil {
			checkRefusal(t, e, geminiWire)
			return
		}
		if !json.Valid(body) {
			t.Fatalf("decoder took a body that is not JSON: %q", body)
		}
		if q.Messages == 0 {
			t.Fatalf("decoder took a body with no contents: %q", body)
		}
		if n := q.InputTokens(); n < 0 || n > len(body) {
			t.Fatalf("decoder counted %d input tokens in %d bytes: %q", n, len(body), body)
		}
		if q.Model != "m" || !q.HasModel || !q.Stream {
			t.Fatalf("decoder lost the route's model or stream: %+v", q)
		}
		again := wire.Request{Model: "m", HasModel: true, Stream: true}
		if e := geminiWire.Decode(body, &again); e != nil || again.InputTokens() != q.InputTokens() {
			t.Fatalf("decoded twice, %d then %d tokens (%v): %q", q.InputTokens(), again.InputTokens(), e, body)
		}
	})
}

var responsesSeeds = []string{
	`{"model":"gpt","input":"hello"}`,
	`{"model":"gpt","instructions":"be brief","max_output_tokens":100,"stream":true,"input":[{"role":"user","content":[{"type":"input_text","text":"hi"}]}]}`,
	`{"model":"gpt","input":[{"role":"user","content":"x"},{"type":"function_call","call_id":"c","name":"ls","arguments":"{}"},{"type":"function_call_output","call_id":"c","output":"ok"}],"tools":[{"type":"function","name":"ls","parameters":{}}]}`,
	`{"model":"gpt","input":[{"type":"function_call_output","call_id":"c","output":[{"type":"input_text","text":"x"}]}]}`,
	`{"model":"gpt","input":[{"type":"function_call","call_id":"c"}],"max_output_tokens":5}`,
	`{"model":7,"input":null}`,
	`{"model":"gpt","input":"x","temperature":0.2,"top_p":1e0,"tools":[{"type":"function","name":"ls","strict":true}],"tool_choice":{"type":"function","name":"ls"},` +
		`"reasoning":{"effort":"low"},"text":{"verbosity":"low"},"metadata":{"a":"b"},"service_tier":"auto","truncation":"auto","parallel_tool_calls":false,"user":"u"}`,
	`{"model":"gpt","input":"x","temperature":"hot","metadata":null,"metadata":{"k":"\u00e9"},"tool_choice":7,"background":true,"max_tool_calls":3,"top_logprobs":-1}`,
	"{\"model\":\"gpt\",\"input\":\"x\",\"tools\": [\n  {\"type\": \"function\",\r\n \"name\": \"a b\\n\"}\n],\"reasoning\":\t{}}",
	`{"model":"gpt","input":"x","instructions":null,"previous_response_id":"resp_1","prompt_cache_key":"k","safety_identifier":"s","text":[]}`,
	`{"input":"x"}`,
	`[]`,
	`{`,
	`{"model":"gpt","input":"x","x":1,"include":[]}`,
	`{"model":"gpt","input":"x","reasoning":"high","metadata":{"a":{"b":{}}}}`,
	`{"model":"gpt","input":"x","metadata":{"a":"1","b":"2","c":"3","d":"4","e":"5","f":"6","g":"7","h":"8","i":"9","j":"10","k":"11","l":"12","m":"13","n":"14","o":"15","p":"16","q":"17"}}`,
	`{"model":"gpt","input":"x","text":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
}

var anthropicSeeds = []string{
	`{"model":"sonnet","max_tokens":100,"messages":[{"role":"user","content":"hello"}]}`,
	`{"model":"sonnet","max_tokens":100,"stream":true,"system":[{"type":"text","text":"be brief"}],"messages":[{"role":"user","content":[{"type":"text","text":"a\u00e9\ud83d\ude00"}]}]}`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"assistant","content":[{"type":"tool_use","id":"t","name":"ls","input":{"a": [1, 2]}}]},{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":[{"type":"text","text":"x"}],"is_error":true}]}]}`,
	`{"model":"s","max_tokens":1,"messages":[],"system":null,"stream":null,"tools":[{"name":"ls"}]}`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":"a"}],"tools":[{"name":"ls","name":"lss","input_schema":null,"function":7},3]}`,
	`{"model":"s","model":"t","max_tokens":3,"max_tokens":2,"messages":[{"role":"user","content":"\"\\\n"}]}`,
	`{"model":"s","max_tokens":2147483648,"messages":[]}`,
	`{"model":"s","max_tokens":1.5,"messages":[]}`,
	"{\"model\":\"s\xff\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":\"\xfe\"}]}",
	`{"m\u006fdel":"s","max_tokens":1,"messages":[]}`,
	`[{"model":"s"}]`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":[{"type":"image","source":{"data":"AAAA"}}]}]}`,
	`{`,
	``,
}

var openaiSeeds = []string{
	`{"model":"gpt","messages":[{"role":"user","content":"hello"}]}`,
	`{"model":"gpt","max_tokens":100,"stream":true,"stream_options":{"include_usage":true},"messages":[{"role":"system","content":"be brief"},{"role":"user","content":[{"type":"text","text":"hi"},{"type":"image_url","image_url":{"url":"x"}}]}]}`,
	`{"model":"gpt","max_completion_tokens":5,"messages":[{"role":"assistant","content":null,"tool_calls":[{"id":"c","type":"function","function":{"name":"ls","arguments":"{\"a\":1}"}}]},{"role":"tool","tool_call_id":"c","content":"ok"}]}`,
	`{"model":"gpt","messages":[{"role":"developer","content":[{"type":"text","text":"x"}]},{"role":"assistant","content":[{"type":"refusal","refusal":"no"}]}]}`,
	`{"model":"gpt","max_tokens":null,"messages":[{"role":"user","content":"a"}],"messages":[{"role":"user","content":"bb"}]}`,
	`{"model":"gpt","messages":[]}`,
	`{"model":"gpt","stream_options":{},"messages":[{"role":"user","content":"a"}]}`,
	`{"model":7}`,
	`{`,
}

// refRequest is what a reference reading of a body finds.
type refRequest struct {
	model     string
	maxTokens int
	stream    bool
	input     int
}

// checkRefusal checks that a refusal is an error the mock can send.
func checkRefusal(t *testing.T, e *wire.Error, wr wire.Wire) {
	t.Helper()
	if e.Status != 400 && e.Status != 413 {
		t.Fatalf("refused with status %d: %+v", e.Status, e)
	}
	if e.Message == "" || e.Type == "" {
		t.Fatalf("refused without a type or message: %+v", e)
	}
	b := wr.Body(nil, &wire.Reply{Err: e, RequestID: "req_x"})
	if !json.Valid(b) {
		t.Fatalf("the error body is not JSON: %s", b)
	}
}

// fields decodes a JSON object into its raw members (the last of a
// duplicated key wins, as with encoding/json).
func fields(t *testing.T, raw json.RawMessage) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatalf("the decoder accepted what encoding/json reads as no object: %v: %s", err, raw)
	}
	return m
}

func list(t *testing.T, raw json.RawMessage) []json.RawMessage {
	t.Helper()
	var l []json.RawMessage
	if err := json.Unmarshal(raw, &l); err != nil {
		t.Fatalf("the decoder accepted what encoding/json reads as no list: %v: %s", err, raw)
	}
	return l
}

// text is the tokens of a JSON string, and whether raw was one.
func text(raw json.RawMessage) (int, bool) {
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, false
	}
	return wire.CountBytes(len(s)), true
}

func isNull(raw json.RawMessage) bool { return raw == nil || string(bytes.TrimSpace(raw)) == "null" }

func stringOf(raw json.RawMessage) string {
	var s string
	_ = json.Unmarshal(raw, &s)
	return s
}

func boolOf(raw json.RawMessage) bool {
	var b bool
	_ = json.Unmarshal(raw, &b)
	return b
}

func intOf(raw json.RawMessage) int {
	var n int
	_ = json.Unmarshal(raw, &n)
	return n
}

// refAnthropic reads a Messages request by the token rule with
// encoding/json: the system prompt; each message's content; in a list of
// blocks, text blocks, the raw JSON of tool_use inputs and the content of
// tool_results.
func refAnthropic(t *testing.T, body []byte) refRequest {
	top := fields(t, body)
	r := refRequest{model: stringOf(top["model"]), maxTokens: intOf(top["max_tokens"]), stream: boolOf(top["stream"])}
	if sys := top["system"]; !isNull(sys) {
		if n, ok := text(sys); ok {
			r.input += n
		} else {
			r.input += refBlocks(t, sys)
		}
	}
	for _, m := range list(t, top["messages"]) {
		r.input += refContent(t, fields(t, m)["content"])
	}
	r.input += refTools(top["tools"])
	return r
}

// refTools counts tool definitions with encoding/json: each tool's name,
// description and raw schema, and those of its "function"; anything that
// is not a list of objects counts nothing.
func refTools(raw json.RawMessage) int {
	var l []json.RawMessage
	if json.Unmarshal(raw, &l) != nil {
		return 0
	}
	total := 0
	for _, tool := range l {
		total += refTool(tool)
	}
	return total
}

func refTool(raw json.RawMessage) int {
	var f map[string]json.RawMessage
	if json.Unmarshal(raw, &f) != nil {
		return 0
	}
	n := 0
	for _, k := range []string{"name", "description"} {
		if c, ok := text(f[k]); ok {
			n += c
		}
	}
	for _, k := range []string{"input_schema", "parameters"} {
		if v, ok := f[k]; ok {
			n += wire.CountBytes(len(v))
		}
	}
	if fn, ok := f["function"]; ok {
		n += refTool(fn)
	}
	return n
}

func refContent(t *testing.T, raw json.RawMessage) int {
	if n, ok := text(raw); ok {
		return n
	}
	return refBlocks(t, raw)
}

func refBlocks(t *testing.T, raw json.RawMessage) int {
	total := 0
	for _, b := range list(t, raw) {
		f := fields(t, b)
		switch stringOf(f["type"]) {
		case "text":
			n, _ := text(f["text"])
			total += n
		case "tool_use":
			total += wire.CountBytes(len(f["input"]))
		case "tool_result":
			if c := f["content"]; !isNull(c) {
				total += refContent(t, c)
			}
		}
	}
	return total
}

// refOpenAI reads a chat completion request by the token rule with
// encoding/json: each message's content (a string, or its text and
// refusal parts) and its tool calls' arguments.
func refOpenAI(t *testing.T, body []byte) refRequest {
	top := fields(t, body)
	r := refRequest{model: stringOf(top["model"]), stream: boolOf(top["stream"])}
	for _, key := range []string{"max_tokens", "max_completion_tokens"} {
		if v := top[key]; !isNull(v) {
			r.maxTokens = intOf(v)
		}
	}
	for _, m := range list(t, top["messages"]) {
		f := fields(t, m)
		if c := f["content"]; !isNull(c) {
			if n, ok := text(c); ok {
				r.input += n
			} else {
				for _, p := range list(t, c) {
					pf := fields(t, p)
					switch stringOf(pf["type"]) {
					case "text":
						n, _ := text(pf["text"])
						r.input += n
					case "refusal":
						n, _ := text(pf["refusal"])
						r.input += n
					}
				}
			}
		}
		if calls := f["tool_calls"]; !isNull(calls) {
			for _, c := range list(t, calls) {
				fn := fields(t, c)["function"]
				if isNull(fn) {
					continue
				}
				var obj map[string]json.RawMessage
				if json.Unmarshal(fn, &obj) == nil {
					n, _ := text(obj["arguments"])
					r.input += n
				}
			}
		}
	}
	r.input += refTools(top["tools"])
	return r
}
