package mockllm

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/wiretest"
)

// The decoder checks syntax in the same pass that reads a body. These
// tests hold it to the two-pass decoder it replaced, json.Valid first:
// every body encoding/json refuses gets the same syntax error as before,
// and every body it accepts is read to its end without a syntax error.

// twoPass is the answer the two-pass decoder gave to a body json.Valid
// refuses; for a valid body it reports ok.
func twoPass(b []byte, wr wire.Wire) (e *wire.Error, ok bool) {
	if json.Valid(b) {
		return nil, true
	}
	var v any
	err := json.Unmarshal(b, &v)
	if len(bytes.TrimSpace(b)) == 0 {
		err = io.EOF
	}
	return wr.BodyError(err), false
}

// checkOnePass decodes b on wr and compares with twoPass.
func checkOnePass(t *testing.T, b []byte, wr wire.Wire) {
	t.Helper()
	var q wire.Request
	got := wr.Decode(b, &q)
	want, valid := twoPass(b, wr)
	if !valid {
		if got == nil || got.Status != want.Status || got.Type != want.Type || got.Message != want.Message {
			t.Fatalf("%s body %q: got %+v, the two-pass decoder %+v", wr, b, got, want)
		}
		if q.Model != "" || q.HasMessages || q.InputTokens() != 0 || q.Last != nil {
			t.Fatalf("%s body %q: a refused body left %+v", wr, b, q)
		}
		return
	}
	// A valid body is read to its end by the walker (each wire's
	// TestWalkerReadsValidJSON).
}

// checkSkip holds skip, the checker of values the walkers do not read, to
// json.Valid.
func checkSkip(t *testing.T, b []byte) {
	t.Helper()
	s := jsonscan.New(b)
	s.Skip()
	if got, want := s.End(), json.Valid(b); got != want {
		t.Fatalf("body %q: skip says valid=%v, json.Valid %v", b, got, want)
	}
}

// corpus is every input of the fuzz corpora in testdata/fuzz and the seeds.
func corpus(t *testing.T) [][]byte {
	t.Helper()
	var out [][]byte
	for _, s := range append(append([]string{}, anthropicSeeds...), openaiSeeds...) {
		out = append(out, []byte(s))
	}
	return append(out, wiretest.Corpus(t)...)
}

// malformed are bodies that break JSON in every way the scanner checks,
// most of them inside a request that would otherwise be read.
var malformed = []string{
	`{"model":"s","max_tokens":1,"messages":[]`,
	`{"model":"s","max_tokens":1,"messages":[],}`,
	`{"model":"s","max_tokens":1,"messages":[,]}`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":"a"},]}`,
	`{"model":"s","max_tokens":1 "messages":[]}`,
	`{"model":"s","max_tokens":1,"messages":[]]`,
	`{"model":"s","max_tokens":1,"messages":[}}`,
	`{"model" "s"}`,
	`{"model":"s","max_tokens":01,"messages":[]}`,
	`{"model":"s","max_tokens":1.,"messages":[]}`,
	`{"model":"s","max_tokens":-,"messages":[]}`,
	`{"model":"s","max_tokens":1e,"messages":[]}`,
	`{"model":"s","max_tokens":1e+,"messages":[]}`,
	`{"model":"s","max_tokens":.5,"messages":[]}`,
	`{"model":"s","max_tokens":+1,"messages":[]}`,
	`{"model":"s","max_tokens":1,"stream":tru,"messages":[]}`,
	`{"model":"s","max_tokens":1,"stream":nulll,"messages":[]}`,
	`{"model":"s","max_tokens":1,"messages":[],"x":[1 2]}`,
	`{"model":"s","max_tokens":1,"messages":[],"x":{"a" 1}}`,
	`{"model":"s","max_tokens":1,"messages":[],"x":{"a":1,}}`,
	`{"model":"s","max_tokens":1,"messages":[],"x":{,}}`,
	`{"model":"s","max_tokens":1,"messages":[],"x":{1:2}}`,
	`{"model":"s","max_tokens":1,"messages":[],"x":[1,]}`,
	`{"model":"s","max_tokens":1,"messages":[],"x":"a` + "\x01" + `b"}`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":"a` + "\n" + `"}]}`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":"\x"}]}`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":"\u12"}]}`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":"\ud83d\uzzzz"}]}`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":"a\`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":"a`,
	`{"model":"s","max_tokens":1,"messages":[]}` + "\x00",
	"{\"model\":\"s\",\"max_tokens\":1,\x00\"messages\":[]}",
	"\xef\xbb\xbf{\"model\":\"s\",\"max_tokens\":1,\"messages\":[]}",
	`{"model":"s","max_tokens":1,"messages":[]} {}`,
	`{"model":"s","max_tokens":1,"messages":[]} x`,
	`{"model":7,"max_tokens":1,"messages":[]} x`,
	`{"model":"s","max_tokens":"1","messages":[} `,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":[{"type":"tool_use","id":"t","name":"n","input":{"a":[1,}}]}]}`,
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":[{"type":"text","text":"a"} {"type":"text","text":"b"}]}]}`,
	`{"model":"s","max_tokens":1,"system":[{"type":"text","text":"a"}]]`,
	`{"model":"gpt","messages":[{"role":"assistant","content":null,"tool_calls":[{"function":{"arguments":"{}" "name":"x"}}]}]}`,
	`{"model":"gpt","stream":true,"stream_options":{"include_usage":true,},"messages":[{"role":"user","content":"a"}]}`,
	`{"model":"gpt","messages":[{"role":"user","content":[{"type":"text","text":"a"},]}]}`,
	`{"model":"gpt","max_tokens":1.5e,"messages":[{"role":"user","content":"a"}]}`,
	`{"model":"gpt","messages":[{"role":"user","content":"a"}]`,
	`{"model":"s",`,
	`{"model":`,
	`{"model"`,
	`{"`,
	`{`,
	`[`,
	`"`,
	``,
	` `,
	`x`,
	`}`,
}

