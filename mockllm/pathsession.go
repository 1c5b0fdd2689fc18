package mockllm

import (
	"net/url"
	"strings"
)

// SessionSegment is the path segment that names a session in a URL:
// http://ADDR/<scenario>/s/<session>/v1/messages is scenario's session
// <session>, as the X-Faultbench-Session header would name it, so that an
// unmodified client, which sends no such header, can be given a session of
// its own by its base URL alone. The session in the path wins over the
// header.
const SessionSegment = "s"

// pathSession splits "/<scenario>/s/<session>/<rest>" into the path the
// mock routes ("/<scenario>/<rest>") and the session's name. ok is false
// for any other path, and for an empty session name.
func pathSession(path string) (routed, session string, ok bool) {
	name, after, found := strings.Cut(strings.TrimPrefix(path, "/"), "/"+SessionSegment+"/")
	if !found || name == "" || strings.Contains(name, "/") {
		return "", "", false
	}
	session, rest, found := strings.Cut(after, "/")
	if !found || session == "" {
		return "", "", false
	}
	return "/" + name + "/" + rest, session, true
}

// SessionURL is the base URL of one session of a scenario,
// "http://ADDR/<scenario>/s/<session>/": a client whose base URL it is
// has that session without sending the X-Faultbench-Session header.
func (e *Endpoint) SessionURL(scenario, session string) string {
	return e.BaseURL(scenario) + SessionSegment + "/" + url.PathEscape(session) + "/"
}
