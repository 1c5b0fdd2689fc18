package mockllm

import "encoding/hex"

// idHex derives the 24 hex digits of an ID from the scenario, the session
// and the request's number, so that a replay sends the same IDs. tag tells
// the kinds of ID apart.
func idHex(tag byte, scenario, session string, n int) [24]byte {
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
	return out
}

func requestID(scenario, session string, n int) string {
	h := idHex('r', scenario, session, n)
	return "req_" + string(h[:])
}

// messageID is an Anthropic message's ID.
func messageID(scenario, session string, n int) string {
	h := idHex('m', scenario, session, n)
	return "msg_" + string(h[:])
}

// completionID is an OpenAI chat completion's ID.
func completionID(scenario, session string, n int) string {
	h := idHex('c', scenario, session, n)
	return "chatcmpl-" + string(h[:])
}

// toolCallID is the ID of the k-th tool call of an OpenAI answer.
func toolCallID(scenario, session string, n, k int) string {
	h := idHex('t', scenario, session, n*64+k)
	return "call_" + string(h[:])
}

// toolUseID is the ID of the k-th tool_use block of an Anthropic answer.
func toolUseID(scenario, session string, n, k int) string {
	h := idHex('t', scenario, session, n*64+k)
	return "toolu_" + string(h[:])
}

// answerID is the ID of an answer on its wire: msg_ (Anthropic),
// chatcmpl- (Chat Completions), resp_ (the Responses API).
func answerID(wr wire, scenario, session string, n int) string {
	switch wr {
	case openaiWire:
		return completionID(scenario, session, n)
	case responsesWire:
		h := idHex('p', scenario, session, n)
		return "resp_" + string(h[:])
	}
	return messageID(scenario, session, n)
}

// itemID is the ID of output item k of a Responses API answer: msg_ for
// the message, fc_ for a function call.
func itemID(prefix string, answer string, k int) string {
	h := idHex('i', answer, prefix, k)
	return prefix + string(h[:])
}
