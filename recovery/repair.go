package recovery

import (
	"context"
	"fmt"
	"sort"
)

// limits returns what the engine knows of the current model: its declared
// limits, with the window narrowed to what an overflow taught it.
func (t *turn) limits() Limits {
	l := t.e.limits[t.req.Model]
	if w := t.windows[t.req.Model]; w > 0 && (l.ContextWindow == 0 || w < l.ContextWindow) {
		l.ContextWindow = w
	}
	return l
}

// learnWindow narrows the current model's known window to w.
func (t *turn) learnWindow(w int) {
	if w <= 0 {
		return
	}
	if t.windows == nil {
		t.windows = map[string]int{}
	}
	if old := t.windows[t.req.Model]; old == 0 || w < old {
		t.windows[t.req.Model] = w
	}
}

// fit lowers max_tokens so that input + max_tokens fits the known window,
// as long as that leaves at least the adjustment floor. It runs after every
// change of the request once an overflow has been seen.
func (t *turn) fit() {
	w := t.limits().ContextWindow
	if !t.overflowSeen || w == 0 {
		return
	}
	input := t.e.count(t.req)
	if room := w - input; room >= t.s.Adjust.Floor && t.req.MaxTokens > room {
		from := t.req.MaxTokens
		t.req.MaxTokens = room
		t.res.Adjustments++
		t.e.observe(Event{Type: EventAdjust, Time: t.e.clock.Now(), Attempt: t.res.Attempts, FromTokens: from, ToTokens: room,
			Reason: "max_tokens lowered to fit the window after the request changed"})
	}
}

// doomed reports a planned request that cannot fit the known window — once
// an overflow has been seen, or always with Preflight: it is handled as the
// overflow it would cause, without sending it.
func (t *turn) doomed() (Failure, bool) {
	w := t.limits().ContextWindow
	if (!t.overflowSeen && !t.s.Preflight) || w == 0 {
		return Failure{}, false
	}
	input := t.e.count(t.req)
	if input+t.req.MaxTokens <= w {
		return Failure{}, false
	}
	return Failure{
		Kind:     KindContextOverflow,
		Overflow: Overflow{Input: input, MaxTokens: t.req.MaxTokens, Window: w},
		Err:      fmt.Errorf("recovery: planned request does not fit the window: %d + %d > %d", input, t.req.MaxTokens, w),
	}, true
}

// preflightOutput lowers a max_tokens above the model's output limit to
// the limit before the request is sent (Preflight).
func (t *turn) preflightOutput() {
	l := t.limits()
	if l.MaxOutput <= 0 || t.req.MaxTokens <= l.MaxOutput {
		return
	}
	from := t.req.MaxTokens
	t.req.MaxTokens = l.MaxOutput
	t.res.Adjustments++
	t.e.observe(Event{Type: EventAdjust, Time: t.e.clock.Now(), Attempt: t.res.Attempts, FromTokens: from, ToTokens: l.MaxOutput,
		Reason: "preflight: max_tokens above the model's output limit"})
}

// tooLargeAsOverflow reports a 413 request_too_large that the strategy
// takes for a context overflow: the request is at least Compaction.TooLargeAsOverflow
// of the known window (Kimi Code's OVERFLOW_STATUS_RECOVERY_RATIO).
func (t *turn) tooLargeAsOverflow(f Failure) bool {
	r := t.s.Compaction.TooLargeAsOverflow
	if f.Kind != KindRequestTooLarge || r <= 0 {
		return false
	}
	w := t.limits().ContextWindow
	return w > 0 && float64(t.e.count(t.req)) >= r*float64(w)
}

// escalate raises max_tokens after a truncated answer: ×factor, bounded by
// the model's output limit and by the window less the input. It reports
// false when the budget cannot grow.
func (t *turn) escalate(resp *Response) bool {
	f := t.s.Escalation.Factor
	if f <= 1 || t.res.Escalations >= t.s.Escalation.Max {
		return false
	}
	from := t.req.MaxTokens
	to := int(float64(from) * f)
	if c := t.s.Escalation.Ceiling; c > 0 && to > c {
		return false
	}
	l := t.limits()
	if t.s.Escalation.Unclamped {
		l = Limits{}
	}
	if l.MaxOutput > 0 && to > l.MaxOutput {
		to = l.MaxOutput
	}
	if l.ContextWindow > 0 {
		input := resp.InputTokens
		if input == 0 {
			input = t.e.count(t.req)
		}
		if room := l.ContextWindow - input; to > room {
			to = room
		}
	}
	if to <= from {
		return false
	}
	t.req.MaxTokens = to
	t.res.Escalations++
	if t.s.Escalation.WithinStep {
		t.escalatedFrom = from
	} else {
		t.newStep()
	}
	t.e.observe(Event{Type: EventEscalate, Time: t.e.clock.Now(), Attempt: t.res.Attempts, FromTokens: from, ToTokens: to})
	return true
}

