package mockllm

import "github.com/faultbench/faultbench/mockllm/internal/wire"

// WithDefaultScenario serves scenario name at the paths that name no
// scenario: POST /model/{modelId}/invoke is served as
// /<name>/model/{modelId}/invoke, /v1/messages as /<name>/v1/messages.
// A client whose SDK makes its request path absolute, dropping the path
// of its base URL, needs it: anthropic-sdk-go's bedrock option (and
// @anthropic-ai/bedrock-sdk) send /model/{modelId}/invoke at the root of
// the endpoint whatever path the endpoint has. Such a client names no
// session either, unless it sends X-Faultbench-Session: its requests share
// the session "default". A path that names a scenario is routed as
// without the option; "" (the default) serves no scenario at the root.
func WithDefaultScenario(name string) Option {
	return func(s *Server) { s.fallback = name }
}

// routeOrDefault is route, then, for a path that is no wire's route under
// any scenario, route of the path under the default scenario.
func (s *Server) routeOrDefault(path, query string) (string, wire.Wire, wire.Route, bool) {
	name, wr, rt, ok := s.route(path, query)
	if ok || s.fallback == "" {
		return name, wr, rt, ok
	}
	if name, dwr, drt, ok := s.route("/"+s.fallback+path, query); ok && name == s.fallback {
		return name, dwr, drt, true
	}
	return name, wr, rt, ok
}