// valid are sound bodies at the edges of the grammar.
var valid = []string{
	`{"model":"s","max_tokens":1,"messages":[],"x":[0,-0,1.5,-1e9,2E+3,4e-2,true,false,null,"",{},[],{"":{}}]}`,
	` {"model":"s" , "max_tokens" : 1 ,` + "\t\r\n" + `"messages" : [ ] } ` + "\n",
	`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":"\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00\ud83d"}]}`,
	"{\"model\":\"s\xff\",\"max_tokens\":1,\"messages\":[{\"role\":\"user\",\"content\":\"\x7f\xc3\xa9\"}]}",
	`[1, 2]`,
	`17`,
	`"x"`,
	`null`,
}

func TestOnePassRefusesWhatJSONValidRefuses(t *testing.T) {
	bodies := corpus(t)
	for _, s := range append(append([]string{}, malformed...), valid...) {
		bodies = append(bodies, []byte(s))
	}
	for _, b := range bodies {
		checkSkip(t, b)
		checkOnePass(t, b, anthropicWire)
		checkOnePass(t, b, openaiWire)
	}
	for _, s := range malformed {
		if json.Valid([]byte(s)) {
			t.Errorf("%q is valid JSON: it tests nothing", s)
		}
	}
}

// TestOnePassNesting holds the scanner to encoding/json's nesting limit,
// inside a request and in a skipped value.
func TestOnePassNesting(t *testing.T) {
	for _, depth := range []int{jsonscan.MaxNesting - 2, jsonscan.MaxNesting - 1, jsonscan.MaxNesting, jsonscan.MaxNesting + 1} {
		nested := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		checkSkip(t, []byte(nested))
		body := []byte(`{"model":"s","max_tokens":1,"messages":[],"x":` + nested + `}`)
		checkSkip(t, body)
		checkOnePass(t, body, anthropicWire)
		checkOnePass(t, body, openaiWire)
		// Nested tool_result contents are walked, not skipped.
		inner := `"x"`
		for i := 0; i < depth/2; i++ {
			inner = `[{"type":"tool_result","tool_use_id":"t","content":` + inner + `}]`
		}
		deep := []byte(`{"model":"s","max_tokens":1,"messages":[{"role":"user","content":` + inner + `}]}`)
		checkOnePass(t, deep, anthropicWire)
	}
}

// FuzzScanValid holds skip to json.Valid on any bytes, and the decoders to
// the two-pass decoder.
func FuzzScanValid(f *testing.F) {
	for _, s := range append(append(append([]string{}, malformed...), valid...), anthropicSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		checkSkip(t, b)
		checkOnePass(t, b, anthropicWire)
		checkOnePass(t, b, openaiWire)
	})
}
