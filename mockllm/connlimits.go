package mockllm

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// Limits are an endpoint's protections against slow, idle and too many
// clients, in real time: they bound the process serving the mock, not the
// simulation, and the virtual clock never sees them. The zero value sets
// none, which is what the harness uses on its own loopback runs.
//
// There is no write timeout, on purpose: a scripted hang or dribble holds
// its answer for as long as the scenario says, and a write timeout would
// cut it. ReadTimeout bounds reading a request, headers and body; net/http
// lifts the connection's read deadline once the body has been read to its
// end, so a scripted hang after it is not ended by the server either.
type Limits struct {
	// ReadHeaderTimeout is the time a client has to send a request's
	// headers.
	ReadHeaderTimeout time.Duration
	// ReadTimeout is the time a client has to send a whole request,
	// headers and body.
	ReadTimeout time.Duration
	// IdleTimeout is how long a keep-alive connection may wait for its
	// next request.
	IdleTimeout time.Duration
	// MaxConns is the most connections served at once; more wait to be
	// accepted until one closes. 0 means no limit.
	MaxConns int
}

// DefaultLimits are `faultbench serve`'s, each adjustable by a flag:
// headers within 10 s, a whole request within 60 s (a 32 MB body at
// 550 KB/s), keep-alive connections idle at most 120 s, and at most 256
// connections at once.
var DefaultLimits = Limits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       60 * time.Second,
	IdleTimeout:       120 * time.Second,
	MaxConns:          256,
}

// apply sets the limits on srv and ln.
func (l Limits) apply(srv *http.Server, ln net.Listener) net.Listener {
	srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout = l.ReadHeaderTimeout, l.ReadTimeout, l.IdleTimeout
	if l.MaxConns > 0 {
		ln = &limitListener{Listener: ln, sem: make(chan struct{}, l.MaxConns), done: make(chan struct{})}
	}
	return ln
}

// limitListener accepts at most cap(sem) connections at once.
type limitListener struct {
	net.Listener
	sem       chan struct{}
	done      chan struct{}
	closeOnce sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	select {
	case l.sem <- struct{}{}:
	case <-l.done:
		return nil, net.ErrClosed
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.sem
		return nil, err
	}
	return &limitConn{Conn: c, release: sync.OnceFunc(func() { <-l.sem })}, nil
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn gives its slot back when it closes.
type limitConn struct {
	net.Conn
	release func()
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
