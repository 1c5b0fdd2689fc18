package recovery

import (
	"regexp"
	"strconv"
	"strings"
)

// overflowNum matches a token count, thousands separators allowed: 200000, 200,000.
const overflowNum = `(\d[\d,]*)`

// The wordings of context-overflow errors that carry numbers (docs/classification.md).
var (
	// Anthropic, input alone over: "prompt is too long: 210000 tokens > 200000 maximum".
	anthropicPromptTooLong = regexp.MustCompile(`(?i)prompt is too long:\s*` + overflowNum + `\s*tokens\s*>\s*` + overflowNum + `\s*maximum`)
	// Anthropic, input plus max_tokens over: "input length and `max_tokens`
	// exceed context limit: 190000 + 16000 > 200000, ...".
	anthropicExceedLimit = regexp.MustCompile(`(?i)exceed context limit:\s*` + overflowNum + `\s*\+\s*` + overflowNum + `\s*>\s*` + overflowNum)
	// OpenAI (and the servers that copy it, vLLM among them): "This model's
	// maximum context length is 128000 tokens."
	openAIWindow = regexp.MustCompile(`(?i)maximum context length is\s*` + overflowNum + `\s*tokens`)
	// Gemini: "The input token count (1048577) exceeds the maximum number
	// of tokens allowed (1048576)."
	geminiInputCount = regexp.MustCompile(`(?i)input token count\s*\(` + overflowNum + `\)\s*exceeds the maximum number of tokens allowed\s*\(` + overflowNum + `\)`)
	// "However, your messages resulted in 130000 tokens."
	openAIResulted = regexp.MustCompile(`(?i)resulted in\s*` + overflowNum + `\s*tokens`)
	// "However, you requested 140000 tokens (130000 in the messages, 10000 in
	// the completion)", with an optional "N in the functions, and" between,
	// and the older "(130000 in your prompt; 10000 for the completion)".
	openAIRequested = regexp.MustCompile(`(?i)\(\s*` + overflowNum + `\s*in (?:the|your) (?:messages|prompt)\s*[,;]\s*(?:` +
		overflowNum + `\s*in the functions\s*[,;]\s*)?(?:and\s+)?` + overflowNum + `\s*(?:in|for) the completion\s*\)`)
)

// The wordings of a max_tokens above the model's output limit.
var (
	// Anthropic: "max_tokens: 128000 > 64000, which is the maximum allowed
	// number of output tokens for claude-…".
	anthropicOutputLimit = regexp.MustCompile(`(?i)max_tokens:\s*` + overflowNum + `\s*>\s*` + overflowNum + `,\s*which is the maximum allowed number of output tokens`)
	// OpenAI: "max_tokens is too large: 128000. This model supports at
	// most 16384 completion tokens, whereas you provided 128000."
	openAIOutputLimit = regexp.MustCompile(`(?i)supports at most\s*` + overflowNum + `\s*completion tokens`)
)

// ParseOutputLimit reads the model's output limit out of a 400 that
// refused max_tokens for being above it, in the wordings of the Anthropic
// Messages API and OpenAI Chat Completions. It reports false for any other
// message.
func ParseOutputLimit(msg string) (int, bool) {
	if m := anthropicOutputLimit.FindStringSubmatch(msg); m != nil {
		if n := tokenCount(m[2]); n > 0 {
			return n, true
		}
	}
	if m := openAIOutputLimit.FindStringSubmatch(msg); m != nil {
		if n := tokenCount(m[1]); n > 0 {
			return n, true
		}
	}
	return 0, false
}

// ParseOverflow reads the numbers out of a context-overflow error message,
// in the wordings of the Anthropic Messages API, of OpenAI Chat
// Completions and of the Gemini API (docs/classification.md). It reports false when msg carries none of them;
// a message can still be about a context overflow without numbers, which
// DefaultClassifier recognises by its wording.
func ParseOverflow(msg string) (Overflow, bool) {
	if m := anthropicPromptTooLong.FindStringSubmatch(msg); m != nil {
		return Overflow{Input: tokenCount(m[1]), Window: tokenCount(m[2])}, true
	}
	if m := anthropicExceedLimit.FindStringSubmatch(msg); m != nil {
		return Overflow{Input: tokenCount(m[1]), MaxTokens: tokenCount(m[2]), Window: tokenCount(m[3])}, true
	}
	if m := geminiInputCount.FindStringSubmatch(msg); m != nil {
		return Overflow{Input: tokenCount(m[1]), Window: tokenCount(m[2])}, true
	}
	var o Overflow
	found := false
	if m := openAIWindow.FindStringSubmatch(msg); m != nil {
		o.Window, found = tokenCount(m[1]), true
	}
	if m := openAIRequested.FindStringSubmatch(msg); m != nil {
		// Function definitions are input too.
		o.Input, o.MaxTokens, found = tokenCount(m[1])+tokenCount(m[2]), tokenCount(m[3]), true
	} else if m := openAIResulted.FindStringSubmatch(msg); m != nil {
		o.Input, found = tokenCount(m[1]), true
	}
	return o, found
}

// tokenCount parses a count with optional thousands separators; "" is 0.
func tokenCount(s string) int {
	n, err := strconv.Atoi(strings.ReplaceAll(s, ",", ""))
	if err != nil {
		return 0
	}
	return n
}
