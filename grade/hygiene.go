package grade

import (
	"net/url"
	"strings"
)

// dummyKeys are the provider keys a client is given, always DummyKey:
// the user's real ones never reach the client, which sends its key to
// whatever base URL and proxy it was given.
var dummyKeys = []string{"ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "AZURE_OPENAI_API_KEY"}

// secret says whether an environment variable is a credential grade
// leaves out of the client's environment: any *_API_KEY but the
// dummyKeys (GOOGLE_API_KEY, which @google/genai would prefer over
// GEMINI_API_KEY, among them), the Anthropic and Claude Code tokens, and
// Google's credentials file.
func secret(name string) bool {
	switch strings.ToUpper(name) {
	case "ANTHROPIC_AUTH_TOKEN", "CLAUDE_CODE_OAUTH_TOKEN", "GOOGLE_APPLICATION_CREDENTIALS", "OPENAI_ADMIN_KEY":
		return true
	}
	return strings.HasSuffix(strings.ToUpper(name), "_API_KEY")
}

// noProxy is base's NO_PROXY (or no_proxy) with the mock's host and
// localhost added, so that a client behind http_proxy or https_proxy
// talks to the mock, not to the proxy, and sends its key nowhere else.
func noProxy(base []string, baseURL string) string {
	v, ok := lookup(base, "NO_PROXY")
	if !ok {
		v, _ = lookup(base, "no_proxy")
	}
	var hosts []string
	for _, h := range strings.Split(v, ",") {
		if h = strings.TrimSpace(h); h != "" {
			hosts = append(hosts, h)
		}
	}
	if u, err := url.Parse(baseURL); err == nil && u.Hostname() != "" {
		hosts = append(hosts, u.Hostname())
	}
	return strings.Join(append(hosts, "localhost"), ",")
}
