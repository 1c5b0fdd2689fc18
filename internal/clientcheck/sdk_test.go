package clientcheck

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/anthropics/anthropic-sdk-go/v2"
	aoption "github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/faultbench/faultbench/internal/leaktest"
	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/recovery"
)

func TestMain(m *testing.M) { leaktest.VerifyTestMain(m) }

// sdk is an official client under test, with its retries on as shipped,
// and its documented retry policy.
type sdk struct {
	name string
	// maxRetries is the SDK's default: attempts are maxRetries + 1.
	maxRetries int
	send       func(ctx context.Context, c call) outcome
	// retries says whether the SDK retries after attempt n (from 0) of
	// call c that went as o, and the least it waits before the next.
	retries func(o *observed, n int, c call) (bool, time.Duration)
}

// call is one SDK call: where, as which session, what, and how.
type call struct {
	base, session string
	client        *http.Client
	req           recovery.Request
	stream        bool
	timeout       time.Duration // the SDK's per-attempt timeout
}

// outcome is what the SDK handed back.
type outcome struct {
	stop string // the answer's stop reason ("" when none came)
	err  error
}

// String says what the SDK returned, for the tables.
func (o outcome) String() string {
	var aErr *anthropic.Error
	var oErr *openai.Error
	var sErr *ssestream.StreamError
	var syntax *json.SyntaxError
	switch {
	case o.err == nil:
		return "answer (" + o.stop + ")"
	case errors.Is(o.err, context.DeadlineExceeded):
		return "deadline"
	case errors.As(o.err, &aErr):
		if aErr.StatusCode == http.StatusOK {
			return "stream error " + string(aErr.Type())
		}
		return "HTTP " + strconv.Itoa(aErr.StatusCode)
	case errors.As(o.err, &oErr):
		return "HTTP " + strconv.Itoa(oErr.StatusCode)
	case errors.As(o.err, &sErr):
		return "stream error event"
	case errors.Is(o.err, io.ErrUnexpectedEOF):
		return "unexpected EOF"
	case errors.As(o.err, &syntax):
		return "invalid JSON"
	}
	msg := o.err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 {
		msg = msg[i+2:]
	}
	return "error: " + msg
}

var anthropicSDK = sdk{
	name:       "anthropic-sdk-go",
	maxRetries: 2,
	send:       sendAnthropic,
	retries:    anthropicRetries,
}

var openaiSDK = sdk{
	name:       "openai-go",
	maxRetries: 2,
	send:       sendOpenAI,
	retries:    openaiRetries,
}

var sdks = []sdk{anthropicSDK, openaiSDK}

func sendAnthropic(ctx context.Context, c call) outcome {
	client := anthropic.NewClient(
		aoption.WithBaseURL(c.base), aoption.WithAPIKey("faultbench"), aoption.WithHTTPClient(c.client),
		aoption.WithHeader(mockllm.SessionHeader, c.session), aoption.WithRequestTimeout(c.timeout),
	)
	params := anthropic.MessageNewParams{Model: anthropic.Model(c.req.Model), MaxTokens: int64(c.req.MaxTokens)}
	if c.req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: c.req.System}}
	}
	for _, m := range c.req.Messages {
		if m.Role == "assistant" {
			params.Messages = append(params.Messages, anthropic.NewAssistantMessage(anthropic.NewTextBlock(m.Text)))
		} else {
			params.Messages = append(params.Messages, anthropic.NewUserMessage(anthropic.NewTextBlock(m.Text)))
		}
	}
	if !c.stream {
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			return outcome{err: err}
		}
		return outcome{stop: string(msg.StopReason)}
	}
	s := client.Messages.NewStreaming(ctx, params)
	defer func() { _ = s.Close() }()
	var msg anthropic.Message
	for s.Next() {
		if err := msg.Accumulate(s.Current()); err != nil {
			return outcome{err: err}
		}
	}
	if err := s.Err(); err != nil {
		return outcome{err: err}
	}
	return outcome{stop: string(msg.StopReason)}
}

