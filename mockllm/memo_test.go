package mockllm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// outcome is everything decode makes of a body.
type outcome struct {
	err                                    *wire.Error
	model                                  string
	maxTokens, system, messages, nMessages int
	stream, includeUsage, streamOptions    bool
	last                                   []byte
}

func decodeWith(b []byte, wr wire.Wire, mem *wire.Memory) outcome {
	q := wire.Request{KeepLast: true, Mem: mem}
	e := wr.Decode(b, &q)
	if q.Memo != nil {
		mem.Last.Store(q.Memo)
	}
	return outcome{e, q.Model, q.MaxTokens, q.SystemTokens, q.MessageTokens, q.Messages, q.Stream, q.IncludeUsage, q.StreamOptions, q.Last}
}

// checkMemo decodes bodies in order through one session memo and each
// alone, and requires the same outcome.
func checkMemo(t *testing.T, wr wire.Wire, bodies ...[]byte) {
	t.Helper()
	mem := &wire.Memory{On: true}
	for i, b := range bodies {
		// The memo may hold b's own bytes: decode a copy, as a new
		// request's buffer would be.
		b = bytes.Clone(b)
		got, want := decodeWith(b, wr, mem), decodeWith(b, wr, nil)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s body %d %q: with the memo %+v, without %+v", wr, i, b, got, want)
		}
	}
}

// agentBodies is a conversation that grows a message pair at a time, as
// an agent turn sends it, on wire wr, with resends.
func agentBodies(wr wire.Wire, steps int) [][]byte {
	var msgs []string
	if wr == openaiWire {
		msgs = append(msgs, `{"role":"system","content":"be brief"}`)
	}
	msgs = append(msgs, `{"role":"user","content":"start \u00e9"}`)
	var out [][]byte
	for i := range steps {
		head := `{"max_tokens":4096,"messages":[`
		tail := `],"model":"sonnet","system":[{"type":"text","text":"sys"}]}`
		if wr == openaiWire {
			head, tail = `{"messages":[`, `],"model":"gpt","max_completion_tokens":4096}`
		}
		body := []byte(head + strings.Join(msgs, ",") + tail)
		out = append(out, body, body) // a resend
		if wr == openaiWire {
			msgs = append(msgs,
				fmt.Sprintf(`{"role":"assistant","content":null,"tool_calls":[{"id":"c%d","type":"function","function":{"name":"ls","arguments":"{\"n\":%d}"}}]}`, i, i),
				fmt.Sprintf(`{"role":"tool","tool_call_id":"c%d","content":"result %d"}`, i, i))
		} else {
			msgs = append(msgs,
				fmt.Sprintf(`{"role":"assistant","content":[{"type":"tool_use","id":"t%d","name":"ls","input":{"n":%d}}]}`, i, i),
				fmt.Sprintf(`{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":"result %d"}]}`, i, i))
		}
	}
	return out
}

func TestMemoReadsAsWalking(t *testing.T) {
	for _, wr := range []wire.Wire{anthropicWire, openaiWire} {
		grown := agentBodies(wr, 12)
		checkMemo(t, wr, grown...)
		last := grown[len(grown)-1]
		// A message changed in place, a byte at a time; a body shifted by
		// one byte; one cut short; one with a message out of place.
		var changed [][]byte
		for i := len(last) / 2; i < len(last); i += 7 {
			c := bytes.Clone(last)
			c[i] ^= 1
			changed = append(changed, last, c)
		}
		checkMemo(t, wr, changed...)
		checkMemo(t, wr, last, append([]byte(" "), last...), last[:len(last)-3], last)
		swapped := bytes.Replace(last, []byte(`"result 3"`), []byte(`"result 9"`), 1)
		checkMemo(t, wr, last, swapped, last)
		// A repeated messages key: the last one wins, memo or not.
		dup := bytes.Replace(last, []byte(`"model"`), []byte(`"messages":[{"role":"user","content":"x"}],"model"`), 1)
		checkMemo(t, wr, last, dup, last, dup)
		// Every corpus body after every other, a few apart.
		all := corpus(t)
		checkMemo(t, wr, append(all, grown...)...)
	}
}

// TestOnlyOpenedSessionsRemember: a session the harness opens keeps the
// last body's messages; one made by a request (serve) keeps nothing, so
// its memory follows what is sent.
func TestOnlyOpenedSessionsRemember(t *testing.T) {
	sc := &scenario.Scenario{Name: "sc", Models: map[string]scenario.Model{"sonnet": {ContextWindow: 200000, MaxOutput: 64000}}}
	srv := New([]*scenario.Scenario{sc}, clock.NewVirtual())
	if err := srv.Open("sc", "opened", nil); err != nil {
		t.Fatal(err)
	}
	body := `{"model":"sonnet","max_tokens":10,"messages":[{"role":"user","content":"hi"}]}`
	for _, session := range []string{"opened", "made"} {
		r := httptest.NewRequest(http.MethodPost, "/sc/v1/messages", strings.NewReader(body))
		r.Header.Set(SessionHeader, session)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, r)
		if w.Code != http.StatusOK {
			t.Fatalf("%s: status %d: %s", session, w.Code, w.Body)
		}
	}
	srv.mu.RLock()
	opened, made := srv.sessions[sessionKey{"sc", "opened"}], srv.sessions[sessionKey{"sc", "made"}]
	srv.mu.RUnlock()
	if m := opened.mem.Last.Load(); m == nil || len(m.Msgs) != 1 {
		t.Errorf("the opened session remembers %+v", m)
	}
	if made.mem.On || made.mem.Last.Load() != nil {
		t.Errorf("a session made by a request remembers %+v", made.mem.Last.Load())
	}
}

// TestMemoUnderConcurrentRequests sends bodies of different lengths to
// one opened session from several goroutines at once: each must be read
// as it would be alone, whichever memo and buffer it meets.
func TestMemoUnderConcurrentRequests(t *testing.T) {
	sc := &scenario.Scenario{Name: "sc", Models: map[string]scenario.Model{"sonnet": {ContextWindow: 200000, MaxOutput: 64000}}}
	srv := New([]*scenario.Scenario{sc}, clock.NewVirtual())
	if err := srv.Open("sc", "s", nil); err != nil {
		t.Fatal(err)
	}
	bodies := agentBodies(anthropicWire, 80)
	want := map[int]int{} // body length -> input tokens
	for _, b := range bodies {
		q := wire.Request{}
		if e := anthropicWire.Decode(b, &q); e != nil {
			t.Fatal(e)
		}
		want[len(b)] = q.InputTokens()
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 150 {
				b := bodies[(i*7+g*5)%len(bodies)]
				r := httptest.NewRequest(http.MethodPost, "/sc/v1/messages", bytes.NewReader(b))
				r.Header.Set(SessionHeader, "s")
				w := httptest.NewRecorder()
				srv.ServeHTTP(w, r)
				if w.Code != http.StatusOK {
					t.Errorf("status %d: %s", w.Code, w.Body)
					return
				}
				var got struct {
					Usage struct {
						InputTokens int `json:"input_tokens"`
					} `json:"usage"`
				}
				if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil || got.Usage.InputTokens != want[len(b)] {
					t.Errorf("body of %d bytes: %d input tokens (%v), want %d", len(b), got.Usage.InputTokens, err, want[len(b)])
					return
				}
			}
		})
	}
	wg.Wait()
}
