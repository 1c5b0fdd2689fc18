package mockllm

import (
	"context"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// Limits are an endpoint's protections against slow, idle and too many
// clients, in real time: they bound the process serving the mock, not the
// simulation, and the virtual clock never sees them. The zero value sets
// none, which is what the harness uses on its own loopback runs.
//
// There is no write timeout on a whole answer, on purpose: a scripted hang
// or dribble holds its answer for as long as the scenario says, and a
// write timeout would cut it. WriteStall bounds one write instead: a
// client that stops reading its answer (its socket buffers full) is hung
// up on once a write has made no progress for that long, so that it
// cannot hold a connection slot forever; a hang or a dribble's pause
// writes nothing and is not cut. ReadTimeout bounds reading a request,
// headers and body; net/http lifts the connection's read deadline once the
// body has been read to its end, so a scripted hang after it is not ended
// by the server either.
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
	// WriteStall is how long one write of an answer may block on a client
	// that does not read before the connection is closed. 0 means no
	// bound.
	WriteStall time.Duration
	// MaxConns is the most connections served at once; more wait to be
	// accepted until one closes. 0 means no limit. Past it, adminReserve
	// more are accepted for the journal and reset endpoints, so that they
	// answer while the model's slots are full; a model request on one of
	// those is answered 529 (503 on the OpenAI wires) and its connection
	// closed.
	MaxConns int
}

// adminReserve is how many connections past MaxConns are accepted for
// the journal and reset endpoints: 8.
const adminReserve = 8

// DefaultLimits are `faultbench serve`'s, each adjustable by a flag:
// headers within 10 s, a whole request within 60 s (a 32 MB body at
// 550 KB/s), keep-alive connections idle at most 120 s, a write stalled
// at most 30 s, and at most 256 connections at once.
var DefaultLimits = Limits{
	ReadHeaderTimeout: 10 * time.Second,
	ReadTimeout:       60 * time.Second,
	IdleTimeout:       120 * time.Second,
	WriteStall:        30 * time.Second,
	MaxConns:          256,
}

// apply sets the limits on srv and ln.
func (l Limits) apply(srv *http.Server, ln net.Listener) net.Listener {
	srv.ReadHeaderTimeout, srv.ReadTimeout, srv.IdleTimeout = l.ReadHeaderTimeout, l.ReadTimeout, l.IdleTimeout
	if l.MaxConns > 0 || l.WriteStall > 0 {
		ll := &limitListener{Listener: ln, stall: l.WriteStall, done: make(chan struct{})}
		if l.MaxConns > 0 {
			ll.sem, ll.reserve = make(chan struct{}, l.MaxConns), make(chan struct{}, adminReserve)
			next := srv.Handler
			srv.ConnContext = func(ctx context.Context, c net.Conn) context.Context {
				return context.WithValue(ctx, connKey{}, c)
			}
			srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if c, ok := r.Context().Value(connKey{}).(*limitConn); ok && c.reserved && !strings.HasPrefix(r.URL.Path, adminPrefix) {
					slotsFull(w, r)
					return
				}
				next.ServeHTTP(w, r)
			})
		}
		ln = ll
	}
	return ln
}

// connKey is the request context's key of its connection.
type connKey struct{}

// slotsFull answers a model request that came on a connection of the
// admin reserve: the model's connection slots are full.
func slotsFull(w http.ResponseWriter, r *http.Request) {
	api := wireOfPath(wires(), r.URL.Path)
	w.Header().Set("Connection", "close")
	// The wire's overload: 529, and 503 on the OpenAI wires.
	reject(w, r, api.Scripted(wire.Scripted{Status: 529}), api, "")
}

// limitListener accepts at most cap(sem) connections at once, and
// cap(reserve) more for the admin endpoints; each connection's writes
// stall at most stall.
type limitListener struct {
	net.Listener
	sem, reserve chan struct{} // nil: no limit
	stall        time.Duration
	done         chan struct{}
	closeOnce    sync.Once
}

func (l *limitListener) Accept() (net.Conn, error) {
	slot, reserved, err := l.take()
	if err != nil {
		return nil, err
	}
	c, err := l.Listener.Accept()
	if err != nil {
		if slot != nil {
			<-slot
		}
		return nil, err
	}
	lc := &limitConn{Conn: c, stall: l.stall, reserved: reserved}
	lc.release = sync.OnceFunc(func() {
		if slot != nil {
			<-slot
		}
	})
	return lc, nil
}

// take waits for a slot: a model slot first, else one of the reserve.
func (l *limitListener) take() (chan struct{}, bool, error) {
	if l.sem == nil {
		return nil, false, nil
	}
	select {
	case l.sem <- struct{}{}:
		return l.sem, false, nil
	default:
	}
	select {
	case l.sem <- struct{}{}:
		return l.sem, false, nil
	case l.reserve <- struct{}{}:
		return l.reserve, true, nil
	case <-l.done:
		return nil, false, net.ErrClosed
	}
}

func (l *limitListener) Close() error {
	l.closeOnce.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// limitConn gives its slot back when it closes, and bounds each write's
// stall.
type limitConn struct {
	net.Conn
	stall    time.Duration
	reserved bool // holds a slot of the admin reserve
	release  func()
}

func (c *limitConn) Write(p []byte) (int, error) {
	if c.stall > 0 {
		_ = c.Conn.SetWriteDeadline(time.Now().Add(c.stall))
	}
	return c.Conn.Write(p)
}

func (c *limitConn) Close() error {
	err := c.Conn.Close()
	c.release()
	return err
}
