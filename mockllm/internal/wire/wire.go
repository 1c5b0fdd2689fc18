package wire

import (
	"net/http"
	"time"

	"github.com/faultbench/faultbench/scenario"
)

// Wire is one API the mock speaks. The server routes a request to the
// wire whose Spec.Path its path ends in, has the wire decode and check
// the body, runs the same script whatever the wire, and has the wire word
// the errors and render the answer. A wire keeps no state: one value
// serves every request.
type Wire interface {
	// Spec is what the wire is: its name in the journal, its route, and
	// the forms of its IDs.
	Spec() Spec
	// Check refuses a request on its headers before its body is read
	// (Anthropic: an anthropic-version it does not know); nil lets it
	// through.
	Check(h http.Header) *Error
	// Decode reads a whole body into q in one pass and checks it as the
	// real API does: its fields' types, the required ones, and the rules
	// a conversation must follow (tool calls answered, no empty text).
	// On an error, q tells the journal nothing it could not read.
	Decode(b []byte, q *Request) *Error
	// Errors words the mock's own errors as the real API does.
	Errors
	// Body appends a reply's JSON body: its error's envelope, or its
	// answer.
	Body(b []byte, r *Reply) []byte
	// Stream appends the events of a streamed answer, whole.
	Stream(ev *Events, r *Reply)
	// Broken appends an event whose JSON is cut short (the malformed
	// fault), and Failed the error a stream ends with (error_after).
	Broken(ev *Events, r *Reply)
	Failed(ev *Events, r *Reply, e *Error)
	// Headers sets the headers every answer of the wire carries: its
	// request ID, the rate limits of r.Rate; the server adds the rule's.
	Headers(h http.Header, r *Reply)
	// StopReason is the journal's stop reason of an answer, in the wire's
	// words (Chat Completions: length, tool_calls).
	StopReason(a *Answer) string
}

// Spec is what a wire is, as data.
type Spec struct {
	// Name is the journal's word for the wire: "anthropic", "openai".
	Name string
	// Path is the route under a scenario's base URL: "/v1/messages".
	Path string
	// Routes are the first path segments after v1/ that are the wire's
	// API: a path the mock does not serve gets the 404 of the wire that
	// owns its segment (the first wire's when none does).
	Routes []string
	// AnswerTag and AnswerPrefix make an answer's ID (AnswerPrefix and 24
	// hex digits hashed with the tag); ToolPrefix a tool call's.
	AnswerTag    byte
	AnswerPrefix string
	ToolPrefix   string
	// WaitInBody says the API tells a client how long to wait in the
	// error's body, never in retry-after (Gemini's RetryInfo): the server
	// sends no retry-after header of its own, though the journal still
	// measures the client against the wait (Error.Wait).
	WaitInBody bool
	// StreamType is the Content-Type of a streamed answer when it is not
	// server-sent events (Bedrock's application/vnd.amazon.eventstream).
	StreamType string
	// CacheAuto is a wire whose API caches every prompt's prefixes by
	// itself (OpenAI's); on the others a request marks what to cache.
	CacheAuto bool
}

// Errors words the errors the mock answers with on its own, as the real
// API of the wire does.
type Errors interface {
	// BodyError is the answer to a body that could not be read: over the
	// limit (an *http.MaxBytesError), empty (io.EOF), cut short.
	BodyError(err error) *Error
	// NotFound is the answer to a path the mock does not serve, or (known)
	// an API path of a scenario it does not serve.
	NotFound(method, path, scenario string, known bool) *Error
	// UnknownModel is the answer to a model the scenario does not serve;
	// served lists those it does.
	UnknownModel(name string, served []string) *Error
	// Limits applies a model's limits to a decoded request (name is the
	// model the client sent): max_tokens above max_output, the input over
	// the window. A zero limit is no limit.
	Limits(name string, m scenario.Model, q *Request) *Error
	// Scripted is the error a rule (or the mock's capacity) answers with:
	// the rule's type and message, or the real API's for the status.
	Scripted(s Scripted) *Error
	// Refused is the 429 of a rate-limit bucket that cannot pay.
	Refused(r Refusal) *Error
}

// Scripted is an error a rule asks for.
type Scripted struct {
	Status    int
	Type, Msg string // the rule's; "" takes the real API's for the status
	Model     string // what the client asked for
	Wait      time.Duration
	RequestID string
	// Quota and RetryDelay are the rule's error details, for a wire whose
	// errors carry them (Gemini: respond.quota, respond.retry_delay).
	Quota      string
	RetryDelay time.Duration
	// Rate is the model's buckets as the answer's headers show them (nil:
	// the model declares none): a rate-limit message states the same
	// figures.
	Rate *Rates
}

// Refusal is a rate-limit bucket that cannot pay a request.
type Refusal struct {
	Model string
	// What names the limit ("requests", "input tokens", "output tokens"),
	// and Tokens says it counts tokens rather than requests.
	What   string
	Tokens bool
	// Limit is the bucket's per-minute limit, Used what it has paid out,
	// Asked what the request asks of it, and Wait how long the refill
	// takes to hold it.
	Limit, Used, Asked int64
	Wait               time.Duration
}

// Counter is a wire that also counts a request's tokens without answering
// it (Anthropic's v1/messages/count_tokens): a request to CountPath is
// decoded with Request.CountOnly set.
type Counter interface {
	CountPath() string
}

// Router is a wire whose route carries the request's parameters in its
// path instead of ending in one fixed Path (Gemini's
// /v1beta/models/{model}:generateContent): the server asks each Router
// before it matches the fixed paths, and a Router's Spec.Path is the
// prefix its routes share ("/v1beta/"), which a path it does not serve
// may still carry (the 404 is then the Router's).
type Router interface {
	// Route splits a path and its raw query into the scenario's name and
	// what the route says of the request; ok is false when the path is
	// not one of the wire's routes.
	Route(path, query string) (scenario string, r Route, ok bool)
	// CountBody appends the answer of a count route (Route.Count) for n
	// input tokens.
	CountBody(b []byte, n int) []byte
}

// Route is what a Router's path says of a request: the model and whether
// it streams (the server puts them in the Request before Decode), whether
// it only counts tokens, and an API key given in the query, which the
// server hands Check as the KeyHeader header when that header is absent.
type Route struct {
	Model         string
	Stream, Count bool
	// Array: the stream is asked for as one JSON array (Request.Array).
	Array     bool
	Key       string
	KeyHeader string
	// Session names the request's session when the path does (Vertex's
	// project <scenario>--<session>); the session header, when sent, wins.
	Session string
}

// HeaderReader is a wire whose reading of a body depends on the request's
// headers (Anthropic: the betas anthropic-beta names): ReadHeaders sets
// what q may carry under them, before the body is decoded.
type HeaderReader interface {
	ReadHeaders(h http.Header, q *Request)
}

// TypeStatus is a wire whose errors have names of their own, each with
// its status (Bedrock's ThrottlingException is a 429): an error fault's
// respond.type naming one fails the stream with an error of that status.
type TypeStatus interface {
	StatusOfType(typ string) (status int, ok bool)
}
