package mockllm

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/scenario"
)

// A client that never reads its answer cannot hold its slot forever: the
// write that stalls on it fails once WriteStall passes, and the handler
// returns.
func TestAStalledReaderIsHungUpOn(t *testing.T) {
	ended := make(chan error, 1)
	ep, err := StartLimited(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		chunk := []byte(strings.Repeat("x", 1<<20))
		for range 256 { // 256 MB, far past the socket buffers
			if _, err := w.Write(chunk); err != nil {
				ended <- err
				return
			}
		}
		ended <- nil
	}), "127.0.0.1:0", Limits{WriteStall: 100 * time.Millisecond, MaxConns: 4})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	c, err := net.Dial("tcp", ep.Addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	fmt.Fprint(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n") // and never read
	select {
	case err := <-ended:
		if err == nil {
			t.Fatal("256 MB written to a client that reads nothing")
		}
	case <-time.After(time.Minute): // only a broken bound gets here
		t.Fatal("the handler still writes to a stalled reader after a minute")
	}
}

// With every connection slot held by clients that do not read, the
// journal still answers, on a connection of the admin reserve; a model
// request on such a connection is 529, at once.
func TestTheJournalAnswersWhileTheSlotsAreFull(t *testing.T) {
	sc := &scenario.Scenario{Name: "sc", Models: map[string]scenario.Model{"m": {ContextWindow: 1000, MaxOutput: 100}}}
	ep, err := StartLimited(New([]*scenario.Scenario{sc}, clock.NewVirtual()), "127.0.0.1:0", Limits{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer ep.Close()
	for range 2 { // hold both slots
		c, err := net.Dial("tcp", ep.Addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	get := func(req string) *http.Response {
		c, err := net.Dial("tcp", ep.Addr)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { c.Close() })
		_ = c.SetDeadline(time.Now().Add(10 * time.Second)) // bounded: without the reserve, no answer at all
		fmt.Fprint(c, req)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%q: no answer with the slots full: %v", req, err)
		}
		return resp
	}
	if resp := get("GET " + JournalPath + " HTTP/1.1\r\nHost: x\r\n\r\n"); resp.StatusCode != 200 {
		t.Fatalf("journal: %d", resp.StatusCode)
	}
	if resp := get("POST /sc/v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}"); resp.StatusCode != 529 || !resp.Close {
		t.Fatalf("a model request on the reserve: %d (close %v), want 529 and the connection closed", resp.StatusCode, resp.Close)
	}
}
