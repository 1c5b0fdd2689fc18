package mockllm

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/faultbench/faultbench/internal/excerpt"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
)

// Entry is one request as the mock saw and answered it. The journal is a
// ledger of what a client did, kept without touching the client's code:
// attempts, the time between them, tokens submitted, and what came back.
type Entry struct {
	Scenario string `json:"scenario"`
	Session  string `json:"session"`
	// N numbers every request of the session, from 1, in the order the
	// mock took them.
	N int `json:"n"`
	// TimeMS is the session's clock when the request was taken, in
	// milliseconds since the session began.
	TimeMS int64 `json:"time_ms"`
	// Purpose is "turn" or "repair", from the X-Faultbench-Purpose header.
	Purpose string `json:"purpose"`
	// Attempt numbers the session's requests of this purpose, from 1,
	// counting every one of them, rejected or not (0 when the purpose
	// header was not one the mock knows).
	Attempt   int    `json:"attempt"`
	Model     string `json:"model"` // "" when the body is not JSON
	MaxTokens int    `json:"max_tokens"`
	// InputTokens is the request's input under the token rule; 0 when the
	// body could not be decoded.
	InputTokens  int    `json:"input_tokens"`
	OutputTokens int    `json:"output_tokens"`
	Status       int    `json:"status"`
	Kind         string `json:"kind"` // what was served: see the kind labels in doc.go
	StopReason   string `json:"stop_reason,omitempty"`
	// RetryCount is the X-Stainless-Retry-Count header the official SDKs
	// send, when there was one.
	RetryCount *int   `json:"retry_count,omitempty"`
	RequestID  string `json:"request_id"`
	// Wire is the API the request came in by: "anthropic" (v1/messages)
	// or "openai" (v1/chat/completions).
	Wire string `json:"wire"`
	// Stream is whether the request asked for server-sent events.
	Stream bool `json:"stream,omitempty"`
	// Betas are the names the request's anthropic-beta header listed,
	// trimmed and joined by commas, in its order: at most 32 names of at
	// most 100 bytes each, 256 bytes in all; left out when it sent none.
	Betas string `json:"betas,omitempty"`
	// Fault is the fault the answer carried, as the scenario writes it
	// ("reset", "{cut_after: 3}"); Status and Kind say what the client
	// saw of it: status 0 when no header came (reset, hang, garbage).
	Fault string `json:"fault,omitempty"`
	// GapMS is the time since the session's previous request, in
	// milliseconds (0 for the first).
	GapMS int64 `json:"gap_ms"`
	// RetryAfterMS is the wait this answer asked for in its retry-after-ms
	// or retry-after header, when it asked.
	RetryAfterMS *int64 `json:"retry_after_ms,omitempty"`
	// HonoredRetryAfter is, on a request that follows an answer that
	// asked for a wait, whether the client waited at least that long.
	HonoredRetryAfter *bool `json:"honored_retry_after,omitempty"`
	// Route is the path of a request that reached no scenario (an unknown
	// scenario or route, or a session refused), journalled with the
	// status it got; empty for the rest.
	Route string `json:"route,omitempty"`
	// Method is the HTTP method of a request journalled with its Route
	// (a GET of v1/models, a 405, an unknown path); empty for the rest,
	// which are POSTs.
	Method string `json:"method,omitempty"`
	// Rule is the script rule that answered, from 1 (script[0] is rule
	// 1); 0 when none did: the mock's own checks refused the request, or
	// no rule matched.
	Rule int `json:"rule,omitempty"`
	// ErrorType and ErrorMessage are the error the mock answered with, as
	// its envelope wrote them (at most 256 bytes of the message): the
	// status's error, or the one a stream ended with; empty for an answer.
	ErrorType    string `json:"error_type,omitempty"`
	ErrorMessage string `json:"error_message,omitempty"`
	// Resend is, for a request whose body is one its session sent before
	// (the same JSON, whatever its keys' order and whitespace), the N of
	// the latest such request: a retry, known without the SDKs'
	// retry-count header.
	Resend int `json:"resend,omitempty"`
}

// The kinds of answer the journal records (internal/wire names them).
const (
	kindOK        = wire.KindOK
	kindTruncated = wire.KindTruncated
	kindTimeout   = wire.KindTimeout
	kindRateLimit = wire.KindRateLimit
)

// record is an entry and its place in the order of all entries.
type record struct {
	seq uint64
	Entry
}

// retryCount reads the X-Stainless-Retry-Count header, if sent.
func retryCount(h http.Header) *int {
	v := h["X-Stainless-Retry-Count"]
	if len(v) == 0 {
		return nil
	}
	n, err := strconv.Atoi(v[0])
	if err != nil {
		return nil
	}
	return &n
}

// The journal's bounds: serve mode keeps a session for as long as it runs,
// and any client on the machine can add to it.
const (
	// maxSessionEntries is the most entries one session keeps: 100,000.
	// Past it the session drops its oldest entry for each new one, and
	// counts what it dropped.
	maxSessionEntries = 100_000
	// maxJournalEntries is the most entries all of a server's sessions
	// keep together: 200,000. An entry of the worst kind (a 4 KB model
	// name, an error with its message) costs about 2.3 KB of RSS (the
	// long-session stress: 234 MiB for 100,000), so the whole journal
	// stays near 470 MiB. Past it, the session that records drops its own
	// oldest entry (or, holding none, the new one).
	maxJournalEntries = 200_000
	// maxEntryString is the most bytes of a client's string an entry
	// keeps (the model, the purpose header): 256. A longer one keeps its
	// first bytes and "…".
	maxEntryString = 256
)

