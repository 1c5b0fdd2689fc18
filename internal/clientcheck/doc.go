// Package clientcheck measures the official SDKs black-box: its tests
// point anthropic-sdk-go/v2 and openai-go/v3, their own retries on, at the
// mock as `faultbench serve` runs it (real time, sessions by header), and
// check the server's journal against what each SDK is documented to do.
//
// The tests watch the SDK's transport too, so that each check is made
// twice: the journal must show every attempt the client made, status for
// status; and each retry (or stop) must follow the SDK's documented
// policy — which statuses and failures it retries, how many times, after
// how long.
//
// TestDefaultSuite checks the table of the default suite that the README
// shows, and rewrites it with -update:
//
//	go test ./internal/clientcheck/ -run DefaultSuite -update
//
// (FAULTBENCH_MEASURE_OUT=FILE also writes it to FILE.)
package clientcheck
