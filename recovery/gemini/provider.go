package gemini

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"google.golang.org/genai"

	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/internal/wirecache"
)

// Provider sends recovery requests by the Gemini API's generateContent
// (or, WithStream, streamGenerateContent?alt=sse) through the official Go
// SDK with its retries off. A Provider is safe for concurrent use; its
// settings never change. It keeps the SDK's encoding of the contents of
// the last conversation it sent (body.go), so a resend or the next step of
// an agent turn encodes only what is new: give each conversation its own
// Provider (each With method returns one with an empty cache).
type Provider struct {
	client     *genai.Client
	stream     bool
	perRequest []func(recovery.Request) http.Header
	cache      *wirecache.Cache
}

var _ recovery.Provider = (*Provider)(nil)

// noRetries is the SDK's retry switched off: one attempt. A request's
// RetryOptions replace the client's wholesale, so that every request
// carrying these makes exactly one HTTP call.
var noRetries = &genai.HTTPRetryOptions{Attempts: genai.Ptr[int32](1)}

// New builds a Provider on a client made from cfg (API key, base URL in
// cfg.HTTPOptions.BaseURL, HTTP client, ...), as genai.NewClient makes it
// (it reads GEMINI_API_KEY or GOOGLE_API_KEY when cfg has no key). The
// backend is the Gemini API unless cfg names another. Two settings are
// forced: the SDK's retries are off on the client and on every request,
// and cfg.HTTPClient (http.DefaultClient when nil) is wrapped so that the
// Provider sees each answer's status and headers.
func New(ctx context.Context, cfg genai.ClientConfig) (*Provider, error) {
	if cfg.Backend == genai.BackendUnspecified {
		cfg.Backend = genai.BackendGeminiAPI
	}
	hc := cfg.HTTPClient
	if hc == nil {
		hc = http.DefaultClient
	}
	wrapped := *hc
	wrapped.Transport = capture{base: hc.Transport}
	cfg.HTTPClient = &wrapped
	cfg.HTTPOptions.RetryOptions = noRetries
	client, err := genai.NewClient(ctx, &cfg)
	if err != nil {
		return nil, fmt.Errorf("gemini: %w", err)
	}
	return &Provider{client: client, cache: new(wirecache.Cache)}, nil
}

// WithRequestHeaders returns a copy of p that adds the headers f computes
// from each request to that request, after those of p (the harness names
// its session and each request's purpose so).
func (p *Provider) WithRequestHeaders(f func(recovery.Request) http.Header) *Provider {
	q := *p
	q.cache = new(wirecache.Cache)
	if f != nil {
		q.perRequest = append(append([]func(recovery.Request) http.Header(nil), p.perRequest...), f)
	}
	return &q
}

// WithStream returns a copy of p that sends by streamGenerateContent
// (stream.go) when on.
func (p *Provider) WithStream(on bool) *Provider {
	q := *p
	q.stream = on
	q.cache = new(wirecache.Cache)
	return &q
}

// Send makes one generateContent call for req: the system prompt as
// systemInstruction, the messages as contents (assistant as role model),
// max_tokens as generationConfig.maxOutputTokens. It never retries, and
// never continues an answer on its own (AutomaticContinuation off).
func (p *Provider) Send(ctx context.Context, req recovery.Request) (*recovery.Response, error) {
	contents, err := p.contents(req)
	if err != nil {
		return nil, err
	}
	headers := http.Header{}
	for _, f := range p.perRequest {
		for k, v := range f(req) {
			headers[http.CanonicalHeaderKey(k)] = append(headers[http.CanonicalHeaderKey(k)], v...)
		}
	}
	cfg := config(req)
	cfg.HTTPOptions = &genai.HTTPOptions{
		Headers:      headers,
		RetryOptions: noRetries,
		// The SDK encodes the request as a map; the contents go in already
		// encoded (body.go).
		ExtrasRequestProvider: func(body map[string]any) map[string]any {
			body["contents"] = contents
			return body
		},
	}
	var slot answerSlot
	ctx = context.WithValue(ctx, slotKey{}, &slot)
	if p.stream {
		return p.sendStream(ctx, req, cfg, &slot)
	}
	r, err := p.client.Models.GenerateContent(ctx, req.Model, nil, cfg)
	if err != nil {
		return nil, sendError(slot.get(), err)
	}
	return response(r, slot.get()), nil
}

// config is the request without its contents, as the SDK's config.
func config(req recovery.Request) *genai.GenerateContentConfig {
	cfg := &genai.GenerateContentConfig{
		AutomaticContinuation: genai.Ptr(false),
		MaxOutputTokens:       int32(min(max(req.MaxTokens, 0), 1<<31-1)),
	}
	if req.System != "" {
		cfg.SystemInstruction = &genai.Content{Parts: []*genai.Part{{Text: req.System}}}
	}
	return cfg
}

