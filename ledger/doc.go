// Package ledger is the record of what a recovery strategy cost: every
// attempt and repair call with its figures, the totals per scenario ×
// strategy, and the cross-check that the engine's record and the mock
// server's journal agree attempt for attempt.
package ledger
