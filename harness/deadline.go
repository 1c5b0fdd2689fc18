package harness

import (
	"context"
	"errors"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/mockllm"
)

// AttemptTimeout is the client's deadline for one attempt in a run: ten
// minutes on the run's virtual clock, the official SDKs' default request
// timeout. A scripted hang ends there; so does a delay or a dribble that
// would outlast it.
const AttemptTimeout = 10 * time.Minute

// deadline is a run's virtual clock as the mock waits on it, and the
// client's deadline per attempt.
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
type deadline struct {
	*clock.Virtual
	timeout time.Duration
	next    http.RoundTripper

	mu  sync.Mutex
	cur *attempt // the attempt in flight; the engine sends one at a time
}

// attempt is one request in flight and its deadline.
type attempt struct {
	end     time.Time
	expired atomic.Bool
}

var (
	_ mockllm.Waiter    = (*deadline)(nil)
	_ http.RoundTripper = (*deadline)(nil)
)

func newDeadline(c *clock.Virtual, timeout time.Duration, next http.RoundTripper) *deadline {
	return &deadline{Virtual: c, timeout: timeout, next: next}
}

func (d *deadline) current() *attempt {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.cur
}

// ClientDeadline is the deadline of the attempt in flight.
func (d *deadline) ClientDeadline() (time.Time, bool) {
	if a := d.current(); a != nil {
		return a.end, true
	}
	return time.Time{}, false
}

// errGaveUp is what a wait returns when the client's deadline passes first.
var errGaveUp = errors.New("harness: the client's deadline passed")

// Wait moves the clock by dur, unless that passes the deadline of the
// attempt in flight (a negative dur always does): then the clock moves to
// the deadline and Wait fails at once.
func (d *deadline) Wait(ctx context.Context, dur time.Duration) error {
	a := d.current()
	now := d.Now()
	if a == nil || (dur >= 0 && !now.Add(dur).After(a.end)) {
		if dur < 0 {
			<-ctx.Done()
			return ctx.Err()
		}
		return d.Sleep(ctx, dur)
	}
	d.Advance(a.end.Sub(now))
	a.expired.Store(true)
	return errGaveUp
}

// RoundTrip sends one attempt with its deadline.
func (d *deadline) RoundTrip(req *http.Request) (*http.Response, error) {
	a := &attempt{end: d.Now().Add(d.timeout)}
	d.mu.Lock()
	d.cur = a
	d.mu.Unlock()
	resp, err := d.next.RoundTrip(req)
	if err != nil {
		if a.expired.Load() {
			return nil, timeoutError{d.timeout}
		}
		return nil, err
	}
	resp.Body = &deadlineBody{ReadCloser: resp.Body, a: a, timeout: d.timeout}
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
