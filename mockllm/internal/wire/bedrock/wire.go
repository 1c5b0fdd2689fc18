package bedrock

import (
	"bytes"
	"encoding/base64"
	"net/http"
	"strconv"

	"github.com/faultbench/faultbench/internal/jsonscan"
	"github.com/faultbench/faultbench/mockllm/internal/wire"
	"github.com/faultbench/faultbench/mockllm/internal/wire/anthropic"
)

// Wire is Bedrock Runtime's InvokeModel and InvokeModelWithResponseStream
// for Anthropic's models: the Messages API's body (without model and
// stream, with anthropic_version) behind Bedrock's routes, auth, errors
// and event stream.
type Wire struct{ anthropic.Wire }

var (
	_ wire.Wire       = Wire{}
	_ wire.Router     = Wire{}
	_ wire.TypeStatus = Wire{}
)

// StreamType is the Content-Type of Bedrock's event stream.
const StreamType = "application/vnd.amazon.eventstream"

// Spec names the wire "bedrock", its routes' prefix /model/ (a Router's
// Path); its answers are msg_bdrk_ and its tool calls toolu_bdrk_, as
// Bedrock's Anthropic answers are. Bedrock states no wait anywhere (no
// retry-after, no wait in the body), so the server adds no retry-after
// (WaitInBody), while the journal still measures a client against the
// mock's wait.
func (Wire) Spec() wire.Spec {
	return wire.Spec{Name: "bedrock", Path: "/" + modelPrefix, AnswerTag: 'b', AnswerPrefix: "msg_bdrk_", ToolPrefix: "toolu_bdrk_",
		WaitInBody: true, StreamType: StreamType}
}

// AnthropicVersion is Bedrock's own anthropic_version. Bedrock also takes
// the versions the Messages API knows, which anthropic-sdk-go's bedrock
// option moves from its anthropic-version header into the body.
const AnthropicVersion = "bedrock-2023-05-31"

// maxEcho is the most of a value an error repeats.
const maxEcho = 64

// knownVersion reports whether Bedrock takes v as anthropic_version.
func knownVersion(v string) bool {
	return v == AnthropicVersion || anthropic.Wire{}.Check(http.Header{"Anthropic-Version": {v}}) == nil
}

// Decode reads a Bedrock body for an Anthropic model: the Messages API's
// fields, anthropic_version required, and neither model nor stream (the
// path says both), each refused as Bedrock's ValidationException words it;
// the rest is read and checked as the Messages API does, its errors
// passed on as ValidationExceptions.
func (w Wire) Decode(b []byte, q *wire.Request) *wire.Error {
	model, hasModel, stream := q.Model, q.HasModel, q.Stream
	if e := topLevel(b); e != nil {
		*q = wire.Request{}
		return e
	}
	if e := w.Wire.Decode(b, q); e != nil {
		return validationOf(e)
	}
	q.Model, q.HasModel, q.Stream = model, hasModel, stream
	return nil
}

// topLevel checks the body's top-level keys as Bedrock's schema does.
func topLevel(b []byte) *wire.Error {
	s := jsonscan.New(b)
	if s.Peek() != '{' {
		return invalid(exceptions[0].msg)
	}
	s.Enter()
	version := false
	for s.More() {
		switch key := string(s.Key()); key {
		case "model", "stream":
			return invalid("Malformed input request: #: extraneous key [" + key + "] is not permitted, please reformat your input and try again.")
		case "anthropic_version":
			v, ok := s.StringValue()
			if !ok || !knownVersion(string(v)) {
				return invalid("Malformed input request: #/anthropic_version: " + strconv.Quote(string(v[:min(len(v), maxEcho)])) + " is not a valid enum value, please reformat your input and try again.")
			}
			version = true
		default:
			s.Skip()
		}
	}
	switch {
	case s.Bad():
		return invalid(exceptions[0].msg)
	case !version:
		return invalid("Malformed input request: #: required key [anthropic_version] not found, please reformat your input and try again.")
	}
	return nil
}

// The headers of Bedrock's answers, canonical.
const (
	headerRequestID   = "X-Amzn-Requestid"
	headerErrorType   = "X-Amzn-Errortype"
	headerContentType = "X-Amzn-Bedrock-Content-Type"
	// errorTypeSuffix follows an exception's name in x-amzn-ErrorType.
	errorTypeSuffix = ":http://internal.amazon.com/coral/com.amazon.bedrock/"
)