// entryBudget counts the entries a server's sessions keep together.
type entryBudget struct {
	max  int64
	live atomic.Int64
}

// journal is a session's records, kept in chunks so that a long session
// grows without copying what it has recorded, and drops its oldest records
// a chunk at a time once it is full.
type journal struct {
	chunks  [][]record
	head    int // records dropped from the front of chunks[0]
	n       int // records kept
	dropped int // records dropped, oldest first
	// limit is the most records kept; 0 means maxSessionEntries.
	limit int
	// budget is the server's count of kept records; nil counts nothing.
	budget   *entryBudget
	released bool // the session is closed: its records left the budget
}

// chunkSize is the records a chunk holds before the next begins: 256. A
// session's first chunk starts at firstChunk records and grows by
// doubling, so that a session of one or two requests (a turn of a
// workload: thousands of sessions) does not pay for 256.
const (
	chunkSize  = 256
	firstChunk = 4
)

func (j *journal) add(r record) {
	r.Model, r.Purpose = clipEntry(r.Model), clipEntry(r.Purpose)
	limit := j.limit
	if limit <= 0 {
		limit = maxSessionEntries
	}
	full := j.n >= limit
	if !full && j.budget != nil && !j.released {
		if j.budget.live.Add(1) > j.budget.max {
			j.budget.live.Add(-1)
			full = true
		}
	}
	if full { // the new record takes the place of the oldest
		if j.n == 0 {
			j.dropped++
			return
		}
		j.dropOldest()
	}
	switch k := len(j.chunks); {
	case k == 0:
		j.chunks = append(j.chunks, make([]record, 0, firstChunk))
	case len(j.chunks[k-1]) == chunkSize:
		j.chunks = append(j.chunks, make([]record, 0, chunkSize))
	}
	last := &j.chunks[len(j.chunks)-1]
	*last = append(*last, r)
	j.n++
}

func (j *journal) dropOldest() {
	j.chunks[0][j.head] = record{} // let its strings go
	j.head++
	j.n--
	j.dropped++
	if j.head == len(j.chunks[0]) {
		j.chunks[0] = nil
		j.chunks, j.head = j.chunks[1:], 0
	}
}

// release takes the records out of the server's count, once: the session
// is closed.
func (j *journal) release() {
	if j.budget != nil && !j.released {
		j.budget.live.Add(-int64(j.n))
	}
	j.released = true
}

// clipEntry keeps at most maxEntryString bytes of a client's string.
func clipEntry(s string) string {
	if len(s) <= maxEntryString {
		return s
	}
	return excerpt.Prefix(s, maxEntryString) + "…"
}

// appendTo appends the records to dst, in order.
func (j *journal) appendTo(dst []record) []record {
	dst = slices.Grow(dst, j.n)
	for i, c := range j.chunks {
		if i == 0 {
			c = c[j.head:]
		}
		dst = append(dst, c...)
	}
	return dst
}

// entries copies the entries out.
func (j *journal) entries() []Entry {
	if j.n == 0 {
		return nil
	}
	return entriesOf(j.appendTo(nil))
}

// sortRecords puts the records of many sessions back in the order they
// were recorded.
func sortRecords(recs []record) {
	slices.SortFunc(recs, func(a, b record) int {
		switch {
		case a.seq < b.seq:
			return -1
		case a.seq > b.seq:
			return 1
		}
		return 0
	})
}

// entriesOf copies records out as entries, each with its own pointers.
func entriesOf(recs []record) []Entry {
	out := make([]Entry, len(recs))
	for i := range recs {
		out[i] = recs[i].Entry
		out[i].RetryCount = copyPtr(recs[i].RetryCount)
		out[i].RetryAfterMS = copyPtr(recs[i].RetryAfterMS)
		out[i].HonoredRetryAfter = copyPtr(recs[i].HonoredRetryAfter)
	}
	return out
}

// mergeJournal puts the records of many sessions back in the order they
// were recorded.
func mergeJournal(recs []record) []Entry {
	sortRecords(recs)
	return entriesOf(recs)
}

func copyPtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

// retryAfterOf reads the wait a rule's headers ask for: retry-after-ms
// (milliseconds), else retry-after (seconds, or an HTTP date, read against
// now). ok is false when they ask for none.
func retryAfterOf(headers map[string]string, now time.Time) (d time.Duration, ok bool) {
	if len(headers) == 0 {
		return 0, false
	}
	var ms, secs string
	for k, v := range headers {
		switch strings.ToLower(k) {
		case "retry-after-ms":
			ms = v
		case "retry-after":
			secs = v
		}
	}
	if f, err := strconv.ParseFloat(strings.TrimSpace(ms), 64); err == nil && f >= 0 && f < 1e12 {
		return time.Duration(f * float64(time.Millisecond)), true
	}
	secs = strings.TrimSpace(secs)
	if f, err := strconv.ParseFloat(secs, 64); err == nil && f >= 0 && f < 1e9 {
		return time.Duration(f * float64(time.Second)), true
	}
	if t, err := http.ParseTime(secs); err == nil {
		return max(0, t.Sub(now)), true
	}
	return 0, false
}

// release takes a closed session's records out of the server's count.
func (s *session) release() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.records.release()
}

// droppedEntries is how many entries the session has dropped.
func (s *session) droppedEntries() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.records.dropped
}
