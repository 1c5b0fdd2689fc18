// Package recovery is a recovery engine for LLM calls that a Go agent can
// put in front of its model client in production: it classifies each
// failure (docs/classification.md), then waits, shrinks the request, raises the output
// budget, switches model, refreshes credentials, or stops — and when it
// stops, it says why.
//
// # The contract
//
// A Provider sends one Request and returns a Response or an error (an
// *APIError for error statuses, the transport's own error otherwise,
// wrapped with %w); it must not retry. A Classifier maps that result to a
// Failure of one Kind. A Strategy is immutable data describing the policy
// (the presets are in presets.go; recovery/strategyfile reads strategies
// from YAML). An Engine runs a Strategy over a Provider; every per-turn
// counter lives in the turn, so one Engine serves many turns. The clock and
// the random source are injected (WithClock, WithRand): nothing here reads
// the wall clock or the global random source unless you hand it one.
//
// # Wrapping a client
//
// recovery/anthropic wraps the official Anthropic SDK and recovery/openai
// the official OpenAI SDK (and the servers that speak Chat Completions),
// both with the SDK's own retries off, so that there is one retry loop:
//
//	provider := anthropic.New(option.WithAPIKey(key)) // or openai.New(option.WithAPIKey(key))
//	engine := recovery.New(provider, recovery.Classifying(),
//		recovery.WithFallbacks("claude-haiku-4-5"),
//		recovery.WithLimits(map[string]recovery.Limits{"claude-sonnet-4-5": {ContextWindow: 200000, MaxOutput: 64000}}),
//		recovery.WithAuthRefresh(func(ctx context.Context) error { return tokens.Renew(ctx) }),
//		recovery.WithObserver(func(e recovery.Event) { log.Println(e.Type, e.Failure.Kind, e.Wait) }),
//	)
//	res, err := engine.Do(ctx, recovery.Request{Model: "claude-sonnet-4-5", MaxTokens: 4096, Messages: msgs})
//	switch {
//	case errors.Is(err, recovery.ErrWaitBudget): // waited as long as allowed
//	case errors.Is(err, recovery.ErrGaveUp):     // any other stop; errors.As finds the *APIError
//	}
//
// Any other client fits through ProviderFunc.
//
// # The order of the mechanisms
//
// Inside one turn the mechanisms nest in this order, outermost first:
//
//  1. cancellation: a cancelled context stops at once, with no further
//     attempt and no sleep;
//  2. budgets: the turn's attempts (TurnAttempts), then the wait budget: a
//     wait that would break it ends the turn;
//  3. preflight (with Preflight, and after any overflow): a request that
//     cannot fit the known window is shrunk before it is sent;
//  4. answers: a complete answer is handed back; a truncated one raises
//     max_tokens (escalation, bounded by the output limit, the window and
//     Escalation.Ceiling) or is handed back when it cannot grow;
//  5. load shedding: a Background request gives up on an overload
//     (ShedBackground);
//  6. credentials: a 401 calls the refresh hook once and starts a new step
//     (AuthRefresh); a second 401 stops;
//  7. model fallback: a kind in Fallback.On (not_found for classify), or
//     Fallback.After consecutive overloads, move the turn to the next model
//     at once, starting a new step;
//  8. content repairs: a context overflow never waits; the window it
//     reveals is learnt (from the message, or 0.85 × the input counted);
//     max_tokens is lowered when the input alone fits (adjustment), else
//     older messages are summarised through a repair call (compaction), at
//     most Compaction.Max times. A repair starts a new step;
//  9. retry within a step: a kind the strategy retries (Retry,
//     RetryStatuses), unless x-should-retry says false, waits what the
//     server asks (retry-after-ms, retry-after, the rate-limit reset
//     headers; capped by RetryAfter.Cap) or the backoff delay, then resends;
//     never after the step's last attempt, where the turn stops or, with
//     Fallback.OnExhausted, moves to the next model. In persistent mode rate
//     limits and overloads are retried past the attempts, as long as the
//     wait budget lasts, and long waits are split into heartbeats.
//
// Every attempt, wait, heartbeat and decision is reported to the Observer
// as an Event. When the engine gives up it returns a *GiveUpError: it
// wraps the last underlying error, says why it stopped (Stop, with a
// sentinel per reason: ErrAttempts, ErrWaitBudget, ErrServerSaidNo,
// ErrCompactionLimit, ...), and matches ErrGaveUp.
//
// # Cross-turn policies
//
// Four policies keep their state in the Engine, shared by every turn it
// runs (goroutine-safe), and act before each attempt, in this order: the
// CircuitBreaker (per model: open after consecutive overloads across
// turns; while open a turn falls back or gives up at once, StopCircuitOpen;
// half-open lets one probe through; recovery/circuitbreaker), the RetryBudget (recovery/retrybudget: retries ≤ ratio ×
// requests + a floor per window, Finagle's RetryBudget; beyond it
// StopRetryBudget, without the wait), the AdaptiveLimiter (per model, an
// AIMD in-flight limit, Netflix concurrency-limits' AIMDLimit; a request
// waits for a slot, woken when one is freed on a WakeClock;
// recovery/adaptivelimiter) and the RateLimiter (per model, it reads the
// rate-limit headers of every answer and holds a request until the
// buckets can pay). A failure the breaker or the budget would refuse to
// resend stops before the backoff wait. Every wait is on the engine's
// clock (EventHold); state changes are EventCircuit and EventLimit. The
// names and states are failsafe-go's (circuitbreaker, ratelimiter,
// adaptivelimiter), whose clock cannot be injected, so its policies
// cannot run on virtual time; docs/strategies.md says what each borrows.
//
// RunAgent runs an agent turn over Do, a step at a time: while the answer
// stops for tool_use it runs the calls through a ToolFunc (a failing tool
// returns its error as an is_error result, never as a Go error), appends
// the calls and the results, and sends the whole history again. With
// Strategy.LoopGuard each call and its result go through a loopguard.Guard:
// a warning adds the guard's message to the user message that carries the
// results (EventLoopWarn); a break stops the turn (EventLoopBreak). The
// hard Strategy.StepCap (DefaultStepCap when unset) needs no judgement
// (EventStepCap). Either stop returns an *AbortError naming the detector,
// which matches ErrAborted; an error of a step is returned as it is.
package recovery
