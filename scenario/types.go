package scenario

import "time"

// Scenario is one scenario file: the turn to attempt, the models the mock
// serves, and the script it follows (docs/scenario-format.md).
type Scenario struct {
	Name        string            `yaml:"name"`
	Description string            `yaml:"description"`
	Models      map[string]Model  `yaml:"models"`
	Turn        Turn              `yaml:"turn"`
	Compaction  Compaction        `yaml:"compaction"`
	Script      []Rule            `yaml:"script"`
	Expect      map[string]Expect `yaml:"expect"`
	// Aliases maps a model name a client sends to a model of Models, so that
	// a client can keep its real model name ("claude-sonnet-4-5: primary").
	// The key AnyModel matches every name neither Models nor another alias
	// has. The mock's script and limits see the model aliased to; its
	// journal, the name the client sent. Empty: no aliases.
	Aliases map[string]string `yaml:"aliases"`
	// Tools makes the turn an agent turn: the harness runs the agent loop
	// (send, run the tools the answer asks for, send the results back)
	// until the model ends its turn, a loop guard breaks it or the step
	// cap stops it. Each tool's results are fixed by the file.
	Tools []Tool `yaml:"tools"`
	// Workload runs the turn as a fleet (workload.go).
	Workload Workload `yaml:"workload"`
	// Grade names the checks of `faultbench grade` that judge a client's
	// journal in this scenario (GradeChecks; docs/grade.md). Empty: the
	// scenario grades none; `run` ignores it.
	Grade []string `yaml:"grade"`

	// Path is the file the scenario was loaded from ("" when built in code).
	Path string `yaml:"-"`
}

// AnyModel, as a key of Scenario.Aliases, matches every model name that is
// neither served nor aliased by name.
const AnyModel = "any"

// Model is a model the mock serves and the limits it enforces: its window
// and output budget, and (quota.go) its per-minute quotas, the answers it
// can have in flight and how long an answer takes.
type Model struct {
	ContextWindow int        `yaml:"context_window"`
	MaxOutput     int        `yaml:"max_output"`
	Limits        RateLimits `yaml:"limits"`
	Capacity      Capacity   `yaml:"capacity"`
	Speed         Speed      `yaml:"speed"`
	// Cache is the model's prompt cache (nil: none), Price what its
	// tokens cost (nil: the reports show no dollars for it); cache.go.
	Cache *Cache `yaml:"cache"`
	Price *Price `yaml:"price"`
}

// Turn is the request to attempt, declared by size.
type Turn struct {
	Model        string         `yaml:"model"`
	Fallback     []string       `yaml:"fallback"`
	MaxTokens    int            `yaml:"max_tokens"`
	SystemTokens int            `yaml:"system_tokens"`
	Messages     []MessageGroup `yaml:"messages"`
	// AnswerTokens is how many output tokens a complete answer needs.
	AnswerTokens int `yaml:"answer_tokens"`
	// Stream makes the harness send the turn with "stream": true, so the
	// answer comes as server-sent events (and a fault can strike mid-way).
	Stream bool `yaml:"stream"`
	// Background marks the turn as one the caller can do without: a
	// strategy that sheds load drops it on the first overload.
	Background bool `yaml:"background"`
	// AuthRefresh says the caller can renew its credentials: the harness
	// gives the engine a refresh hook, which a 401 may call once.
	AuthRefresh bool `yaml:"auth_refresh"`
	// Wire is the API the harness sends the turn by: WireAnthropic (the
	// default, when empty), WireOpenAI (Chat Completions),
	// WireOpenAIResponses (the Responses API), WireGemini (the Gemini
	// API's generateContent), WireAzure (Azure OpenAI's Chat Completions
	// under a deployment), WireBedrock (Amazon Bedrock's InvokeModel for
	// an Anthropic model), WireVertex (Vertex AI's rawPredict for Anthropic
	// models) or WireOpenRouter (OpenRouter's Chat Completions).
	Wire string `yaml:"wire"`
}

// IsZero reports whether the turn says nothing: the scenario has no
// turn section.
func (t Turn) IsZero() bool {
	return t.Model == "" && len(t.Fallback) == 0 && t.MaxTokens == 0 && t.SystemTokens == 0 && len(t.Messages) == 0 &&
		t.AnswerTokens == 0 && !t.Stream && !t.Background && !t.AuthRefresh && t.Wire == ""
}

