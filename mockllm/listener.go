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
