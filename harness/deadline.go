package harness

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/faultbench/faultbench/mockllm"
)

// AttemptTimeout is the client's deadline for one attempt in a run: ten
// minutes on the run's virtual clock, the official SDKs' default request
// timeout. A scripted hang ends there; so does a delay or a dribble that
// would outlast it.
const AttemptTimeout = 10 * time.Minute

// turnClock is a run's clock as the mock's session of one turn waits on
// it, and the client's deadline per attempt.
//
// Virtual time moves only when someone waits, and while an attempt is in
// flight the engine waits for its answer, so only the mock's waits (a
// delay, a dribble, a hang) move the clock then. The client's deadline is
// therefore virtual too, and the mock is the one to see it pass: when a
// wait would pass it, the clock moves to the deadline, the wait fails, and
// the mock hangs up; the client reads what had been sent, then a timeout
// (a net.Error whose Timeout is true) in place of the broken connection.
// A hang of ten virtual minutes costs one loopback round trip of wall
// time, and the outcome never depends on how far the client had read: the
// decision is taken in virtual time, not raced against a wall-clock timer.
// A wait parks the turn on the run's scheduler (sched.go), so that the
// other turns of a workload run meanwhile.
type turnClock struct {
	s   *sched
	cur atomic.Pointer[attempt] // the attempt in flight; a turn sends one at a time
}

// attempt is one request in flight and its deadline.
type attempt struct {
	end     time.Time
	expired atomic.Bool
}

var (
	_ mockllm.Waiter    = (*turnClock)(nil)
	_ http.RoundTripper = (*turnTransport)(nil)
)

// Now is the run's virtual time.
func (c *turnClock) Now() time.Time { return c.s.Now() }

// ClientDeadline is the deadline of the attempt in flight.
func (c *turnClock) ClientDeadline() (time.Time, bool) {
	if a := c.cur.Load(); a != nil {
		return a.end, true
	}
	return time.Time{}, false
}

// errGaveUp is what a wait returns when the client's deadline passes first.
var errGaveUp = errors.New("harness: the client's deadline passed")

// Wait parks the turn for d, unless that passes the deadline of the
// attempt in flight (a hang, d < 0, always does): then the clock moves to
// the deadline and Wait fails.
func (c *turnClock) Wait(ctx context.Context, d time.Duration) error {
	a := c.cur.Load()
	now := c.s.Now()
	if a == nil {
		if d < 0 {
			return errGaveUp // no deadline to end a hang: the client gives up at once
		}
		return c.s.Sleep(ctx, d)
	}
	if d >= 0 && !now.Add(d).After(a.end) {
		return c.s.Sleep(ctx, d)
	}
	_ = c.s.Sleep(ctx, a.end.Sub(now))
	a.expired.Store(true)
	return errGaveUp
}

// turnTransport sends each request in the session of the turn that runs,
// with that turn's attempt deadline.
type turnTransport struct {
	s        *sched
	clocks   []*turnClock
	sessions []string
	timeout  time.Duration
	next     http.RoundTripper
	sent     func(k int, at time.Time) // turn k sends a request at at; nil to not say
}

// RoundTrip sends one attempt with its deadline.
func (t *turnTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	k := t.s.current()
	c := t.clocks[k]
	// The request is not cut when the run's context ends: the mock may be
	// waiting on this turn's behalf, parked in the scheduler, and a client
	// that went on without its answer would run beside the turn the
	// scheduler runs (Ctrl-C then panicked in the observer). The end of the
	// context reaches the turn through the engine's next sleep or its check
	// after the answer instead.
	r := req.Clone(context.WithoutCancel(req.Context()))
	r.Header.Set(mockllm.SessionHeader, t.sessions[k])
	now := c.Now()
	if t.sent != nil {
		t.sent(k, now)
	}
	a := &attempt{end: now.Add(t.timeout)}
	c.cur.Store(a)
	resp, err := t.next.RoundTrip(r)
	if err != nil {
		if a.expired.Load() {
			return nil, timeoutError{t.timeout}
		}
		return nil, err
	}
	resp.Body = &deadlineBody{ReadCloser: resp.Body, a: a, timeout: t.timeout}
	return resp, nil
}

// deadlineBody reads a timeout, not a broken connection, once its
// attempt's deadline has passed.
type deadlineBody struct {
	io.ReadCloser
	a       *attempt
	timeout time.Duration
}

func (b *deadlineBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF && b.a.expired.Load() {
		err = timeoutError{b.timeout}
	}
	return n, err
}

// timeoutError is what the client reads when an attempt's deadline
// passes: a net.Error that timed out, as a real client's deadline gives.
type timeoutError struct{ timeout time.Duration }

func (e timeoutError) Error() string {
	return "harness: no answer within the attempt's " + e.timeout.String() + " deadline (virtual time)"
}

// Timeout reports true: the deadline passed.
func (timeoutError) Timeout() bool { return true }

// Temporary reports true, as a net.Error that timed out does.
func (timeoutError) Temporary() bool { return true }
