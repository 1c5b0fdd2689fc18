package vertex

import (
	"net/url"
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The parts of a Vertex path.
const (
	projects   = "/v1/projects/"
	locations  = "locations/"
	publishers = "publishers/anthropic/models/"
	// SessionSep splits a project id of the form <scenario>--<session>.
	SessionSep = "--"
	// countModel is the model segment of the count-tokens route.
	countModel = "count-tokens"
)

// The methods after a model's colon.
const (
	methodRaw    = "rawPredict"
	methodStream = "streamRawPredict"
)

// maxSegment bounds a project, a region and a model as Google bounds a
// resource ID segment (the model's at 128, its versions included).
const maxSegment = 128

// Route splits [/<scenario>]/v1/projects/{project}/locations/{region}/publishers/anthropic/models/{model}:{method}
// into the scenario's name and what the path says: the model, whether the
// method streams (streamRawPredict), whether it counts
// (count-tokens:rawPredict). With no segment before /v1/, the project
// names the scenario, and a project <scenario>--<session> the session
// (split at the last --, so that a scenario's name may hold one when a
// session follows). The query carries nothing.
func (Wire) Route(path, _ string) (string, wire.Route, bool) {
	before, rest, ok := strings.Cut(path, projects)
	if !ok {
		return "", wire.Route{}, false
	}
	project, rest, ok := strings.Cut(rest, "/")
	if !ok || !segment(project) {
		return "", wire.Route{}, false
	}
	rest, ok = strings.CutPrefix(rest, locations)
	if !ok {
		return "", wire.Route{}, false
	}
	region, rest, ok := strings.Cut(rest, "/")
	if !ok || !segment(region) {
		return "", wire.Route{}, false
	}
	rest, ok = strings.CutPrefix(rest, publishers)
	if !ok {
		return "", wire.Route{}, false
	}
	model, method, ok := strings.Cut(rest, ":")
	if !ok || !segment(model) {
		return "", wire.Route{}, false
	}
	if m, err := url.PathUnescape(model); err == nil {
		model = m
	}
	var rt wire.Route
	switch {
	case model == countModel && method == methodRaw:
		rt.Count = true
	case model == countModel:
		return "", wire.Route{}, false
	case method == methodRaw:
		rt.Model = model
	case method == methodStream:
		rt.Model, rt.Stream = model, true
	default:
		return "", wire.Route{}, false
	}
	if before != "" {
		name := before[1:]
		if before[0] != '/' || name == "" || strings.Contains(name, "/") {
			return "", wire.Route{}, false
		}
		return name, rt, true
	}
	name, session := project, ""
	if i := strings.LastIndex(project, SessionSep); i >= 0 {
		name, session = project[:i], project[i+len(SessionSep):]
	}
	if name == "" {
		return "", wire.Route{}, false
	}
	rt.Session = session
	return name, rt, true
}

// segment reports whether s is one path segment the route may hold.
func segment(s string) bool {
	return s != "" && len(s) <= maxSegment && !strings.Contains(s, "/")
}
