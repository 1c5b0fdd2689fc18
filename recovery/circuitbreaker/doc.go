// Package circuitbreaker is the circuit breaker of recovery's cross-turn
// policies, per model, with failsafe-go's states (closed, open, half-open)
// and a count-based threshold. Config is the policy as data
// (recovery.Strategy.CircuitBreaker); Breakers is its state, which the
// Engine keeps and every turn shares. The turn's side (a fallback or a
// stop when it is open, the events) is recovery's.
package circuitbreaker