func sendOpenAI(ctx context.Context, c call) outcome {
	client := openai.NewClient(
		ooption.WithBaseURL(c.base+"v1/"), ooption.WithAPIKey("faultbench"), ooption.WithHTTPClient(c.client),
		ooption.WithHeader(mockllm.SessionHeader, c.session), ooption.WithRequestTimeout(c.timeout),
	)
	params := openai.ChatCompletionNewParams{Model: c.req.Model, MaxTokens: openai.Int(int64(c.req.MaxTokens))}
	if c.req.System != "" {
		params.Messages = append(params.Messages, openai.SystemMessage(c.req.System))
	}
	for _, m := range c.req.Messages {
		if m.Role == "assistant" {
			params.Messages = append(params.Messages, openai.AssistantMessage(m.Text))
		} else {
			params.Messages = append(params.Messages, openai.UserMessage(m.Text))
		}
	}
	if !c.stream {
		cc, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			return outcome{err: err}
		}
		return outcome{stop: cc.Choices[0].FinishReason}
	}
	s := client.Chat.Completions.NewStreaming(ctx, params)
	defer func() { _ = s.Close() }()
	var acc openai.ChatCompletionAccumulator
	for s.Next() {
		acc.AddChunk(s.Current())
	}
	if err := s.Err(); err != nil {
		return outcome{err: err}
	}
	if len(acc.Choices) == 0 {
		return outcome{err: errors.New("no choice in the stream")}
	}
	return outcome{stop: acc.Choices[0].FinishReason}
}

// retryDelay is the least an SDK waits after a response: retry-after-ms,
// else retry-after (seconds or an HTTP date), else its backoff, 0.5 s·2^n
// capped at 8 s, less at most 25 % jitter. ok is false when the server
// asked for more than limit (0: no limit).
func retryDelay(h http.Header, n int, limit time.Duration) (d time.Duration, ok bool) {
	asked := time.Duration(-1)
	if v, err := strconv.ParseFloat(h.Get("retry-after-ms"), 64); err == nil {
		asked = time.Duration(v * float64(time.Millisecond))
	} else if v, err := strconv.ParseFloat(h.Get("retry-after"), 64); err == nil {
		asked = time.Duration(v * float64(time.Second))
	} else if at, err := http.ParseTime(h.Get("retry-after")); err == nil {
		asked = max(0, time.Until(at)-time.Second) // the date has whole seconds
	}
	if asked >= 0 {
		return asked, limit == 0 || asked <= limit
	}
	backoff := time.Duration(math.Min(0.5*math.Pow(2, float64(n)), 8) * float64(time.Second))
	return backoff * 3 / 4, true
}

// retryableStatus is the statuses both SDKs retry when x-should-retry does
// not say: 408, 409, 429 and every 5xx.
func retryableStatus(code int) bool {
	return code == 408 || code == 409 || code == 429 || code >= 500
}

// anthropicRetries is anthropic-sdk-go v2's documented policy
// (internal/requestconfig): 2 retries; a failure without a response —
// a connection error or the attempt's own timeout — is retried; so is a
// body that could not be read, unless x-should-retry says false;
// x-should-retry true or false decides; else 408, 409, 429 and 5xx are
// retried. The wait is the server's (retry-after-ms, retry-after) with no
// upper bound, else the backoff. A stream that began is never retried.
func anthropicRetries(o *observed, n int, c call) (bool, time.Duration) {
	if n >= 2 {
		return false, 0
	}
	d, _ := retryDelay(o.header, n, 0)
	should := o.header.Get("x-should-retry")
	switch {
	case o.status == 0:
		return true, d
	case o.status < 400 && o.bodyErr != nil && !c.stream:
		return should != "false", d
	case o.status < 400:
		return false, 0
	case should == "true":
		return true, d
	case should == "false":
		return false, 0
	}
	return retryableStatus(o.status), d
}

// openaiRetries is openai-go v3's documented policy
// (internal/requestconfig): 2 retries; a failure without a response is
// retried, except the attempt's own timeout, which ends the call with
// context.DeadlineExceeded; x-should-retry decides; else 408, 409, 429
// and 5xx are retried; a server wait above 2 minutes is not waited for:
// the call ends with the error. The wait runs under the attempt's timeout:
// one longer than the timeout ends the call with context.DeadlineExceeded.
// A body read after the retries have ended (a 200's) is never retried.
func openaiRetries(o *observed, n int, c call) (bool, time.Duration) {
	if n >= 2 {
		return false, 0
	}
	d, ok := retryDelay(o.header, n, 2*time.Minute)
	if c.timeout > 0 && d >= c.timeout {
		ok = false
	}
	should := o.header.Get("x-should-retry")
	switch {
	case o.status == 0:
		return !errors.Is(o.err, context.DeadlineExceeded), d
	case o.status < 400:
		return false, 0
	case should == "true":
		return ok, d
	case should == "false":
		return false, 0
	}
	return retryableStatus(o.status) && ok, d
}

