package mockllm

import (
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/anthropic"
	"github.com/faultbench/faultbench/mockllm/internal/wire/chat"
	"github.com/faultbench/faultbench/mockllm/internal/wire/responses"
)

// wires are the APIs a server speaks, built here and nowhere else: a
// path is matched against each wire's route in this order, and the first
// (Anthropic's) answers a path that no wire owns. A new wire is a folder
// under internal/wire and a line here (doc.go).
func wires() []wire.Wire {
	return []wire.Wire{anthropic.Wire{}, chat.Wire{}, responses.Wire{}}
}

// route splits "/<scenario>/v1/messages" (or another wire's route) into
// the scenario's name and the wire. A path that is none is answered by
// the wire that owns it (wireOfPath).
func (s *Server) route(path string) (string, wire.Wire, bool) {
	for _, w := range s.wires {
		if name, ok := strings.CutSuffix(path, w.Spec().Path); ok {
			if len(name) < 2 || name[0] != '/' {
				return "", w, false
			}
			return name[1:], w, true
		}
	}
	return "", s.wireOfPath(path), false
}

// wireOfPath is the wire a path the mock does not serve belongs to: the
// one whose routes hold the segment after v1/, else the first.
func (s *Server) wireOfPath(path string) wire.Wire { return wireOfPath(s.wires, path) }

func wireOfPath(wires []wire.Wire, path string) wire.Wire {
	if _, rest, ok := strings.Cut(path, "/v1/"); ok {
		first, _, _ := strings.Cut(rest, "/")
		for _, w := range wires {
			for _, r := range w.Spec().Routes {
				if first == r {
					return w
				}
			}
		}
	}
	return wires[0]
}

// countRoute splits "/<scenario>/v1/messages/count_tokens" (a Counter
// wire's count path) into the scenario's name and the wire.
func (s *Server) countRoute(path string) (string, wire.Wire, bool) {
	for _, w := range s.wires {
		c, ok := w.(wire.Counter)
		if !ok {
			continue
		}
		if name, ok := strings.CutSuffix(path, c.CountPath()); ok && len(name) >= 2 && name[0] == '/' {
			return name[1:], w, true
		}
	}
	return "", nil, false
}
