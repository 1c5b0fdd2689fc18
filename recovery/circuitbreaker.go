package recovery

import (
	"sync"
	"time"
)

// CircuitBreaker stops sending to a model that keeps answering overloaded.
// Its state is the Engine's, per model, shared by every turn. It is
// failsafe-go's circuitbreaker with a count-based threshold and the names
// of its states:
//
//   - closed: requests go; FailureThreshold consecutive overloads (529,
//     or the OpenAI wire's 503), across turns, open it. Any other answer
//     resets the count.
//   - open: requests are not sent. A turn with a fallback model left moves
//     to it (EventFallback, "circuit breaker open"); one without gives up
//     at once as StopCircuitOpen. After Delay it is half-open.
//   - half-open: exactly one request, the probe, is let through; the others
//     are treated as when it is open. The probe's answer closes the breaker
//     unless it is an overload, which opens it again for Delay. A probe that
//     is cancelled before its answer leaves it half-open, for the next
//     request to probe.
type CircuitBreaker struct {
	Enabled bool
	// FailureThreshold is the consecutive overloads that open the breaker;
	// 0 means 5.
	FailureThreshold int
	// Delay is how long the breaker stays open before it lets a probe
	// through; 0 means 30 s.
	Delay time.Duration
}

func (c CircuitBreaker) failureThreshold() int { return orDefault(c.FailureThreshold, 5) }

func (c CircuitBreaker) delay() time.Duration {
	if c.Delay <= 0 {
		return 30 * time.Second
	}
	return c.Delay
}

// BreakerState is a circuit breaker's state, as failsafe-go names them.
type BreakerState string

// The states of a circuit breaker.
const (
	BreakerClosed   BreakerState = "closed"
	BreakerOpen     BreakerState = "open"
	BreakerHalfOpen BreakerState = "half_open"
)

// breaker is one model's circuit.
type breaker struct {
	state    BreakerState
	failures int       // consecutive overloads while closed
	opened   time.Time // when it last opened
	probing  bool      // half-open and the probe is out
}

// circuitBreakers holds the circuit of each model.
type circuitBreakers struct {
	mu     sync.Mutex
	models map[string]*breaker
}

// transition is a change of state to report.
type transition struct {
	from, to BreakerState
	reason   string
}

func (c *circuitBreakers) get(model string) *breaker {
	if c.models == nil {
		c.models = map[string]*breaker{}
	}
	b := c.models[model]
	if b == nil {
		b = &breaker{state: BreakerClosed}
		c.models[model] = b
	}
	return b
}

// allow reports whether a request to model may be sent now, whether it is
// the probe, and any change of state the asking caused.
func (c *circuitBreakers) allow(cfg CircuitBreaker, model string, now time.Time) (ok, probe bool, tr *transition) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.get(model)
	if b.state == BreakerOpen && !now.Before(b.opened.Add(cfg.delay())) {
		b.state, b.probing = BreakerHalfOpen, false
		tr = &transition{BreakerOpen, BreakerHalfOpen, "delay passed: one probe may go"}
	}
	switch b.state {
	case BreakerClosed:
		return true, false, tr
	case BreakerHalfOpen:
		if !b.probing {
			b.probing = true
			return true, true, tr
		}
	}
	return false, false, tr
}

// open reports whether allow would refuse model now, without taking the
// probe or changing state.
func (c *circuitBreakers) open(cfg CircuitBreaker, model string, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.get(model)
	switch b.state {
	case BreakerOpen:
		return now.Before(b.opened.Add(cfg.delay()))
	case BreakerHalfOpen:
		return b.probing
	}
	return false
}

// record takes the result of a request allow let through.
func (c *circuitBreakers) record(cfg CircuitBreaker, model string, probe bool, k Kind, now time.Time) *transition {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.get(model)
	if k == KindCancelled {
		if probe {
			b.probing = false
		}
		return nil
	}
	overload := k == KindOverloaded
	switch {
	case probe && b.state == BreakerHalfOpen:
		b.probing = false
		if overload {
			b.state, b.opened = BreakerOpen, now
			return &transition{BreakerHalfOpen, BreakerOpen, "the probe was overloaded"}
		}
		b.state, b.failures = BreakerClosed, 0
		return &transition{BreakerHalfOpen, BreakerClosed, "the probe was answered"}
	case b.state != BreakerClosed:
		return nil // an answer to a request sent before the breaker opened
	case !overload:
		b.failures = 0
	default:
		b.failures++
		if b.failures >= cfg.failureThreshold() {
			b.state, b.opened, b.failures = BreakerOpen, now, 0
			return &transition{BreakerClosed, BreakerOpen, "consecutive overloads"}
		}
	}
	return nil
}

// abandon returns a probe that was not sent.
func (c *circuitBreakers) abandon(model string, probe bool) {
	if !probe {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.get(model).probing = false
}
