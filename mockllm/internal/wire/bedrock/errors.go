package bedrock

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/scenario"
)

// An exception is one of Bedrock Runtime's errors: its name (a rule's
// respond.type), the status it comes with, the journal's kind and the
// message Bedrock words it with.
type exception struct {
	name   string
	status int
	kind   string
	msg    string
}

// The exceptions of InvokeModel and InvokeModelWithResponseStream, with
// their statuses as the Bedrock Runtime API reference lists them.
var exceptions = []exception{
	{"ValidationException", 400, wire.KindInvalidRequest, "Malformed input request, please reformat your input and try again."},
	{"ServiceQuotaExceededException", 400, wire.KindQuotaExhausted, "Your request exceeds the service quota for your account. You can view your quotas at Viewing service quotas. You can resubmit your request later."},
	{"AccessDeniedException", 403, wire.KindPermission, "You don't have access to the model with the specified model ID."},
	{"ResourceNotFoundException", 404, wire.KindNotFound, "The specified resource ARN was not found."},
	{"ModelTimeoutException", 408, wire.KindTimeout, "Model has timed out in processing the request. Try your request again."},
	{"ModelErrorException", 424, wire.KindServer, "The request failed due to an error while processing the model."},
	{"ModelStreamErrorException", 424, wire.KindServer, "An error occurred while streaming the response. Retry your request."},
	{"ThrottlingException", 429, wire.KindRateLimit, "Too many requests, please wait before trying again."},
	{"ModelNotReadyException", 429, wire.KindOverloaded, "Model is not ready to serve inference requests. The AWS SDK will automatically retry the operation up to 5 times."},
	{"InternalServerException", 500, wire.KindServer, "The system encountered an unexpected error during processing. Try your request again."},
	{"ServiceUnavailableException", 503, wire.KindOverloaded, "Bedrock is unable to process your request."},
}

// The exceptions the mock's own errors name.
const (
	validation  = "ValidationException"
	throttling  = "ThrottlingException"
	streamError = "ModelStreamErrorException"
	// missingAuth is AWS's 403 to a request without an Authorization
	// header, which no Bedrock operation lists but every AWS endpoint
	// answers.
	missingAuth = "MissingAuthenticationTokenException"
	// unknownOperation is AWS's 404 to a path no operation has.
	unknownOperation = "UnknownOperationException"
)

// lookup is the exception named name, matched without regard to the case
// of its first letter (the stream's event type spells it
// throttlingException); ok is false for a name Bedrock does not send.
func lookup(name string) (exception, bool) {
	for _, e := range exceptions {
		if strings.EqualFold(e.name, name) {
			return e, true
		}
	}
	return exception{}, false
}

// StatusOfType is the status of the exception typ names.
func (Wire) StatusOfType(typ string) (int, bool) {
	e, ok := lookup(typ)
	return e.status, ok
}

// byStatus is the exception Bedrock answers a status with.
func byStatus(status int) exception {
	name := validation
	switch {
	case status == 401 || status == 403:
		name = "AccessDeniedException"
	case status == 404:
		name = "ResourceNotFoundException"
	case status == 408:
		name = "ModelTimeoutException"
	case status == 424:
		name = "ModelErrorException"
	case status == 429:
		name = throttling
	case status == 503 || status == 529:
		name = "ServiceUnavailableException"
	case status >= 500:
		name = "InternalServerException"
	}
	e, _ := lookup(name)
	return e
}

// raise is an exception as the wire's Error, with status and msg when
// they are given.
func raise(e exception, status int, msg string) *wire.Error {
	if status == 0 {
		status = e.status
	}
	if msg == "" {
		msg = e.msg
	}
	return &wire.Error{Status: status, Type: e.name, Message: msg, Kind: e.kind}
}

// invalid is a ValidationException saying msg.
func invalid(msg string) *wire.Error { return raise(exceptions[0], 0, msg) }

// Check refuses a request without an Authorization header as AWS does: a
// 403 MissingAuthenticationTokenException. Any signature, and any bearer
// token (a Bedrock API key), is accepted.
func (Wire) Check(h http.Header) *wire.Error {
	if strings.TrimSpace(h.Get("Authorization")) != "" {
		return nil
	}
	return &wire.Error{Status: http.StatusForbidden, Type: missingAuth, Message: "Missing Authentication Token", Kind: wire.KindAuth}
}

// BodyError is a ValidationException for a body that could not be read
// (a body over the limit keeps its 413).
func (w Wire) BodyError(err error) *wire.Error { return validationOf(w.Wire.BodyError(err)) }

