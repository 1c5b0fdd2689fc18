package recovery

import "time"

// EventType names what an Event reports.
type EventType string

// The events an engine emits, in the order a turn can meet them.
const (
	// EventAttempt: a request was sent and its result classified. Request,
	// Response or Failure.Err, Failure, Attempt and WaitBefore are set.
	EventAttempt EventType = "attempt"
	// EventRepair: a repair call (summarisation) was sent; like EventAttempt.
	EventRepair EventType = "repair"
	// EventWait: the engine is about to sleep Wait.
	EventWait EventType = "wait"
	// EventHeartbeat: a long wait goes on; Wait is what remains of it. Sent
	// before each chunk of a wait split by Strategy.Heartbeat.
	EventHeartbeat EventType = "heartbeat"
	// EventAuthRefresh: a 401 made the engine refresh the credentials.
	EventAuthRefresh EventType = "auth_refresh"
	// EventFallback: the next request goes to model To instead of From.
	EventFallback EventType = "fallback"
	// EventEscalate: max_tokens raised from FromTokens to ToTokens.
	EventEscalate EventType = "escalate"
	// EventAdjust: max_tokens lowered from FromTokens to ToTokens to fit the
	// window or the output limit; Reason says which.
	EventAdjust EventType = "adjust"
	// EventCompact: older messages replaced by a summary; FromTokens and
	// ToTokens are the input before and after.
	EventCompact EventType = "compact"
	// The events of the cross-turn policies (policies.go).

	// EventHold: a policy holds the request for Wait before it is sent;
	// Reason names the policy ("rate limiter: <bucket>" or "adaptive
	// limiter: ..."). It is reported as the hold begins, but for a wait
	// for an adaptive limiter's slot on a WakeClock, which lasts until a
	// slot is freed: that one is reported when it ends, with Time its
	// start. A hold is not a retry's wait: it is not in Result.Waited nor
	// in the next attempt's WaitBefore.
	EventHold EventType = "hold"
	// EventCircuit: a model's circuit breaker changed state From To
	// (closed, open, half_open); Reason names the model and the cause.
	EventCircuit EventType = "circuit"
	// EventLimit: the adaptive limiter changed its in-flight limit to
	// Limit; Reason says from what and on which answer.
	EventLimit EventType = "limit"
	// EventGiveUp: the engine stops with Err.
	EventGiveUp EventType = "give_up"
	// EventDone: the engine hands back an answer.
	EventDone EventType = "done"

	// The events of an agent turn (RunAgent), between its steps' events.

	// EventStep: a model step begins; Step is its number (from 1) and
	// Request the request it sends, the whole history so far.
	EventStep EventType = "step"
	// EventLoopWarn: the loop guard warned; Detector names the pattern,
	// Count its figure, Reason the text injected for the model.
	EventLoopWarn EventType = "loop_warn"
	// EventLoopBreak: the loop guard stopped the turn; Detector and Count
	// as for EventLoopWarn. Err is the *AbortError.
	EventLoopBreak EventType = "loop_break"
	// EventStepCap: the turn reached its step cap with the model still
	// asking for tools; Step is the cap. Err is the *AbortError.
	EventStepCap EventType = "step_cap"
)

// Event is one thing the engine did. Observers must not keep Request past
// the call unless they copy it.
type Event struct {
	Type       EventType
	Time       time.Time // the engine's clock when it happened
	Attempt    int       // turn attempts sent so far, this one included
	Request    *Request
	Response   *Response
	Failure    Failure
	WaitBefore time.Duration // for attempts and repairs: the wait just before
	Wait       time.Duration // for EventWait; for EventHeartbeat what remains
	From, To   string
	FromTokens int
	ToTokens   int
	Reason     string
	Err        error
	Step       int    // agent turns: the model step, from 1
	Detector   string // agent turns: the loop guard's detector
	Count      int    // agent turns: the figure that crossed the threshold
	Limit      int    // EventLimit: the adaptive limiter's new in-flight limit
}

// Observer receives events synchronously, in order.
type Observer func(Event)
