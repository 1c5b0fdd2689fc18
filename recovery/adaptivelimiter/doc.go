// Package adaptivelimiter is the adaptive limiter of recovery's cross-turn
// policies: per model, a bound on the requests in flight that it learns by
// AIMD. Config is the policy as data (recovery.Strategy.AdaptiveLimiter);
// Limiters is its state, which the Engine keeps and every turn shares. The
// turn's side (the wait for a slot on the engine's clock, the events) is
// recovery's.
package adaptivelimiter