// validationOf words an error of the Messages API's decoder as Bedrock
// passes it on: a ValidationException with the same message, status and
// kind.
func validationOf(e *wire.Error) *wire.Error {
	return &wire.Error{Status: e.Status, Type: validation, Message: e.Message, Kind: e.Kind}
}

// NotFound is AWS's 404 for a path no operation has.
func (Wire) NotFound(_, _, scenario string, known bool) *wire.Error {
	msg := "Not Found"
	if known {
		msg = fmt.Sprintf("Not Found (faultbench serves no scenario %q.)", scenario)
	}
	return &wire.Error{Status: http.StatusNotFound, Type: unknownOperation, Message: msg, Kind: wire.KindNotFound}
}

// UnknownModel is Bedrock's 400 for a model ID it cannot resolve, then
// the models the scenario serves.
func (Wire) UnknownModel(name string, served []string) *wire.Error {
	e := invalid("The provided model identifier is invalid. (faultbench: no model " + strconv.Quote(name) +
		"; the scenario serves: " + strings.Join(served, ", ") + "; or alias a name: faultbench serve --model-alias.)")
	e.Kind = wire.KindNotFound
	return e
}

// tooLong is Bedrock's ValidationException for an input over the model's
// window.
const tooLong = "Input is too long for requested model."

// Limits applies a model's limits as Bedrock does: max_tokens over the
// model's output is the Messages API's own message, passed on; an input
// (with max_tokens) over the window is Bedrock's "Input is too long".
func (w Wire) Limits(name string, m scenario.Model, q *wire.Request) *wire.Error {
	e := w.Wire.Limits(name, m, q)
	if e == nil {
		return nil
	}
	if e.Kind == wire.KindContextOverflow {
		e = invalid(tooLong)
		e.Kind = wire.KindContextOverflow
		return e
	}
	return validationOf(e)
}

// Scripted is a rule's error on Bedrock: the exception its type names
// (ThrottlingException, ModelNotReadyException, …, in either case of the
// first letter), else the one Bedrock answers its status with; a rule's
// message replaces Bedrock's, and its status the exception's.
func (Wire) Scripted(s wire.Scripted) *wire.Error {
	e, ok := lookup(s.Type)
	if !ok {
		e = byStatus(s.Status)
		if s.Status != e.status && s.Status != 0 {
			// A status Bedrock does not pair with the exception: the
			// journal's kind follows the status.
			e.kind = wire.ErrorKind(s.Status, "", s.Msg)
		}
	}
	return raise(e, s.Status, s.Msg)
}

// Refused is Bedrock's ThrottlingException for a bucket that cannot pay:
// too many requests, or too many tokens.
func (Wire) Refused(r wire.Refusal) *wire.Error {
	msg := "Too many requests, please wait before trying again."
	if r.Tokens {
		msg = "Too many tokens, please wait before trying again."
	}
	e := &wire.Error{Status: http.StatusTooManyRequests, Type: throttling, Message: msg, Kind: wire.KindRateLimit}
	if !r.Tokens {
		e.Bucket = wire.BucketRequests
	}
	return e
}

// appendError appends the body of an error answer as Bedrock sends it:
// {"message": …}; the exception's name is in the x-amzn-ErrorType
// header (Headers).
func appendError(b []byte, e *wire.Error) []byte {
	b = append(b, `{"message":`...)
	b = jsonscan.AppendString(b, e.Message)
	return append(b, '}')
}

// streamExceptions are the exceptions the InvokeModelWithResponseStream
// event stream carries, as its :exception-type header spells them.
var streamExceptions = []string{
	"internalServerException", "modelStreamErrorException", "validationException",
	"throttlingException", "modelTimeoutException", "serviceUnavailableException",
}

// streamException is the :exception-type of an error inside a stream and
// its payload: the error's own exception when the stream can carry it,
// else a modelStreamErrorException that names the status and message of
// the error the model met.
func streamException(b []byte, e *wire.Error) (string, []byte) {
	for _, name := range streamExceptions {
		if strings.EqualFold(name, e.Type) && !strings.EqualFold(name, streamError) {
			return name, appendError(b, e)
		}
	}
	b = append(b, `{"message":`...)
	b = jsonscan.AppendString(b, exceptionOf(streamError).msg)
	b = append(b, `,"originalStatusCode":`...)
	b = strconv.AppendInt(b, int64(e.Status), 10)
	b = append(b, `,"originalMessage":`...)
	b = jsonscan.AppendString(b, e.Message)
	return "modelStreamErrorException", append(b, '}')
}

// exceptionOf is the exception named name, which the table holds.
func exceptionOf(name string) exception {
	e, _ := lookup(name)
	return e
}