// Headers sets what Bedrock's answers carry: x-amzn-RequestId, and on an
// error the exception's name in x-amzn-ErrorType; an answer says the
// content type of the model's body (x-amzn-bedrock-content-type). Bedrock
// sends no rate-limit headers.
func (Wire) Headers(h http.Header, r *wire.Reply) {
	h[headerRequestID] = []string{r.RequestID}
	if r.Err != nil {
		h[headerErrorType] = []string{r.Err.Type + errorTypeSuffix}
		return
	}
	h[headerContentType] = []string{"application/json"}
}

// Body appends Bedrock's error ({"message"}) or the Messages API's
// message, which InvokeModel returns as the model wrote it.
func (w Wire) Body(b []byte, r *wire.Reply) []byte {
	if r.Err != nil {
		return appendError(b, r.Err)
	}
	return w.Wire.Body(b, r)
}

// Stream appends the Messages API's events, each as the base64 bytes of a
// chunk event of the AWS event stream; the last, message_stop, carries
// Bedrock's amazon-bedrock-invocationMetrics.
func (w Wire) Stream(ev *wire.Events, r *wire.Reply) {
	inner := wire.NewEvents()
	defer inner.Release()
	c := chunker{out: ev, in: inner, r: r}
	inner.Send(c.send, 0)
	w.Wire.Stream(inner, r)
	_ = inner.Flush()
}

// chunker turns the Messages API's server-sent events into chunk events,
// as they are built: each whole event is framed at once.
type chunker struct {
	out, in *wire.Events
	r       *wire.Reply
	part    []byte // the first part of an event not yet whole
	carried int    // the output text of the events framed so far
	payload []byte // the chunk's JSON, reused
}

// send frames the events of b that end at ends; the rest of b, the first
// part of the next event, waits in part.
func (c *chunker) send(b []byte, ends []int) error {
	start := 0
	for _, end := range ends {
		event := b[start:end]
		if len(c.part) > 0 {
			event = append(c.part, event...)
			c.part = c.part[:0]
		}
		c.chunk(event)
		start = end
	}
	c.part = append(c.part, b[start:]...)
	return nil
}

// messageStop is the last event of the Messages API's stream.
var messageStop = []byte(`{"type":"message_stop"}`)

// chunk frames one server-sent event ("event: NAME\ndata: JSON\n\n") as
// a chunk event whose payload is {"bytes": base64 of JSON, "p": padding}.
func (c *chunker) chunk(event []byte) {
	_, data, _ := bytes.Cut(event, []byte("data: "))
	data = bytes.TrimSuffix(data, []byte("\n\n"))
	if bytes.Equal(data, messageStop) {
		a := &c.r.Ans
		m := []byte(`{"type":"message_stop","amazon-bedrock-invocationMetrics":{"inputTokenCount":`)
		m = strconv.AppendInt(m, int64(a.Input), 10)
		m = append(m, `,"outputTokenCount":`...)
		m = strconv.AppendInt(m, int64(a.Output), 10)
		data = append(m, `,"invocationLatency":0,"firstByteLatency":0}}`...)
	}
	p := append(c.payload[:0], `{"bytes":"`...)
	p = base64.StdEncoding.AppendEncode(p, data)
	p = append(p, `","p":"`...)
	p = append(p, padding[:len(data)%len(padding)]...)
	c.payload = append(p, `"}`...)
	c.out.Carry(c.in.Carried() - c.carried)
	c.carried = c.in.Carried()
	c.out.EndRaw(AppendMessage(c.out.BeginRaw(), chunkHeaders, c.payload))
}

// padding is what Bedrock's "p" field is cut from: it pads a chunk so
// that its length does not tell its content.
const padding = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"

// The headers of the messages of Bedrock's event stream.
var (
	chunkHeaders = []Header{{":event-type", "chunk"}, {":content-type", "application/json"}, {":message-type", "event"}}
)

// exceptionHeaders are the headers of an exception of the event stream.
func exceptionHeaders(name string) []Header {
	return []Header{{":exception-type", name}, {":content-type", "application/json"}, {":message-type", "exception"}}
}

// Broken appends a chunk event whose JSON payload is cut short: the
// message is whole and its CRCs hold, the chunk is not JSON.
func (Wire) Broken(ev *wire.Events, _ *wire.Reply) {
	ev.EndRaw(AppendMessage(ev.BeginRaw(), chunkHeaders, []byte(`{"bytes":"eyJ0eXBlIjoiY29udGVudF9ibG9j`)))
}

// Failed appends the exception a stream ends with: the error's own
// (throttlingException, with a lower-case t, as Bedrock spells it in a
// stream) or a modelStreamErrorException.
func (Wire) Failed(ev *wire.Events, _ *wire.Reply, e *wire.Error) {
	name, payload := streamException(nil, e)
	ev.EndRaw(AppendMessage(ev.BeginRaw(), exceptionHeaders(name), payload))
}