// contentOf maps message i onto a Content: a user message's tool results
// as functionResponse parts (named after the call they answer, found in
// the messages before it) before its text, sent when there is any or
// nothing else; an assistant message (role model) its text, then its
// calls as functionCall parts.
func contentOf(msgs []recovery.Message, i int) (*genai.Content, error) {
	m := msgs[i]
	switch m.Role {
	case "user":
		c := &genai.Content{Role: genai.RoleUser}
		for _, r := range m.ToolResults {
			key := "output"
			if r.IsError {
				key = "error"
			}
			c.Parts = append(c.Parts, &genai.Part{FunctionResponse: &genai.FunctionResponse{
				ID: r.ToolUseID, Name: callName(msgs[:i], r.ToolUseID), Response: map[string]any{key: r.Content},
			}})
		}
		if m.Text != "" || len(m.ToolResults) == 0 {
			c.Parts = append(c.Parts, &genai.Part{Text: m.Text})
		}
		return c, nil
	case "assistant":
		c := &genai.Content{Role: genai.RoleModel}
		if m.Text != "" || len(m.ToolCalls) == 0 {
			c.Parts = append(c.Parts, &genai.Part{Text: m.Text})
		}
		for _, call := range m.ToolCalls {
			args := map[string]any{}
			if len(call.Input) > 0 {
				if err := json.Unmarshal(call.Input, &args); err != nil {
					return nil, fmt.Errorf("gemini: message %d: tool call %q: arguments are not a JSON object: %w", i, call.Name, err)
				}
			}
			c.Parts = append(c.Parts, &genai.Part{FunctionCall: &genai.FunctionCall{ID: call.ID, Name: call.Name, Args: args}})
		}
		return c, nil
	}
	return nil, fmt.Errorf("gemini: message %d has role %q, want user or assistant", i, m.Role)
}

// callName is the name of the tool call id among msgs, the latest first;
// the id itself when no call has it.
func callName(msgs []recovery.Message, id string) string {
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, c := range msgs[i].ToolCalls {
			if c.ID == id {
				return c.Name
			}
		}
	}
	return id
}

// response maps an answer onto the engine's: the first candidate's text
// (thoughts left out) and function calls, usage from usageMetadata.
func response(r *genai.GenerateContentResponse, httpResp *http.Response) *recovery.Response {
	var acc answer
	acc.add(r)
	return acc.response(httpResp)
}

// answer gathers one answer, whole or from a stream's frames.
type answer struct {
	id, model     string
	text          strings.Builder
	calls         []recovery.ToolCall
	finish        genai.FinishReason
	blocked       bool
	input, output int
}

// add takes in one GenerateContentResponse (a stream's frame or the whole
// answer).
func (a *answer) add(r *genai.GenerateContentResponse) {
	if r == nil {
		return
	}
	if r.ResponseID != "" {
		a.id = r.ResponseID
	}
	if r.ModelVersion != "" {
		a.model = r.ModelVersion
	}
	if u := r.UsageMetadata; u != nil {
		a.input = int(u.PromptTokenCount)
		a.output = int(u.CandidatesTokenCount) + int(u.ThoughtsTokenCount)
	}
	if r.PromptFeedback != nil && r.PromptFeedback.BlockReason != "" {
		a.blocked = true
	}
	if len(r.Candidates) == 0 || r.Candidates[0] == nil {
		return
	}
	c := r.Candidates[0]
	if c.FinishReason != "" {
		a.finish = c.FinishReason
	}
	if c.Content == nil {
		return
	}
	for _, part := range c.Content.Parts {
		switch {
		case part == nil || part.Thought:
		case part.FunctionCall != nil:
			fc := part.FunctionCall
			args, _ := json.Marshal(fc.Args)
			if fc.Args == nil {
				args = []byte("{}")
			}
			id := fc.ID
			if id == "" {
				id = fc.Name
			}
			a.calls = append(a.calls, recovery.ToolCall{ID: id, Name: fc.Name, Input: args})
		default:
			a.text.WriteString(part.Text)
		}
	}
}

func (a *answer) response(httpResp *http.Response) *recovery.Response {
	resp := &recovery.Response{
		ID:           a.id,
		Model:        a.model,
		Text:         a.text.String(),
		ToolCalls:    a.calls,
		StopReason:   stopReason(a.finish, len(a.calls) > 0, a.blocked),
		InputTokens:  a.input,
		OutputTokens: a.output,
	}
	if httpResp != nil {
		resp.Header = httpResp.Header
	}
	return resp
}

// stopReason words Gemini's finishReason as recovery.DefaultClassifier
// reads stop reasons: STOP is end_turn (tool_use when the answer calls
// tools), MAX_TOKENS max_tokens, a safety stop or a blocked prompt
// refusal; any other reason comes through as Gemini words it.
func stopReason(f genai.FinishReason, calls, blocked bool) string {
	switch {
	case blocked:
		return "refusal"
	case calls && (f == genai.FinishReasonStop || f == ""):
		return "tool_use"
	}
	switch f {
	case genai.FinishReasonStop, "":
		return "end_turn"
	case genai.FinishReasonMaxTokens:
		return "max_tokens"
	case genai.FinishReasonSafety, genai.FinishReasonRecitation, genai.FinishReasonBlocklist,
		genai.FinishReasonProhibitedContent, genai.FinishReasonSPII, genai.FinishReasonImageSafety:
		return "refusal"
	}
	return string(f)
}
