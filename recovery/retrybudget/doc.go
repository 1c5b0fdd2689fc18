// Package retrybudget is the retry budget of recovery's cross-turn
// policies: retries as a share of the requests of all an Engine's turns,
// plus a floor, counted per fixed window (Finagle's RetryBudget). Config
// is the policy as data (recovery.Strategy.RetryBudget); Budget is its
// state, which the Engine keeps and every turn shares. The turn's side
// (when a retry asks, what a refused one does) is recovery's.
package retrybudget
