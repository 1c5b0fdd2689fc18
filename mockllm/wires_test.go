package mockllm

import (
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/anthropic"
	"github.com/faultbench/faultbench/mockllm/internal/wire/chat"
	"github.com/faultbench/faultbench/mockllm/internal/wire/responses"
)

// The wires as the tests name them.
var (
	anthropicWire wire.Wire = anthropic.Wire{}
	openaiWire    wire.Wire = chat.Wire{}
	responsesWire wire.Wire = responses.Wire{}
)

// name is a wire's name, for a test's message.
func name(w wire.Wire) string { return w.Spec().Name }
