// Package jsonscan walks a JSON value in place, in one pass, checking its
// syntax as it reads: what encoding/json's json.Valid refuses, a Scanner
// marks Bad. Strings are measured, not decoded (Str returns their raw
// bytes and the length encoding/json would decode them to), and a path of
// the keys and indices it is inside names the field a walker finds at
// fault. The mock's request decoders are built on it, so that a 30 MB
// body is read once and never copied; AppendString writes a JSON string
// as encoding/json would, for the mock's hand-built answers.
//
// A Scanner never panics on a truncated or hostile value, and holds
// nesting to encoding/json's limit of 10,000.
package jsonscan
