// Package tokens holds faultbench's one token-counting rule, shared by the
// mock server (which counts what a client submits) and the harness (which
// synthesises the declared conversation and cross-checks the journal).
//
// The rule: every text a request carries — the system prompt, each text
// block, each tool input and tool result — counts ceil(len(bytes)/4) tokens,
// and the request's input tokens are the sum over those texts. There is no
// per-message overhead, so declared sizes are exact: a turn declared as
// 6,000 system tokens plus messages of 98,000 tokens counts 104,000. Four
// bytes a token is the rough estimate Claude Code itself uses for English
// text; it is no real tokenizer, and faultbench never claims it is.
package tokens
