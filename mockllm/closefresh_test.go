package mockllm_test

import (
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/faultbench/faultbench/mockllm"
)

// Close does not wait for a connection that has sent no request: net/http's
// Shutdown leaves one open for 5 s (its request may be on its way), which
// held every test that closed a mock a client had just dialed — 5 s each,
// a minute of the package's specs.
func TestCloseDoesNotWaitForAConnectionThatSentNothing(t *testing.T) {
	ep, err := mockllm.Start(http.NotFoundHandler(), "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.DialTimeout("tcp", ep.Addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	// The accept loop takes connections in order: once a request on a
	// connection dialed later has been answered, this one was accepted
	// (and, having sent nothing, is http.StateNew).
	resp, err := http.Get("http://" + ep.Addr + "/")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	done := make(chan error, 1)
	go func() { done <- ep.Close() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(4 * time.Second): // net/http's guard is 5 s; Close takes milliseconds
		t.Fatal("Close waited for a connection that sent no request")
	}
	_ = conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	if n, err := conn.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("the fresh connection read %d bytes, %v; want it closed (EOF)", n, err)
	}
}
