package mockllm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"sync"
)

// Endpoint is a handler served on a real listener.
type Endpoint struct {
	// Addr is the host:port actually bound (the port the system chose when
	// Start was given port 0).
	Addr string

	srv    *http.Server
	fresh  freshConns
	done   chan struct{} // closed when Serve has returned
	err    error         // Serve's error, read after done
	once   sync.Once
	closed error
}

// Start serves h on addr ("127.0.0.1:0" for a free loopback port) in a
// goroutine, until Close, with no Limits. The listener is bound before
// Start returns, so the endpoint takes requests at once.
func Start(h http.Handler, addr string) (*Endpoint, error) {
	return StartLimited(h, addr, Limits{})
}

// StartLimited is Start with limits on slow, idle and too many clients:
// `faultbench serve` passes DefaultLimits, the harness none.
func StartLimited(h http.Handler, addr string, lim Limits) (*Endpoint, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("mockllm: listen on %s: %w", addr, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := &http.Server{
		Handler:     h,
		BaseContext: func(net.Listener) context.Context { return ctx },
		// No write timeout (see Limits): a scripted slow answer must not
		// be cut by the server itself.
	}
	ln = lim.apply(srv, ln)
	// Once Close has stopped the listener, the request contexts end, so a
	// handler that waits on one (a scripted hang) returns and Close is not
	// held up by it; handlers that are answering finish their answer.
	srv.RegisterOnShutdown(cancel)
	e := &Endpoint{Addr: ln.Addr().String(), srv: srv, done: make(chan struct{})}
	srv.ConnState = e.fresh.track
	go func() {
		defer close(e.done)
		defer cancel()
		e.err = srv.Serve(ln)
	}()
	return e, nil
}

// BaseURL is the base URL of one scenario, "http://ADDR/<scenario>/": an
// Anthropic client posts to <base>v1/messages.
func (e *Endpoint) BaseURL(scenario string) string {
	return "http://" + e.Addr + "/" + url.PathEscape(scenario) + "/"
}

// Close shuts the endpoint down gracefully: it stops listening, closes idle
// connections, waits for the handlers in flight to return, and returns once
// the serving goroutine has ended. Calling it again returns the first
// result.
func (e *Endpoint) Close() error {
	e.once.Do(func() {
		// Shutdown leaves a connection that has sent no request yet for
		// 5 s (net/http's guard for one whose request is on its way);
		// none is on its way to a mock being closed.
		e.srv.RegisterOnShutdown(e.fresh.closeAll)
		err := e.srv.Shutdown(context.Background())
		<-e.done
		if e.err != nil && !errors.Is(e.err, http.ErrServerClosed) {
			err = errors.Join(err, e.err)
		}
		if err != nil {
			e.closed = fmt.Errorf("mockllm: close %s: %w", e.Addr, err)
		}
	})
	return e.closed
}

// freshConns are the connections that have not yet sent a request
// (http.StateNew), which Close closes at once.
type freshConns struct {
	mu    sync.Mutex
	conns map[net.Conn]struct{}
}

func (f *freshConns) track(c net.Conn, state http.ConnState) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch state {
	case http.StateNew:
		if f.conns == nil {
			f.conns = map[net.Conn]struct{}{}
		}
		f.conns[c] = struct{}{}
	default:
		delete(f.conns, c)
	}
}

func (f *freshConns) closeAll() {
	f.mu.Lock()
	defer f.mu.Unlock()
	for c := range f.conns {
		_ = c.Close()
	}
}
