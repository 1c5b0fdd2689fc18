package wire

import "encoding/hex"

// Hex derives the 24 hex digits of an ID from a scenario, a session and a
// number, so that a replay sends the same IDs. tag tells the kinds of ID
// apart.
func Hex(tag byte, scenario, session string, n int) string {
	const (
		offset64 = 14695981039346656037
		prime64  = 1099511628211
	)
	h := uint64(offset64)
	mix := func(b byte) { h ^= uint64(b); h *= prime64 }
	mix(tag)
	for i := 0; i < len(scenario); i++ {
		mix(scenario[i])
	}
	mix(0)
	for i := 0; i < len(session); i++ {
		mix(session[i])
	}
	mix(0)
	for v := uint64(n); ; v >>= 8 {
		mix(byte(v))
		if v < 256 {
			break
		}
	}
	// FNV-1a is 64 bits; two more rounds stretch it to the 96 an ID shows.
	var sum [12]byte
	for i := 0; i < 8; i++ {
		sum[i] = byte(h >> (8 * i))
	}
	mix(0xff)
	for i := 8; i < 12; i++ {
		sum[i] = byte(h >> (8 * (i - 8)))
	}
	var out [24]byte
	hex.Encode(out[:], sum[:])
	return string(out[:])
}

// AnswerID is the ID of the answer to request n of a session, in the
// wire's form (msg_, chatcmpl-, resp_).
func AnswerID(sp Spec, scenario, session string, n int) string {
	return sp.AnswerPrefix + Hex(sp.AnswerTag, scenario, session, n)
}

// ToolID is the ID of tool call k of that answer (toolu_, call_).
func ToolID(sp Spec, scenario, session string, n, k int) string {
	return sp.ToolPrefix + Hex('t', scenario, session, n*64+k)
}