// recoverOverflow handles a context overflow: never wait; learn the
// window; lower max_tokens when the input alone fits, else compact; give up
// past the compaction limit.
func (t *turn) recoverOverflow(ctx context.Context, f Failure) (bool, *Result, error) {
	t.overflowSeen = true
	o := f.Overflow
	input := o.Input
	if input == 0 {
		input = t.e.count(t.req)
	}
	switch declared := t.limits().ContextWindow; {
	case t.s.Compaction.LearnFromEstimate:
		t.learnWindow(int(t.s.Compaction.LearnedWindowRatio * float64(t.e.count(t.req))))
	case o.Window > 0:
		t.learnWindow(o.Window)
	case declared == 0 || input+t.req.MaxTokens <= declared:
		// The message gives no window and what is known cannot explain
		// the overflow: take the window to be a share of the input
		// counted (Kimi Code's 0.85), so the next request is planned to
		// fit under it.
		t.learnWindow(int(t.s.Compaction.LearnedWindowRatio * float64(input)))
	}
	window := t.limits().ContextWindow
	if t.s.Adjust.Enabled && window > 0 && input < window {
		room := window - input - t.s.Adjust.Buffer
		if room >= t.s.Adjust.Floor && room < t.req.MaxTokens {
			if t.s.Adjust.WithinStep && t.step >= t.s.Attempts {
				res, err := t.stop(f, StopAttempts, fmt.Sprintf("%d attempts exhausted before the adjustment", t.step))
				return false, res, err
			}
			from := t.req.MaxTokens
			t.req.MaxTokens = room
			t.res.Adjustments++
			if !t.s.Adjust.WithinStep {
				t.newStep()
			}
			t.e.observe(Event{Type: EventAdjust, Time: t.e.clock.Now(), Attempt: t.res.Attempts, FromTokens: from, ToTokens: room,
				Reason: "input + max_tokens over the window"})
			return true, nil, nil
		}
	}
	if !t.s.Compaction.Enabled {
		res, err := t.stop(f, StopNotRetryable, "context overflow and compaction is off")
		return false, res, err
	}
	if t.res.Compactions >= t.s.Compaction.Max {
		res, err := t.stop(f, StopCompactionLimit, fmt.Sprintf("context still overflows after %d compactions", t.res.Compactions))
		return false, res, err
	}
	if err := t.compact(ctx); err != nil {
		res, gerr := t.stop(Failure{Kind: f.Kind, Err: fmt.Errorf("compaction: %w", err), Overflow: o}, StopCompactionFailed, "compaction failed")
		return false, res, gerr
	}
	return true, nil, nil
}

// summaryPrompt asks the model for the summary that replaces older messages.
const summaryPrompt = "Summarise the conversation above so that the work can continue from the summary alone: the task, the decisions made, the state of the work and what remains to do."

// summaryPrefix introduces the summary in the compacted conversation.
const summaryPrefix = "Summary of the earlier conversation:\n"

// compact replaces all but the Compaction.KeepRecent most recent messages with a
// summary obtained through one repair call.
func (t *turn) compact(ctx context.Context) error {
	keep := t.s.Compaction.KeepRecent
	msgs := t.req.Messages
	if len(msgs) <= keep {
		return fmt.Errorf("only %d messages, all kept: nothing to summarise", len(msgs))
	}
	old, recent := msgs[:len(msgs)-keep], msgs[len(msgs)-keep:]
	repair := Request{
		Model:     t.req.Model,
		MaxTokens: t.s.Compaction.SummaryMaxTokens,
		System:    t.req.System,
		Messages:  append(append([]Message(nil), old...), Message{Role: "user", Text: summaryPrompt}),
		Purpose:   PurposeRepair,
	}
	l := t.limits()
	if l.MaxOutput > 0 && repair.MaxTokens > l.MaxOutput {
		repair.MaxTokens = l.MaxOutput
	}
	// The summarisation must fit the window itself: drop the fewest
	// oldest messages with which it does, keeping at least the prompt
	// (they are lost, as in Claude Code's head truncation). A count only
	// falls as messages are dropped, so a binary search finds them with
	// log2(n) counts; dropping one at a time and counting again cost the
	// square of the messages (100,000 of them took seconds).
	if l.ContextWindow > 0 {
		all := repair.Messages
		fits := func(drop int) bool {
			repair.Messages = all[drop:]
			return t.e.count(repair)+repair.MaxTokens <= l.ContextWindow
		}
		drop := sort.Search(len(all)-1, fits)
		repair.Messages = all[drop:]
	}
	before := t.e.count(t.req)
	saved := t.req
	t.req = repair
	resp, f := t.send(ctx, EventRepair)
	t.req = saved
	t.res.RepairCalls++
	// A summary cut at its max_tokens still shrinks the context: use it.
	if f.Kind != KindOK && f.Kind != KindTruncated {
		if f.Err != nil {
			return f.Err
		}
		return fmt.Errorf("summary came back %s", f.Kind)
	}
	t.req.Messages = append([]Message{{Role: "user", Text: summaryPrefix + resp.Text}}, recent...)
	t.res.Compactions++
	t.newStep()
	t.fit()
	t.e.observe(Event{Type: EventCompact, Time: t.e.clock.Now(), Attempt: t.res.Attempts, FromTokens: before, ToTokens: t.e.count(t.req)})
	return nil
}
