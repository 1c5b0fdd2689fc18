package wirecache

import (
	"bytes"
	"errors"
	"sync"
	"time"

	"github.com/faultbench/faultbench/recovery"
)

// Cache holds the encoded messages of the last conversation sent. It is
// safe for concurrent use, but keeps one conversation: providers shared by
// many conversations at once still send the right bytes, only with less
// reuse. The zero value is ready.
type Cache struct {
	mu    sync.Mutex
	msgs  []recovery.Message // deep copies of the messages encoded
	enc   [][]byte
	head  Head
	frame *Frame
	// body is the last Body, kept while neither its messages nor its
	// frame change: a resend of the same request, the most common of all
	// (every retry), is sent from it without a copy.
	body []byte
}

// Encoder encodes message i of a request as the SDK would, as the JSON
// that goes inside the request's "messages" array (for a message that
// maps onto several wire messages, those joined by commas).
type Encoder func(i int, m recovery.Message) ([]byte, error)

// Messages returns the encoding of each of msgs, encoding only those that
// differ from the message at the same place in the last call. The slices
// returned must not be changed.
func (c *Cache) Messages(msgs []recovery.Message, encode Encoder) ([][]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.update(msgs, encode); err != nil {
		return nil, err
	}
	return append([][]byte(nil), c.enc...), nil
}

// Body is the request of head h and messages msgs: the frame build makes
// for h with the encoded msgs spliced in (Frame.Body), encoding only what
// the last call did not. A request the same as the last call's gets the
// same slice again; it must not be changed.
func (c *Cache) Body(h Head, build func() (Frame, error), msgs []recovery.Message, encode Encoder) ([]byte, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.update(msgs, encode); err != nil {
		return nil, err
	}
	f, err := c.frameOf(h, build)
	if err != nil {
		return nil, err
	}
	if c.body != nil {
		return c.body, nil
	}
	b, err := f.Body(c.enc)
	if err != nil {
		return nil, err
	}
	c.body = b
	return b, nil
}

// update makes c.enc the encoding of msgs.
func (c *Cache) update(msgs []recovery.Message, encode Encoder) error {
	keep := 0
	for keep < len(msgs) && keep < len(c.msgs) && same(c.msgs[keep], msgs[keep]) {
		keep++
	}
	if keep < len(c.msgs) || keep < len(msgs) {
		c.body = nil
	}
	c.msgs, c.enc = c.msgs[:keep], c.enc[:keep]
	for i := keep; i < len(msgs); i++ {
		b, err := encode(i, msgs[i])
		if err != nil {
			c.msgs, c.enc = c.msgs[:i], c.enc[:i]
			return err
		}
		c.msgs = append(c.msgs, clone(msgs[i]))
		c.enc = append(c.enc, b)
	}
	return nil
}

// Head is what a request holds besides its messages: the transports keep
// the SDK's encoding of it with an empty message list.
type Head struct {
	Model     string
	System    string
	MaxTokens int
	Legacy    bool // OpenAI's max_tokens instead of max_completion_tokens
	// SystemCache is the lifetime of the system prompt's cache
	// breakpoint (0: none).
	SystemCache time.Duration
}

// Frame is the encoding of a request's Head: the SDK's JSON of the request
// with an empty message list, and the wire messages that lead every list
// (OpenAI's system message), already encoded, or nil.
type Frame struct {
	Skeleton []byte
	Lead     []byte
}

// Frame returns the frame of h that build makes, building it only when h
// differs from the last call's.
func (c *Cache) Frame(h Head, build func() (Frame, error)) (Frame, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.frameOf(h, build)
}

func (c *Cache) frameOf(h Head, build func() (Frame, error)) (Frame, error) {
	if c.frame != nil && c.head == h {
		return *c.frame, nil
	}
	f, err := build()
	if err != nil {
		return Frame{}, err
	}
	c.head, c.frame, c.body = h, &f, nil
	return f, nil
}

// emptyMessages is where the skeleton's message list sits. Nothing before
// it in a skeleton can hold these bytes: a quote inside a JSON string is
// escaped.
var emptyMessages = []byte(`"messages":[]`)

// ErrNoMessages says that a skeleton has no empty message list to fill.
var ErrNoMessages = errors.New("wirecache: the request's encoding has no empty messages list")

// Body splices the frame's lead and msgs, joined by commas, into the empty
// message list of its skeleton, in one new buffer.
func (f Frame) Body(msgs [][]byte) ([]byte, error) {
	at := bytes.Index(f.Skeleton, emptyMessages)
	if at < 0 {
		return nil, ErrNoMessages
	}
	at += len(emptyMessages) - 1 // before the ]
	n := len(f.Skeleton) + len(f.Lead) + len(msgs)
	for _, m := range msgs {
		n += len(m)
	}
	body := make([]byte, 0, n)
	body = append(body, f.Skeleton[:at]...)
	body = append(body, f.Lead...)
	for _, m := range msgs {
		if len(m) == 0 {
			continue
		}
		if len(body) > at {
			body = append(body, ',')
		}
		body = append(body, m...)
	}
	return append(body, f.Skeleton[at:]...), nil
}

// same reports whether a and b are the same message, by content. Texts
// that share their bytes compare at once.
func same(a, b recovery.Message) bool {
	if a.Role != b.Role || a.Text != b.Text || a.Cache != b.Cache || len(a.ToolCalls) != len(b.ToolCalls) || len(a.ToolResults) != len(b.ToolResults) {
		return false
	}
	for i, x := range a.ToolCalls {
		y := b.ToolCalls[i]
		if x.ID != y.ID || x.Name != y.Name || !bytes.Equal(x.Input, y.Input) {
			return false
		}
	}
	for i, x := range a.ToolResults {
		if x != b.ToolResults[i] {
			return false
		}
	}
	return true
}

// clone copies what of m a caller could change in place: the tool call
// and result lists and the calls' input bytes.
func clone(m recovery.Message) recovery.Message {
	if m.ToolCalls != nil {
		calls := make([]recovery.ToolCall, len(m.ToolCalls))
		for i, c := range m.ToolCalls {
			c.Input = bytes.Clone(c.Input)
			calls[i] = c
		}
		m.ToolCalls = calls
	}
	m.ToolResults = append([]recovery.ToolResult(nil), m.ToolResults...)
	return m
}
