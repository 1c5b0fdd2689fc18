package mockllm

import (
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/anthropic"
	"github.com/faultbench/faultbench/mockllm/internal/wire/azure"
	"github.com/faultbench/faultbench/mockllm/internal/wire/bedrock"
	"github.com/faultbench/faultbench/mockllm/internal/wire/chat"
	"github.com/faultbench/faultbench/mockllm/internal/wire/gemini"
	"github.com/faultbench/faultbench/mockllm/internal/wire/openrouter"
	"github.com/faultbench/faultbench/mockllm/internal/wire/responses"
	"github.com/faultbench/faultbench/mockllm/internal/wire/vertex"
)

// wires are the APIs a server speaks, built here and nowhere else: a
// path is matched against each wire's route in this order, and the first
// (Anthropic's) answers a path that no wire owns. A new wire is a folder
// under internal/wire and a line here (doc.go).
func wires() []wire.Wire {
	return []wire.Wire{anthropic.Wire{}, chat.Wire{}, responses.Wire{}, gemini.Wire{}, azure.Wire{}, bedrock.Wire{}, vertex.Wire{}, openrouter.Wire{}}
}

// route splits "/<scenario>/v1/messages" (or another wire's route) into
// the scenario's name and the wire. A Router (Gemini's, whose path names
// the model and the method) is asked first, and its Route is what the
// path says of the request (zero for a fixed path). A path that is none
// is answered by the wire that owns it (wireOfPath).
func (s *Server) route(path, query string) (string, wire.Wire, wire.Route, bool) {
	for _, w := range s.wires {
		if rw, ok := w.(wire.Router); ok {
			if name, rt, ok := rw.Route(path, query); ok {
				return name, w, rt, true
			}
		}
	}
	name, w, ok := s.fixedRoute(path)
	return name, w, wire.Route{}, ok
}

// fixedRoute is route for the wires of one fixed path.
func (s *Server) fixedRoute(path string) (string, wire.Wire, bool) {
	for _, w := range s.wires {
		if _, ok := w.(wire.Router); ok {
			continue
		}
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
// one whose routes hold the segment after v1/, or the Router whose prefix
// the path carries (/v1beta/: Gemini's), else the first.
func (s *Server) wireOfPath(path string) wire.Wire { return wireOfPath(s.wires, path) }

func wireOfPath(wires []wire.Wire, path string) wire.Wire {
	for _, w := range wires {
		if _, ok := w.(wire.Router); ok && strings.Contains(path, w.Spec().Path) {
			return w
		}
	}
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
