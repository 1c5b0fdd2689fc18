package mockllm

import "github.com/faultbench/faultbench/mockllm/internal/wire"

// requestID is the ID of request n of a session: "req_" and 24 hex
// digits, the same on every wire.
func requestID(scenario, session string, n int) string {
	return "req_" + wire.Hex('r', scenario, session, n)
}
