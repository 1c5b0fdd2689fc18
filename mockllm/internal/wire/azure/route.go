package azure

import (
	"net/url"
	"strings"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// The routes under a scenario's base URL.
const (
	prefix      = "openai/"
	deployments = "deployments/"
	v1Path      = "v1/chat/completions"
	chatSuffix  = "/chat/completions"
)

// maxDeployment bounds a deployment's name as Azure does: 64 characters.
const maxDeployment = 64

// Route splits /<scenario>/openai/deployments/{deployment}/chat/completions
// into the scenario's name and the deployment, which names the model; a
// deployment path needs an api-version in its query, as Azure's does (a
// path without one is Azure's 404). /<scenario>/openai/v1/chat/completions
// leaves the model to the body. The key is never in the query.
func (Wire) Route(path, query string) (string, wire.Route, bool) {
	name, rest, ok := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	if !ok || name == "" || !strings.HasPrefix(path, "/") {
		return "", wire.Route{}, false
	}
	rest, ok = strings.CutPrefix(rest, prefix)
	if !ok {
		return "", wire.Route{}, false
	}
	if rest == v1Path {
		return name, wire.Route{}, true
	}
	dep, ok := strings.CutPrefix(rest, deployments)
	if !ok {
		return "", wire.Route{}, false
	}
	dep, ok = strings.CutSuffix(dep, chatSuffix)
	if !ok || dep == "" || len(dep) > maxDeployment || strings.Contains(dep, "/") || !hasAPIVersion(query) {
		return "", wire.Route{}, false
	}
	if d, err := url.PathUnescape(dep); err == nil {
		dep = d
	}
	return name, wire.Route{Model: dep}, true
}

// hasAPIVersion reports whether a raw query names an api-version.
func hasAPIVersion(query string) bool {
	q, err := url.ParseQuery(query)
	return err == nil && q.Get("api-version") != ""
}

// CountBody is never asked for: Azure's chat routes count nothing.
func (Wire) CountBody(b []byte, _ int) []byte { return b }
