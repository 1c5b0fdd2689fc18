package mockllm

import (
	"strings"
	"testing"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/anthropic"
	"github.com/faultbench/faultbench/mockllm/internal/wire/chat"
	"github.com/faultbench/faultbench/mockllm/internal/wire/gemini"
	"github.com/faultbench/faultbench/mockllm/internal/wire/responses"
)

// The wires as the tests name them.
var (
	anthropicWire wire.Wire = anthropic.Wire{}
	openaiWire    wire.Wire = chat.Wire{}
	responsesWire wire.Wire = responses.Wire{}
	geminiWire    wire.Wire = gemini.Wire{}
)

// name is a wire's name, for a test's message.
func name(w wire.Wire) string { return w.Spec().Name }

// TestWiresAreDistinct guards the registry (wires.go): each wire has its
// own name in the journal, its own route and its own answer IDs, so that
// adding one cannot shadow another.
func TestWiresAreDistinct(t *testing.T) {
	seen := map[string]string{}
	for _, w := range wires() {
		sp := w.Spec()
		for _, key := range []string{"name " + sp.Name, "path " + sp.Path, "answer " + sp.AnswerPrefix + string(sp.AnswerTag)} {
			if other, ok := seen[key]; ok {
				t.Errorf("%s and %s share the %s", other, sp.Name, key)
			}
			seen[key] = sp.Name
		}
		if sp.Name == "" || sp.Path == "" || sp.AnswerPrefix == "" || sp.ToolPrefix == "" {
			t.Errorf("%+v: a wire names itself, its route and its IDs", sp)
		}
		for _, other := range wires() {
			if o := other.Spec(); o.Name != sp.Name && strings.HasSuffix(o.Path, sp.Path) {
				t.Errorf("%s's route %s ends in %s's %s: the first in wires() would take both", o.Name, o.Path, sp.Name, sp.Path)
			}
		}
	}
}
