// Package loopguard catches an agent that is stuck without failing: every
// request succeeds, yet the model calls the same tool with the same
// arguments again and again while the conversation, resubmitted in full at
// every step, grows.
//
// Each tool call becomes a Fingerprint: the tool's name and a hash of its
// arguments as canonical JSON, so that {"a":1,"b":2} and {"b":2,"a":1} are
// the same call. A Guard keeps the last Window calls (default 20) and runs
// three detectors over them after each call:
//
//   - repeat: the same call again (warn at 3, break at 5 in the window);
//   - ping_pong: two calls alternating, A B A B … (warn at 3 cycles, break at 5);
//   - no_progress: the same call with the same result (warn at 2, break at 3):
//     the strictest, because it means no new information.
//
// Warn first, break later: a detector's first crossing of its warn threshold
// asks the caller to tell the model it is repeating itself; only a detector
// that has warned can break. The one exception is a detector whose break
// threshold equals its warn threshold: it breaks at once when it gets
// there, with no warning (Config.AtOnce), as the layered agent
// fault-tolerance demo does on no progress. The hard step cap lives with the caller: it
// needs no judgement.
package loopguard
