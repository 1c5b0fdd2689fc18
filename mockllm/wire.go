package mockllm

import (
	"encoding/hex"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
)

// apiError is an error answer: the status, the envelope's type and message,
// and the kind the journal records.
type apiError struct {
	status int
	typ    string
	msg    string
	kind   string
}

func invalidRequest(msg string) *apiError {
	return &apiError{status: http.StatusBadRequest, typ: "invalid_request_error", msg: msg, kind: kindInvalidRequest}
}

func errTooLarge() *apiError {
	return &apiError{
		status: http.StatusRequestEntityTooLarge, typ: "request_too_large",
		msg: "Request exceeds the maximum allowed number of bytes.", kind: kindRequestTooLarge,
	}
}

// scripted builds the error a rule answers with: the rule's type and
// message, or the real API's defaults for the status.
func scripted(status int, typ, msg string) *apiError {
	dt, dm := defaultError(status)
	if typ == "" {
		typ = dt
	}
	if msg == "" {
		msg = dm
	}
	return &apiError{status: status, typ: typ, msg: msg, kind: errorKind(status, typ, msg)}
}

// defaultError is the envelope type and message the real API sends with a
// status.
func defaultError(status int) (typ, msg string) {
	switch status {
	case 400:
		return "invalid_request_error", "Invalid request"
	case 401:
		return "authentication_error", "invalid x-api-key"
	case 402:
		return "billing_error", "Your credit balance is too low to access the Anthropic API. Please go to Plans & Billing to upgrade or purchase credits."
	case 403:
		return "permission_error", "Your API key does not have permission to use the specified resource."
	case 404:
		return "not_found_error", "Not found"
	case 408:
		return "timeout_error", "Request timed out"
	case 409:
		return "conflict_error", "Conflict"
	case 413:
		return "request_too_large", "Request exceeds the maximum allowed number of bytes."
	case 429:
		return "rate_limit_error", "Number of requests has exceeded your rate limit. Please try again later."
	case 500:
		return "api_error", "Internal server error"
	case 529:
		return "overloaded_error", "Overloaded"
	}
	msg = http.StatusText(status)
	if status >= 500 {
		if msg == "" {
			msg = "Internal server error"
		}
		return "api_error", msg
	}
	if msg == "" {
		msg = "Invalid request"
	}
	return "invalid_request_error", msg
}

// idHex derives the 24 hex digits of a request or message ID from the
// scenario, the session and the request's number, so that a replay sends
// the same IDs. tag tells the two kinds of ID apart.
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

func messageID(scenario, session string, n int) string {
	h := idHex('m', scenario, session, n)
	return "msg_" + string(h[:])
}

// answer is a 200 reply's content.
type answer struct {
	id, model, text, stop string
	input, output         int
}

// reply is what one request is answered with: an error or an answer, and
// the headers a rule adds.
type reply struct {
	err       *apiError // nil for a 200
	ans       answer
	headers   map[string]string
	requestID string
}

func (r *reply) status() int {
	if r.err != nil {
		return r.err.status
	}
	return http.StatusOK
}

// smallBody is the size up to which net/http sets Content-Length itself
// when a handler writes its whole body and returns (its chunking buffer).
const smallBody = 2048

var (
	jsonContentType = []string{"application/json"}
	shouldRetryTrue = []string{"true"}
	bufPool         = sync.Pool{New: func() any { b := make([]byte, 0, 1024); return &b }}
)

// write sends r. The body is built in a pooled buffer and written at once
// with its length, so even a long answer goes out unchunked.
func (r *reply) write(w http.ResponseWriter) {
	h := w.Header()
	h["Content-Type"] = jsonContentType
	h["Request-Id"] = []string{r.requestID}
	if r.err != nil && r.err.status == 529 {
		h["X-Should-Retry"] = shouldRetryTrue
	}
	for k, v := range r.headers {
		h.Set(k, v)
	}
	bp := bufPool.Get().(*[]byte)
	b := (*bp)[:0]
	if r.err != nil {
		b = appendError(b, r.err, r.requestID)
	} else {
		b = appendAnswer(b, &r.ans)
	}
	if len(b) > smallBody {
		// net/http measures a body this small itself; a longer one would
		// otherwise go out chunked.
		h["Content-Length"] = []string{strconv.Itoa(len(b))}
	}
	w.WriteHeader(r.status())
	_, _ = w.Write(b) // a client that went away has nothing left to tell
	if cap(b) <= 64<<10 {
		*bp = b
		bufPool.Put(bp)
	}
}

// appendError appends the Anthropic error envelope.
func appendError(b []byte, e *apiError, requestID string) []byte {
	b = append(b, `{"type":"error","error":{"type":`...)
	b = appendString(b, e.typ)
	b = append(b, `,"message":`...)
	b = appendString(b, e.msg)
	b = append(b, `},"request_id":`...)
	b = appendString(b, requestID)
	return append(b, '}')
}

// appendAnswer appends a Messages API message with one text block.
func appendAnswer(b []byte, a *answer) []byte {
	b = append(b, `{"id":`...)
	b = appendString(b, a.id)
	b = append(b, `,"type":"message","role":"assistant","model":`...)
	b = appendString(b, a.model)
	b = append(b, `,"content":[{"type":"text","text":`...)
	b = appendString(b, a.text)
	b = append(b, `}],"stop_reason":`...)
	b = appendString(b, a.stop)
	b = append(b, `,"stop_sequence":null,"usage":{"input_tokens":`...)
	b = strconv.AppendInt(b, int64(a.input), 10)
	b = append(b, `,"output_tokens":`...)
	b = strconv.AppendInt(b, int64(a.output), 10)
	return append(b, `}}`...)
}

// appendString appends s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			const digits = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', digits[c>>4], digits[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// mentions reports whether msg contains any of words, ignoring case.
func mentions(msg string, words ...string) bool {
	msg = strings.ToLower(msg)
	for _, w := range words {
		if strings.Contains(msg, w) {
			return true
		}
	}
	return false
}
