package reports

import (
	"bytes"
	"strings"
	"testing"
)

// Text from a scenario file or a merged report (a description, a reason,
// a name) reaches no format with a raw escape, bell or bidirectional
// override in it: each is written as a visible escape.
func TestNoFormatPassesRawControls(t *testing.T) {
	const hostile = "a\x1b[2Jb\x07c\u202ed"
	rep := forgedReport(5)
	for i := range rep.Results {
		rep.Results[i].Reason = hostile
	}
	rep.Results[0].Scenario = "s" + hostile
	opts := Options{Strategies: []string{"blind", "classify"}, Descriptions: map[string]string{"s" + hostile: "desc " + hostile, "s": hostile}}
	for _, f := range Formats() {
		if f == FormatJSON || f == FormatBaseline { // the machine contract carries the text as it is, JSON-escaped
			continue
		}
		var buf bytes.Buffer
		if err := Write(&buf, f, rep, opts); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if i := strings.IndexAny(buf.String(), "\x1b\x07\u202e"); i >= 0 {
			t.Errorf("%s passes a raw control: %q", f, buf.String()[max(0, i-40):min(buf.Len(), i+10)])
		}
	}
}
