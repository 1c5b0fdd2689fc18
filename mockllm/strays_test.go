package mockllm

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/faultbench/faultbench/internal/clock"
)

// A request that reaches no session is journalled with at most
// maxEntryString bytes of each string the client chose — route, scenario,
// session, purpose — each in a copy of its own, so that a thousand
// 300 KB paths keep kilobytes, not 300 MB.
func TestStraysKeepClippedCopies(t *testing.T) {
	s := New(nil, clock.NewVirtual())
	long := strings.Repeat("x", 300<<10)
	for _, target := range []string{
		"/" + long + "/v1/messages",    // an unknown scenario, 300 KB long
		"/" + long,                     // no route at all
		"/short/v1/messages?q=" + long, // a short path in a long request line
	} {
		r := httptest.NewRequest(http.MethodPost, target, strings.NewReader("{}"))
		r.Header.Set(SessionHeader, strings.Repeat("s", 8000))
		r.Header.Set(PurposeHeader, strings.Repeat("p", 8000))
		s.ServeHTTP(httptest.NewRecorder(), r)
	}
	recs := s.strays.appendTo(nil)
	if len(recs) != 3 {
		t.Fatalf("%d strays journalled, want 3", len(recs))
	}
	for _, r := range recs {
		for name, v := range map[string]string{"route": r.Route, "scenario": r.Scenario, "session": r.Session, "purpose": r.Purpose} {
			if len(v) > maxEntryString+len("…") {
				t.Errorf("%s keeps %d bytes", name, len(v))
			}
		}
	}
}

// The strays' journal is a ring: past maxStrays requests that reached no
// session, each new one replaces the oldest, so a client that keeps
// asking for an unknown scenario sees the latest 1,000 in the journal and
// the server's memory stays flat.
func TestStraysKeepTheLatest(t *testing.T) {
	s := New(nil, clock.NewVirtual())
	const sent = maxStrays + 5
	for i := range sent {
		r := httptest.NewRequest(http.MethodPost, fmt.Sprintf("/nowhere-%d/v1/messages", i), strings.NewReader("{}"))
		s.ServeHTTP(httptest.NewRecorder(), r)
	}
	got := s.Journal()
	if len(got) != maxStrays {
		t.Fatalf("%d strays journalled after %d, want the latest %d", len(got), sent, maxStrays)
	}
	if first, last := got[0].Scenario, got[len(got)-1].Scenario; first != "nowhere-5" || last != fmt.Sprintf("nowhere-%d", sent-1) {
		t.Errorf("the journal runs from %q to %q, want nowhere-5 to nowhere-%d", first, last, sent-1)
	}
}