// observed is one attempt as the client's transport saw it.
type observed struct {
	status  int // 0: no response
	header  http.Header
	err     error // the transport's error
	bodyErr error // reading the body failed
}

// tap is a transport that records every attempt an SDK makes.
type tap struct {
	next http.RoundTripper
	mu   sync.Mutex
	seen []*observed
}

func (t *tap) RoundTrip(req *http.Request) (*http.Response, error) {
	o := &observed{header: http.Header{}}
	t.mu.Lock()
	t.seen = append(t.seen, o)
	t.mu.Unlock()
	resp, err := t.next.RoundTrip(req)
	t.mu.Lock()
	defer t.mu.Unlock()
	if err != nil {
		o.err = err
		return nil, err
	}
	o.status, o.header = resp.StatusCode, resp.Header
	resp.Body = &tapBody{ReadCloser: resp.Body, t: t, o: o}
	return resp, nil
}

func (t *tap) attempts() []observed {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]observed, len(t.seen))
	for i, o := range t.seen {
		out[i] = *o
	}
	return out
}

type tapBody struct {
	io.ReadCloser
	t *tap
	o *observed
}

func (b *tapBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err != nil && err != io.EOF {
		b.t.mu.Lock()
		b.o.bodyErr = err
		b.t.mu.Unlock()
	}
	return n, err
}

// checkRun holds a run's journal to what the client did and to the SDK's
// policy: one entry per attempt, each with its retry count and the status
// the client saw; a retry after every attempt the policy retries, after at
// least the wait it asks; none after one it does not. ended says a
// deadline ended the call — the caller's context or the SDK's own
// request timeout — which stops any SDK.
//
// On a busy host a deadline can strike while an attempt is still on its
// way: the server may never have journaled it, or journaled it without
// the client seeing the status. So when the call ended so, the attempts
// the journal lacks may only be the last ones, and the last attempt the
// server saw may have gone unanswered to the client. A journal entry is
// written when its answer ends, so a hung attempt the client gave up on
// can land after the retry that followed it: entries are taken in the
// order of the retry count each carries.
func checkRun(s sdk, c call, seen []observed, journal []mockllm.Entry, ended bool) error {
	journal = slices.Clone(journal)
	slices.SortStableFunc(journal, func(a, b mockllm.Entry) int {
		if a.RetryCount == nil || b.RetryCount == nil {
			return 0
		}
		return *a.RetryCount - *b.RetryCount
	})
	switch {
	case len(journal) > len(seen), len(journal) < len(seen) && !ended:
		return fmt.Errorf("the client made %d attempts, the journal shows %d", len(seen), len(journal))
	}
	for i, e := range journal {
		o := &seen[i]
		if e.RetryCount == nil {
			return fmt.Errorf("attempt %d: no retry count header, want %d", i+1, i)
		}
		if *e.RetryCount != i {
			return fmt.Errorf("attempt %d: retry count header %d, want %d", i+1, *e.RetryCount, i)
		}
		if o.status != 0 && o.status != e.Status {
			return fmt.Errorf("attempt %d: the client saw status %d, the journal says %d", i+1, o.status, e.Status)
		}
		if o.status == 0 && e.Status != 0 && e.Fault == "" && !(ended && i == len(journal)-1) {
			return fmt.Errorf("attempt %d: the client saw no status, the journal says %d", i+1, e.Status)
		}
		retry, wait := s.retries(o, i, c)
		last := i == len(journal)-1
		switch {
		case !last && !retry:
			return fmt.Errorf("attempt %d (%d %s): %s retried, but its policy does not", i+1, e.Status, e.Kind, s.name)
		case !last && time.Duration(journal[i+1].GapMS)*time.Millisecond < wait-2*time.Millisecond:
			return fmt.Errorf("attempt %d: retried after %d ms, its policy waits at least %s", i+2, journal[i+1].GapMS, wait)
		case last && retry && !ended:
			return fmt.Errorf("attempt %d (%d %s): %s stopped, but its policy retries", i+1, e.Status, e.Kind, s.name)
		}
	}
	return nil
}
