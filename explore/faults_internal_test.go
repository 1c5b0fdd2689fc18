package explore

import (
	"net/http"
	"strings"
	"testing"
)

// TestFaultHeadersAreHeaders: every header of the generator's faults is a
// header a real API sends (a retry or rate-limit directive), with a value
// of its own, not another header's name ("" takes a default header away).
func TestFaultHeadersAreHeaders(t *testing.T) {
	seen := 0
	for _, f := range faults {
		for k, v := range f.Respond.Headers {
			seen++
			name := strings.ToLower(k)
			if !strings.Contains(name, "retry") && !strings.Contains(name, "ratelimit") {
				t.Errorf("%s: %q is no retry or rate-limit header", f.Name, k)
			}
			if http.CanonicalHeaderKey(v) == http.CanonicalHeaderKey(k) || strings.Contains(v, "ratelimit") {
				t.Errorf("%s: header %q has the value %q", f.Name, k, v)
			}
		}
	}
	if seen == 0 {
		t.Fatal("no fault has a header")
	}
}