// MockOnly reports whether the scenario has no turn: a script for the
// mock alone, to serve a client of your own (faultbench serve, grade,
// mockllm/mocktest). The harness has nothing to send in it, so run and
// explore skip it; a complete answer is 1000 tokens long.
func (s *Scenario) MockOnly() bool { return s.Turn.IsZero() }

// The wires a turn can be sent by.
const (
	WireAnthropic       = "anthropic"
	WireOpenAI          = "openai"
	WireOpenAIResponses = "openai-responses"
	WireGemini          = "gemini"
	WireAzure           = "azure"
	WireBedrock         = "bedrock"
	WireVertex          = "vertex"
	WireOpenRouter      = "openrouter"
)

// MessageGroup is Count messages sharing Tokens tokens, roles alternating.
type MessageGroup struct {
	Count  int `yaml:"count"`
	Tokens int `yaml:"tokens"`
}

// Tool is a tool the agent of the turn has. Its result is deterministic:
// Error, when set, is returned as a tool_result with is_error (the tool
// failed; the loop goes on); otherwise Result. VaryResult appends the
// call's number (" (call N)", N counting this tool's calls) so that every
// result differs — a model that repeats a call then still learns
// something, and only the repeat detector can catch it.
type Tool struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	// InputSchema is the tool's JSON Schema, as JSON text; documentation
	// for now (the harness does not send tool definitions).
	InputSchema string `yaml:"input_schema"`
	Result      string `yaml:"result"`
	Error       string `yaml:"error"`
	VaryResult  bool   `yaml:"vary_result"`
}

// ToolUse is one tool call a rule answers with: the tool's name and its
// arguments as a JSON object written as text, e.g. '{"path": "a.txt"}'.
type ToolUse struct {
	Name  string `yaml:"name"`
	Input string `yaml:"input"`
}

// Compaction describes the mock's answer to a summarisation repair call.
type Compaction struct {
	SummaryTokens int `yaml:"summary_tokens"`
}

// Rule is one line of the script: the first rule whose When matches the
// request answers it with Respond. Times > 0 makes a rule run out after
// that many uses (per session).
type Rule struct {
	When    When    `yaml:"when"`
	Times   int     `yaml:"times"`
	Respond Respond `yaml:"respond"`
}

// When matches a request. Zero fields match anything.
type When struct {
	Model string `yaml:"model"`
	// Attempt is the 1-based number of the request among the session's
	// requests of the same purpose.
	Attempt int `yaml:"attempt"`
	// After and Before bound the virtual time since the session began:
	// After <= t < Before.
	After  Duration `yaml:"after"`
	Before Duration `yaml:"before"`
	// Purpose is "turn" or "repair" ("" matches both).
	Purpose string `yaml:"purpose"`
	// Contains matches a request whose last message has this text in one
	// of its text or tool_result blocks: how a scripted model "sees" a
	// loop guard's warning, which the engine adds to the user message
	// that carries the tool results.
	Contains string `yaml:"contains"`
	// Unshrunk matches a request no smaller than the last one a rule of
	// the script refused with a 400 in the session: as many input tokens
	// or more and, but on the Gemini wire (whose window holds the input
	// alone), as large a max_tokens or larger (a request without one asks
	// for the model's max_output). Before such a refusal it matches
	// nothing. It is how a script keeps refusing a context overflow the
	// client resends unchanged, as the real API does, and answers the
	// request that shrank.
	Unshrunk bool `yaml:"unshrunk"`
}

