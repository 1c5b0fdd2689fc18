package mockllm

import (
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/faultbench/faultbench/internal/within"
)

// serveLimited serves a handler that reads the body and answers 200, with
// lim, and returns its address.
func serveLimited(t *testing.T, lim Limits) string {
	t.Helper()
	ep, err := StartLimited(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(r.Body); err != nil {
			w.WriteHeader(http.StatusBadRequest)
		}
	}), "127.0.0.1:0", lim)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = ep.Close() })
	return ep.Addr
}

// closedByServer writes partial to a new connection and reads until the
// server ends it; the test's own deadline (a minute) only keeps a broken
// server from hanging the test.
func closedByServer(t *testing.T, addr, partial string) string {
	t.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(time.Minute))
	if _, err := io.WriteString(c, partial); err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(c)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Fatalf("the server kept the connection open a minute; read %q", got)
	}
	return string(got)
}

func TestSlowHeadersAreCut(t *testing.T) {
	addr := serveLimited(t, Limits{ReadHeaderTimeout: 50 * time.Millisecond})
	closedByServer(t, addr, "POST /x/v1/messages HTTP/1.1\r\nHost: a\r\n")
}

func TestADribbledBodyIsCut(t *testing.T) {
	addr := serveLimited(t, Limits{ReadTimeout: 100 * time.Millisecond})
	got := closedByServer(t, addr, "POST /x/v1/messages HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\n{")
	if !strings.HasPrefix(got, "HTTP/1.1 400") {
		t.Fatalf("got %q", got)
	}
}

func TestIdleConnectionsAreClosed(t *testing.T) {
	addr := serveLimited(t, Limits{IdleTimeout: 50 * time.Millisecond})
	got := closedByServer(t, addr, "POST /x/v1/messages HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\n{}")
	if !strings.HasPrefix(got, "HTTP/1.1 200") {
		t.Fatalf("got %q", got)
	}
}

// fakeListener hands out pipe connections and logs what happens.
type fakeListener struct {
	mu  sync.Mutex
	log []string
}

func (f *fakeListener) note(s string) {
	f.mu.Lock()
	f.log = append(f.log, s)
	f.mu.Unlock()
}

func (f *fakeListener) Accept() (net.Conn, error) {
	a, _ := net.Pipe()
	f.note("accept")
	return &noteConn{Conn: a, f: f}, nil
}
func (f *fakeListener) Close() error   { return nil }
func (f *fakeListener) Addr() net.Addr { return &net.TCPAddr{} }

type noteConn struct {
	net.Conn
	f *fakeListener
}

func (c *noteConn) Close() error { c.f.note("close"); return c.Conn.Close() }

// The third connection is accepted only once one of the first two closes.
func TestConnectionLimit(t *testing.T) {
	f := &fakeListener{}
	l := &limitListener{Listener: f, sem: make(chan struct{}, 2), done: make(chan struct{})}
	c1, _ := l.Accept()
	_, _ = l.Accept()
	third := make(chan net.Conn)
	go func() {
		c, _ := l.Accept()
		third <- c
	}()
	_ = c1.Close()
	within.Recv(t, third, "the third connection")
	if got := strings.Join(f.log, " "); got != "accept accept close accept" {
		t.Fatalf("got %s", got)
	}
	_ = c1.Close() // a second close gives back nothing more
	if len(l.sem) != 2 {
		t.Fatalf("%d slots taken, want 2", len(l.sem))
	}
	_ = l.Close()
	if _, err := l.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Fatalf("Accept after Close: %v", err)
	}
}
