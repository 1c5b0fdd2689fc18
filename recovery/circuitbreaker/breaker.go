package circuitbreaker

import (
	"sync"
	"time"
)

// Config stops sending to a model that keeps answering overloaded.
// Its state is the Engine's, per model, shared by every turn. It is
// failsafe-go's circuitbreaker with a count-based threshold and the names
// of its states:
//
//   - closed: requests go; FailureThreshold consecutive overloads (529,
//     or the OpenAI wire's 503), across turns, open it. Any other answer
//     resets the count.
//   - open: requests are not sent. A turn with a fallback model left moves
//     to it (recovery.EventFallback, "circuit breaker open"); one without gives up
//     at once as recovery.StopCircuitOpen. After Delay it is half-open.
//   - half-open: exactly one request, the probe, is let through; the others
//     are treated as when it is open. The probe's answer closes the breaker
//     unless it is an overload, which opens it again for Delay. A probe that
//     is cancelled before its answer leaves it half-open, for the next
//     request to probe.
type Config struct {
	Enabled bool `yaml:"enabled"`
	// FailureThreshold is the consecutive overloads that open the breaker;
	// 0 means 5.
	FailureThreshold int `yaml:"failure_threshold"`
	// Delay is how long the breaker stays open before it lets a probe
	// through; 0 means 30 s.
	Delay time.Duration `yaml:"delay"`
}

// Effective returns c with its defaults resolved.
func (c Config) Effective() Config {
	if c.FailureThreshold <= 0 {
		c.FailureThreshold = 5
	}
	if c.Delay <= 0 {
		c.Delay = 30 * time.Second
	}
	return c
}

// Outcome is what became of a request the breaker let through.
type Outcome int

// The outcomes a breaker tells apart.
const (
	// Answered: anything but an overload or a cancellation.
	Answered Outcome = iota
	// Overloaded: a 529 (or the OpenAI wire's 503).
	Overloaded
	// Cancelled before its answer.
	Cancelled
)

// BreakerState is a circuit breaker's state, as failsafe-go names them.
type State string

// The states of a circuit breaker.
const (
	Closed   State = "closed"
	Open     State = "open"
	HalfOpen State = "half_open"
)

// breaker is one model's circuit.
type breaker struct {
	state    State
	failures int       // consecutive overloads while closed
	opened   time.Time // when it last opened
	probing  bool      // half-open and the probe is out
}

// Breakers holds the circuit of each model: an Engine's state, shared by
// every turn, safe for concurrent use; its zero value has every circuit
// closed.
type Breakers struct {
	mu     sync.Mutex
	models map[string]*breaker
}

// Transition is a change of state to report.
type Transition struct {
	From, To State
	Reason   string
}

func (c *Breakers) get(model string) *breaker {
	if c.models == nil {
		c.models = map[string]*breaker{}
	}
	b := c.models[model]
	if b == nil {
		b = &breaker{state: Closed}
		c.models[model] = b
	}
	return b
}

// Allow reports whether a request to model may be sent now, whether it is
// the probe, and any change of state the asking caused.
func (c *Breakers) Allow(cfg Config, model string, now time.Time) (ok, probe bool, tr *Transition) {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.get(model)
	if b.state == Open && !now.Before(b.opened.Add(cfg.Effective().Delay)) {
		b.state, b.probing = HalfOpen, false
		tr = &Transition{Open, HalfOpen, "delay passed: one probe may go"}
	}
	switch b.state {
	case Closed:
		return true, false, tr
	case HalfOpen:
		if !b.probing {
			b.probing = true
			return true, true, tr
		}
	}
	return false, false, tr
}

// Refuses reports whether Allow would refuse model now, without taking the
// probe or changing state.
func (c *Breakers) Refuses(cfg Config, model string, now time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.get(model)
	switch b.state {
	case Open:
		return now.Before(b.opened.Add(cfg.Effective().Delay))
	case HalfOpen:
		return b.probing
	}
	return false
}

// Record takes the outcome of a request Allow let through.
func (c *Breakers) Record(cfg Config, model string, probe bool, o Outcome, now time.Time) *Transition {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.get(model)
	if o == Cancelled {
		if probe {
			b.probing = false
		}
		return nil
	}
	overload := o == Overloaded
	switch {
	case probe && b.state == HalfOpen:
		b.probing = false
		if overload {
			b.state, b.opened = Open, now
			return &Transition{HalfOpen, Open, "the probe was overloaded"}
		}
		b.state, b.failures = Closed, 0
		return &Transition{HalfOpen, Closed, "the probe was answered"}
	case b.state != Closed:
		return nil // an answer to a request sent before the breaker opened
	case !overload:
		b.failures = 0
	default:
		b.failures++
		if b.failures >= cfg.Effective().FailureThreshold {
			b.state, b.opened, b.failures = Open, now, 0
			return &Transition{Closed, Open, "consecutive overloads"}
		}
	}
	return nil
}

// Abandon returns a probe that was not sent.
func (c *Breakers) Abandon(model string, probe bool) {
	if !probe {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.get(model).probing = false
}