// Respond is what a rule answers: exactly one of OK, Status, Fault and
// ToolUse.
type Respond struct {
	// ToolUse answers with tool_use blocks (stop_reason tool_use; output
	// tokens are those of the calls' input JSON): every call in one
	// answer, or with Cycle one call per answer, in turn (the rule's n-th
	// use takes call (n−1) mod len) — two calls make a ping-pong. Vary
	// adds "step": n (the rule's use) to each call's input, so that an
	// honest agent's steps all differ.
	ToolUse []ToolUse `yaml:"tool_use"`
	Cycle   bool      `yaml:"cycle"`
	Vary    bool      `yaml:"vary"`

	// OK answers with a complete answer of the turn's answer_tokens (or
	// the compaction's summary_tokens for a repair call).
	OK     bool `yaml:"ok"`
	Status int  `yaml:"status"`
	// Type and Message word the error of a Status, or the error event of a
	// Fault with error_after; empty takes the real API's default.
	Type    string `yaml:"type"`
	Message string `yaml:"message"`
	// Body, with a Status, is the error's whole body, sent as written in
	// place of the wire's envelope: a provider's own shape that the
	// wire's does not hold (OpenRouter's numeric code and metadata,
	// DeepSeek's codes). A JSON object of at most MaxErrorBody bytes; the
	// journal's message is its error.message (errorbody.go).
	Body string `yaml:"body"`
	// Fault answers with a transport or stream fault: see Fault.
	Fault Fault `yaml:"fault"`
	// Headers are set on the answer over the mock's own; an empty value
	// removes one the mock sends by default (a 429's retry-after).
	Headers map[string]string `yaml:"headers"`
	// Quota and RetryDelay script the details of a Gemini error (the
	// other wires have no such details and ignore them). Quota is the
	// quota a 429 RESOURCE_EXHAUSTED's QuotaFailure names: QuotaPerMinute
	// (the default) or QuotaPerDay. RetryDelay is its RetryInfo
	// retryDelay; 0 takes the mock's wait for the status (for a
	// per-minute 429 the time its when.before window leaves, else 1 s; a
	// flat 24 h for a per-day one).
	Quota      string   `yaml:"quota"`
	RetryDelay Duration `yaml:"retry_delay"`
	// Cache: miss (CacheMiss) makes the answer miss the prompt cache, as
	// the real APIs' misses do (docs/cost.md); alone, the rule answers
	// with a complete answer.
	Cache string `yaml:"cache"`
	// EarlyRetry says what becomes of a request that comes before the
	// wait a 429, 503 or 529 of the rule asked for (retry-after,
	// retry-after-ms, the rate-limit reset headers, Gemini's RetryInfo)
	// has passed, on the same model: EarlyRetryRefused (the default,
	// when empty) answers it with the same error, asking for the wait
	// that is left, as a real limiter does, and does not use the rule;
	// EarlyRetryScripted hands it to the script like any request.
	EarlyRetry string `yaml:"early_retry"`
}

// The answers a request before a scripted wait is over can get
// (Respond.EarlyRetry).
const (
	EarlyRetryRefused  = "refused"
	EarlyRetryScripted = "scripted"
)

// The quotas a Gemini 429 can name (Respond.Quota).
const (
	QuotaPerMinute = "per_minute"
	QuotaPerDay    = "per_day"
)

// Expect is a scenario's budget for one strategy (docs/scenario-format.md). Every field is a
// comparison such as "<= 4", "< 3s" or "== 0"; a bare value means "==";
// an empty field is free.
type Expect struct {
	Outcome              string `yaml:"outcome"`
	Attempts             string `yaml:"attempts"`
	Wait                 string `yaml:"wait"`
	SubmittedInputTokens string `yaml:"submitted_input_tokens"`
	RepairInputTokens    string `yaml:"repair_input_tokens"`
	RepairCalls          string `yaml:"repair_calls"`
	Fallbacks            string `yaml:"fallbacks"`
	Escalations          string `yaml:"escalations"`
	Compactions          string `yaml:"compactions"`
	Steps                string `yaml:"steps"`
	// Makespan, P99 and WastedInputTokens limit a workload's figures
	// (docs/reports.md): the virtual time from the first turn's start to
	// the last turn's end, the 99th percentile of a turn's time, and the
	// input submitted by attempts that failed. They are refused on a
	// scenario without a workload. Attempts, for a workload, is the total
	// of its turns.
	Makespan          string `yaml:"makespan"`
	P99               string `yaml:"p99"`
	WastedInputTokens string `yaml:"wasted_input_tokens"`
	// BilledUSD limits the dollars billed and CacheHitRatio the share of
	// the billed input read from the prompt cache (0 to 1); both need a
	// scenario whose models have prices (docs/cost.md). CacheReadTokens
	// and CacheWriteTokens limit the cache's tokens.
	BilledUSD        string `yaml:"billed_usd"`
	CacheHitRatio    string `yaml:"cache_hit_ratio"`
	CacheReadTokens  string `yaml:"cache_read_tokens"`
	CacheWriteTokens string `yaml:"cache_write_tokens"`
}

// Duration is a time.Duration written as "30s", "1m30s" or "500ms" in YAML.
type Duration time.Duration

// D returns d as a time.Duration.
func (d Duration) D() time.Duration { return time.Duration(d) }
