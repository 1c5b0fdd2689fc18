// Package recovery is a recovery engine for LLM calls that a Go agent can
// put in front of its model client in production: it classifies each
// failure (SPEC §4), then waits, shrinks the request, raises the output
// budget, switches model, or stops.
//
// The contract is small. A Provider sends one Request and returns a
// Response or an error (an *APIError for error statuses, the transport's
// own error otherwise); it must not retry. A Classifier maps that result to
// a Failure. A Strategy is immutable data describing the policy; an Engine
// runs a Strategy over a Provider, and every per-turn counter lives in the
// turn, so one Engine serves many turns. The clock and the random source
// are injected (WithClock, WithRand): nothing here reads the wall clock
// unless you hand it one.
//
// Inside one turn the mechanisms nest in this order, outermost first:
//
//  1. cancellation: a cancelled context stops at once, with no further
//     attempt and no sleep;
//  2. the wait budget: a wait that would break it ends the turn;
//  3. content repairs (classify only): a context overflow lowers max_tokens
//     when the input alone fits (adjustment), else compacts older messages
//     through a summarisation repair call; a truncated answer raises
//     max_tokens (escalation). A repair starts a new step;
//  4. model fallback: consecutive overloads (or a not_found) move the turn
//     to the next fallback model at once, starting a new step;
//  5. retry within a step: transient kinds wait retry-after or the backoff
//     delay and resend; permanent kinds stop.
//
// Every attempt, wait and decision is reported to the Observer as an Event.
// When the engine gives up it returns a *GiveUpError (errors.Is ErrGaveUp)
// that wraps the last underlying error.
package recovery
