package mockllm

import (
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// streamEvents renders the answer as server-sent events, as the fault
// leaves them: none (empty); the first, then one whose JSON is broken
// (malformed); the first After, before the connection drops (cut); the
// first After, then an error event (error).
func (r *reply) streamEvents(ev *wire.Events) {
	r.api.Stream(ev, &r.Reply)
	switch f := r.fault; f.Kind {
	case scenario.FaultEmpty:
		ev.Keep(0)
	case scenario.FaultMalformed:
		ev.Keep(1)
		r.api.Broken(ev, &r.Reply)
	case scenario.FaultCut:
		ev.Keep(f.After)
	case scenario.FaultError:
		ev.Keep(f.After)
		r.api.Failed(ev, &r.Reply, r.Failure)
	}
}

// outputSent is the output a 200 that a fault broke delivered: the text
// and tool arguments of the stream events sent whole before the fault; a
// body that does not stream delivers nothing usable once broken.
func (r *reply) outputSent() int {
	if !r.streaming() {
		return 0
	}
	p := wire.NewEvents()
	defer p.Release()
	r.streamEvents(p)
	if r.fault.Kind == scenario.FaultMalformed || r.fault.Kind == scenario.FaultError {
		// The broken event and the error event carry no output.
		p.Keep(p.Len() - 1)
	}
	return p.OutputTokens()
}
