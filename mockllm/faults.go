package mockllm

import (
	"context"
	"net"
	"net/http"
	"time"
)

// Waiter is an optional capability of a session's Clock: how the mock
// waits on it for a scripted delay, a dribble and a hang. The harness
// gives its sessions a Waiter that moves the virtual clock and plays the
// client's deadline.
//
// A Clock that is no Waiter is waited on by its Sleep(ctx, d) method when
// it has one (RealClock sleeps; a virtual clock of yours moves on), and not
// at all otherwise; a hang waits for the request's context alone.
type Waiter interface {
	// Wait returns nil once d has passed on the clock. It returns an error
	// as soon as ctx ends, or as soon as it knows the client gives up
	// first: the mock then hangs up, and the client reads that its
	// deadline passed. A negative d is a hang: it waits until ctx ends or
	// the client gives up.
	Wait(ctx context.Context, d time.Duration) error
	// ClientDeadline is the time on the clock at which the client of the
	// request in flight gives up, when it is known. The journal then
	// records what that client sees of a delay or a dribble that outlasts
	// it: no status at all, or a body that stops.
	ClientDeadline() (time.Time, bool)
}

// sleeper is a clock that can sleep, as RealClock can.
type sleeper interface {
	Sleep(ctx context.Context, d time.Duration) error
}

// waitOn waits d (negative: until ctx ends) on c.
func waitOn(ctx context.Context, c Clock, d time.Duration) error {
	if w, ok := c.(Waiter); ok {
		return w.Wait(ctx, d)
	}
	if d < 0 {
		<-ctx.Done()
		return ctx.Err()
	}
	if s, ok := c.(sleeper); ok {
		return s.Sleep(ctx, d)
	}
	return ctx.Err()
}

// garbage is what the garbage fault sends instead of an HTTP response: a
// TLS record header, a stray NUL and a line of text, as a misconfigured
// proxy or a port reused by another protocol might.
const garbage = "\x16\x03\x01\x00\x05\x00not HTTP: faultbench garbage\r\n"

// hijack takes the connection over from net/http, after flushing what was
// written. It returns nil when w cannot be hijacked (a ResponseRecorder in
// tests): the fault is then only what was written.
func hijack(w http.ResponseWriter) net.Conn {
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return nil
	}
	return conn
}

// resetConn resets the connection before anything is sent: with linger 0,
// closing it sends an RST, and the client reads "connection reset by
// peer".
func resetConn(w http.ResponseWriter) {
	conn := hijack(w)
	if conn == nil {
		return
	}
	if tc, ok := conn.(*net.TCPConn); ok {
		_ = tc.SetLinger(0)
	}
	_ = conn.Close()
}

// sendGarbage writes bytes that are no HTTP response and closes the
// connection.
func sendGarbage(w http.ResponseWriter) {
	conn := hijack(w)
	if conn == nil {
		return
	}
	_, _ = conn.Write([]byte(garbage))
	_ = conn.Close()
}

// hangUp closes the connection without a word more: before the headers
// the client reads no response at all; in the middle of a body (flushed
// first, so that what was written goes out) it reads an unexpected EOF.
func hangUp(w http.ResponseWriter, headersSent bool) {
	if headersSent && http.NewResponseController(w).Flush() != nil {
		return
	}
	if conn := hijack(w); conn != nil {
		_ = conn.Close()
	}
}
