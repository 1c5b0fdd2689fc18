// Package canonjson writes JSON in one canonical form: object keys sorted,
// no insignificant whitespace, numbers as written. The loop guard hashes
// tool arguments in this form, so that {"a":1,"b":2} and {"b":2,"a":1} are
// the same call, and the mock answers with tool inputs in the same form; it
// lives under internal/ so that the mock does not depend on the engine.
package canonjson
