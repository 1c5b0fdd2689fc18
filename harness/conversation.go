package harness

import (
	"github.com/faultbench/faultbench/internal/tokens"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/scenario"
)

// Conversation synthesises the turn a scenario declares: a system prompt of
// system_tokens, then each message group's count messages sharing its
// tokens (the remainder going to the first ones), roles alternating so
// that the last message is the user's. Under the token rule the request
// counts exactly the declared sizes.
func Conversation(t scenario.Turn) recovery.Request {
	total := 0
	for _, g := range t.Messages {
		total += g.Count
	}
	msgs := make([]recovery.Message, 0, total)
	texts := map[int]string{} // messages of one size share their text
	for _, g := range t.Messages {
		if g.Count <= 0 {
			continue
		}
		per, extra := g.Tokens/g.Count, g.Tokens%g.Count
		for i := range g.Count {
			n := per
			if i < extra {
				n++
			}
			text, ok := texts[n]
			if !ok {
				text = tokens.Text(n)
				texts[n] = text
			}
			role := "user"
			if (total-len(msgs))%2 == 0 {
				role = "assistant"
			}
			msgs = append(msgs, recovery.Message{Role: role, Text: text})
		}
	}
	return recovery.Request{
		Model:     t.Model,
		MaxTokens: t.MaxTokens,
		System:    tokens.Text(t.SystemTokens),
		Messages:  msgs,
		Purpose:   recovery.PurposeTurn,
	}
}

// Limits turns a scenario's models into the limits the engine plans with.
func Limits(sc *scenario.Scenario) map[string]recovery.Limits {
	l := make(map[string]recovery.Limits, len(sc.Models))
	for name, m := range sc.Models {
		l[name] = recovery.Limits{ContextWindow: m.ContextWindow, MaxOutput: m.MaxOutput}
	}
	return l
}
