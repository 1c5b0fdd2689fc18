package wirecache

import (
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/faultbench/faultbench/recovery"
)

// counting encodes a message as its text in quotes and counts the calls.
type counting struct{ calls int }

func (c *counting) encode(_ int, m recovery.Message) ([]byte, error) {
	c.calls++
	if m.Role == "bad" {
		return nil, errors.New("bad role")
	}
	return []byte(fmt.Sprintf("%q", m.Text)), nil
}

func TestMessagesEncodesOnlyWhatIsNew(t *testing.T) {
	var c Cache
	var enc counting
	msgs := []recovery.Message{{Role: "user", Text: "a"}, {Role: "assistant", Text: "b", ToolCalls: []recovery.ToolCall{{ID: "1", Input: json.RawMessage(`{}`)}}}}
	steps := []struct {
		name  string
		msgs  []recovery.Message
		calls int
	}{
		{"the first send", msgs, 2},
		{"a resend", append([]recovery.Message(nil), msgs...), 0},
		{"the next step", append(append([]recovery.Message(nil), msgs...), recovery.Message{Role: "user", Text: "c"}), 1},
		{"a head changed", append([]recovery.Message{{Role: "user", Text: "summary"}}, msgs[1:]...), 2},
		{"fewer messages", msgs[:1], 1},
	}
	for _, s := range steps {
		enc.calls = 0
		got, err := c.Messages(s.msgs, enc.encode)
		if err != nil {
			t.Fatal(err)
		}
		if enc.calls != s.calls {
			t.Errorf("%s: %d messages encoded, want %d", s.name, enc.calls, s.calls)
		}
		for i, m := range s.msgs {
			if string(got[i]) != fmt.Sprintf("%q", m.Text) {
				t.Errorf("%s: message %d is %s", s.name, i, got[i])
			}
		}
	}
	// An error keeps what was encoded before it.
	if _, err := c.Messages([]recovery.Message{msgs[0], {Role: "bad"}}, enc.encode); err == nil {
		t.Fatal("no error for a message that cannot be encoded")
	}
	enc.calls = 0
	if _, err := c.Messages(msgs[:1], enc.encode); err != nil || enc.calls != 0 {
		t.Fatalf("after an error: %d encoded, %v", enc.calls, err)
	}
}

func TestFrameBody(t *testing.T) {
	f := Frame{Skeleton: []byte(`{"max_tokens":1,"messages":[],"model":"m"}`)}
	for _, c := range []struct {
		lead string
		msgs []string
		want string
	}{
		{"", nil, `{"max_tokens":1,"messages":[],"model":"m"}`},
		{"", []string{`1`, `2`}, `{"max_tokens":1,"messages":[1,2],"model":"m"}`},
		{`0`, nil, `{"max_tokens":1,"messages":[0],"model":"m"}`},
		{`0`, []string{`1`, `2`}, `{"max_tokens":1,"messages":[0,1,2],"model":"m"}`},
	} {
		f.Lead = []byte(c.lead)
		var msgs [][]byte
		for _, m := range c.msgs {
			msgs = append(msgs, []byte(m))
		}
		got, err := f.Body(msgs)
		if err != nil || string(got) != c.want {
			t.Errorf("lead %q, %q: %s, %v", c.lead, c.msgs, got, err)
		}
	}
	if _, err := (Frame{Skeleton: []byte(`{"model":"m"}`)}).Body(nil); !errors.Is(err, ErrNoMessages) {
		t.Errorf("a skeleton without messages: %v", err)
	}
}

func TestBodyResendIsTheSameSlice(t *testing.T) {
	var c Cache
	var enc counting
	build := func(model string) func() (Frame, error) {
		return func() (Frame, error) {
			return Frame{Skeleton: []byte(`{"messages":[],"model":"` + model + `"}`)}, nil
		}
	}
	a := []recovery.Message{{Role: "user", Text: "a"}}
	ab := []recovery.Message{{Role: "user", Text: "a"}, {Role: "assistant", Text: "b"}}
	steps := []struct {
		name  string
		model string
		msgs  []recovery.Message
		want  string
		same  bool // the slice of the step before
	}{
		{"the first send", "m", a, `{"messages":["a"],"model":"m"}`, false},
		{"a resend", "m", append([]recovery.Message(nil), a...), `{"messages":["a"],"model":"m"}`, true},
		{"the next step", "m", ab, `{"messages":["a","b"],"model":"m"}`, false},
		{"fewer messages", "m", a, `{"messages":["a"],"model":"m"}`, false},
		{"another model", "n", a, `{"messages":["a"],"model":"n"}`, false},
		{"a resend of it", "n", a, `{"messages":["a"],"model":"n"}`, true},
		{"a changed message", "n", []recovery.Message{{Role: "user", Text: "z"}}, `{"messages":["z"],"model":"n"}`, false},
	}
	var last []byte
	for _, s := range steps {
		got, err := c.Body(Head{Model: s.model}, build(s.model), s.msgs, enc.encode)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != s.want {
			t.Errorf("%s: %s, want %s", s.name, got, s.want)
		}
		if same := last != nil && &got[0] == &last[0]; same != s.same {
			t.Errorf("%s: the last body's slice again is %v, want %v", s.name, same, s.same)
		}
		last = got
	}
}
