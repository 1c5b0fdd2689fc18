package yamlhint

import "testing"

const doc = `name: a
models:
  m:
    context_window: 1000
      max_output: 100
turn:
  model: m
 messages: [{count: 1, tokens: 10}]
script:
  - when: {attempt: 1}
    respond: {status: 529}
`

func TestNearNamesTheFieldByIndentation(t *testing.T) {
	for line, want := range map[int]string{
		1: "name", 3: "models.m", 4: "models.m.context_window", 5: "models.m.context_window.max_output",
		7: "turn.model", 8: "turn.messages", 10: "script.when", 11: "script.respond", 0: "",
	} {
		if got := Near([]byte(doc), line); got != want {
			t.Errorf("line %d: got %q, want %q", line, got, want)
		}
	}
}

func TestHintAddsTheFieldAndAnIndentationHint(t *testing.T) {
	got := Hint("mapping value is not allowed in this context", []byte(doc), 4)
	want := "mapping value is not allowed in this context (near models.m.context_window: check the indentation of " +
		"this line and the next; the keys of one mapping line up, with spaces, not tabs)"
	if got != want {
		t.Errorf("got %q", got)
	}
	if got := Hint(`mapping key "name" already defined at [1:1]`, []byte(doc), 1); got != `mapping key "name" already defined at [1:1]` {
		t.Errorf("no indentation hint wanted: %q", got)
	}
}
