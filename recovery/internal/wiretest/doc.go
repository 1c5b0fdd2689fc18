// Package wiretest holds what the tests of the SDK adapters
// (recovery/anthropic, recovery/openai) share: a loopback server that
// records every request body, and an agent's conversation to encode. It is
// imported by tests only.
package wiretest
