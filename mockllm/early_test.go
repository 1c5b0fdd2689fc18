package mockllm

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/scenario"
)

// A request refused before its body is read — a declared body past
// 32 MB, a stray, a bad anthropic-version or purpose from a client that
// sends Expect: 100-continue — is answered at once, and the connection
// closed, even when the client sends no more of the body until it hears
// back. (Without Expect, a request refused on its headers has its body
// read for the journal, as an accepted one does: routes_test.go.)
func TestARefusalBeforeTheBodyIsAnsweredAtOnce(t *testing.T) {
	sc := &scenario.Scenario{Name: "sc", Models: map[string]scenario.Model{"m": {ContextWindow: 1000, MaxOutput: 100}}}
	ep, err := StartLimited(New([]*scenario.Scenario{sc}, clock.NewVirtual()), "127.0.0.1:0", Limits{ReadTimeout: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	for _, c := range []struct {
		name, path, headers string
		status              int
	}{
		{"a declared 34 MB", "/sc/v1/messages", fmt.Sprintf("Content-Length: %d\r\nAnthropic-Version: 2023-06-01\r\n", 34<<20), 413},
		{"a declared 34 MB, Expect: 100-continue", "/sc/v1/messages", fmt.Sprintf("Content-Length: %d\r\nExpect: 100-continue\r\nAnthropic-Version: 2023-06-01\r\n", 34<<20), 413},
		{"a bad anthropic-version", "/sc/v1/messages", "Content-Length: 100000\r\nExpect: 100-continue\r\nAnthropic-Version: 1999-01-01\r\n", 400},
		{"a bad purpose", "/sc/v1/messages", "Content-Length: 100000\r\nExpect: 100-continue\r\nX-Faultbench-Purpose: chat\r\nAnthropic-Version: 2023-06-01\r\n", 400},
		{"Gemini without a key", "/sc/v1beta/models/m:generateContent", "Content-Length: 100000\r\nExpect: 100-continue\r\n", 403},
		{"an unknown scenario", "/nope/v1/messages", "Content-Length: 100000\r\n", 404},
		{"a bad anthropic-version on count_tokens", "/sc/v1/messages/count_tokens", "Content-Length: 100000\r\nAnthropic-Version: 1999-01-01\r\n", 400},
	} {
		conn, err := net.Dial("tcp", ep.Addr)
		if err != nil {
			t.Fatal(err)
		}
		// Bounded: without the early answer the server reads on until its
		// minute-long read timeout.
		_ = conn.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: x\r\n%s\r\n{\"model\"", c.path, c.headers)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Fatalf("%s: no answer: %v", c.name, err)
		}
		if resp.StatusCode != c.status || !resp.Close {
			t.Errorf("%s: %d (close %v), want %d and the connection closed", c.name, resp.StatusCode, resp.Close, c.status)
		}
		conn.Close()
	}
}
