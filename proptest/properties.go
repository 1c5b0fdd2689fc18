package proptest

import (
	"slices"

	"pgregory.net/rapid"

	"github.com/faultbench/faultbench/ledger"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/loopguard"
)

// LedgerEqualsJournal: every strategy ends every generated script, and
// what it recorded equals the mock's journal, attempt for attempt and in
// its totals (Run reconciles each figure with what the mock saw, never
// with the record's own log), and its totals add up its log.
func LedgerEqualsJournal(strategies ...recovery.Strategy) func(*rapid.T) {
	return func(t *rapid.T) {
		rep := Run(t, Scenario().Draw(t, "scenario"), strategies...)
		if len(rep.Results) != len(strategies) {
			t.Fatalf("%d results for %d strategies", len(rep.Results), len(strategies))
		}
		for _, r := range rep.Results {
			if r.Attempts != len(r.AttemptsLog) || r.RepairCalls != len(r.RepairLog) {
				t.Fatalf("%s: totals disagree with the log", r.Strategy)
			}
			sum := 0
			for _, a := range r.AttemptsLog {
				sum += a.InputTokens
			}
			if sum != r.SubmittedInputTokens {
				t.Fatalf("%s: submitted %d, log adds to %d", r.Strategy, r.SubmittedInputTokens, sum)
			}
		}
	}
}

// Every property holds for each strategy handed to it or fails: none
// leaves out a strategy whose settings break it. A failure names the
// setting that explains it, as a strategy file writes it (settingOf), or
// says that no setting does, which is an engine bug.

// NeverResendsAfterPermanentError: a strategy sends nothing after
// invalid_request, permission or quota_exhausted, except to another model
// when it falls back on that kind. It fails for the naive loop (classify:
// false), for a strategy whose retry list names the kind (s11, the SDKs and
// Claude Code retry a quota 429, as their sources do) and for one that lets
// x-should-retry: true resend a permanent failure (should_retry_permanent).
func NeverResendsAfterPermanentError(strategies ...recovery.Strategy) func(*rapid.T) {
	permanent := map[string]bool{"invalid_request": true, "permission": true, "quota_exhausted": true}
	named := byName(strategies)
	return func(t *rapid.T) {
		rep := Run(t, Scenario().Draw(t, "scenario"), strategies...)
		for _, r := range rep.Results {
			s := named[r.Strategy]
			for i, a := range r.AttemptsLog[:max(len(r.AttemptsLog)-1, 0)] {
				if !permanent[a.Kind] {
					continue
				}
				k, next := recovery.Kind(a.Kind), r.AttemptsLog[i+1]
				if s.Classify && slices.Contains(s.FallbackOn, k) && next.Model != a.Model {
					continue
				}
				t.Fatalf("%s: attempt %d was %s, yet attempt %d followed on %s: %s", r.Strategy, a.N, a.Kind, next.N, next.Model,
					settingOf(s, notClassify, retryLists(k), roundsList(k), shouldRetryPermanent))
			}
		}
	}
}

// NoSleepAfterFinalAttempt: every wait comes before an attempt, none after
// the last. It fails for the naive loop with sleep_after_final: true.
func NoSleepAfterFinalAttempt(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		rep := Run(t, Scenario().Draw(t, "scenario"), strategies...)
		for _, r := range rep.Results {
			var before int64
			for _, a := range r.AttemptsLog {
				before += a.WaitBeforeMS
			}
			for _, a := range r.RepairLog {
				before += a.WaitBeforeMS
			}
			if r.WaitMS != before {
				t.Fatalf("%s waited %d ms in all but only %d ms before attempts: a wait came after the last one: %s", r.Strategy, r.WaitMS, before,
					settingOf(named[r.Strategy], sleepAfterFinal))
			}
		}
	}
}

// WaitsWithinBounds: every wait is a backoff step (within its jitter) or a
// server-requested wait, never above the strategy's cap, and the total is
// within the wait budget. A wait for a rate-limit reset must end when the
// reset header said (or be the cap): a strategy that honours the reset
// headers is allowed that wait, not any wait up to it.
func WaitsWithinBounds(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		rep := Run(t, Scenario().Draw(t, "scenario"), strategies...)
		for _, r := range rep.Results {
			s := named[r.Strategy]
			allowed := func(ms int64) bool {
				if ms == 0 {
					return true
				}
				for i := range max(s.Attempts, 5) + 1 {
					lo, hi := s.Backoff.Bounds(i)
					if ms >= lo.Milliseconds()-1 && ms <= hi.Milliseconds()+1 {
						return true
					}
				}
				for i := range s.Rounds {
					lo, hi := s.RoundBackoff.Bounds(i)
					if s.Classify && ms >= lo.Milliseconds()-1 && ms <= hi.Milliseconds()+1 {
						return true
					}
				}
				if !s.Classify {
					return false
				}
				for _, w := range ServerWaits() {
					if c := s.RetryAfterCap; c > 0 {
						w = min(w, c)
					}
					if s.HonorRetryAfter && ms == w.Milliseconds() {
						return true
					}
					// retry_after.jitter adds 0 to that share of it.
					if j := s.ServerWaitJitter; s.HonorRetryAfter && j > 0 && ms >= w.Milliseconds() &&
						ms <= w.Milliseconds()+int64(float64(w.Milliseconds())*min(j, 1))+1 {
						return true
					}
				}
				return false
			}
			// untilReset: the wait ended at the instant the reset fault
			// names, or was that wait cut to the cap.
			untilReset := func(a ledger.Attempt) bool {
				if !s.Classify || !s.HonorRateLimitReset {
					return false
				}
				if c := s.RetryAfterCap; c > 0 && a.WaitBeforeMS == c.Milliseconds() && a.AtMS <= rateLimitReset.Milliseconds()+1 {
					return true
				}
				d := a.AtMS - rateLimitReset.Milliseconds()
				return d >= -1 && d <= 1
			}
			var total int64
			for _, a := range r.AttemptsLog {
				total += a.WaitBeforeMS
				if !allowed(a.WaitBeforeMS) && !untilReset(a) {
					t.Fatalf("%s attempt %d waited %d ms: neither a backoff step nor a server-requested wait", r.Strategy, a.N, a.WaitBeforeMS)
				}
				if c := s.RetryAfterCap; s.Classify && c > 0 {
					_, hi := s.Backoff.Bounds(s.Attempts)
					if a.WaitBeforeMS > max(c, hi).Milliseconds() {
						t.Fatalf("%s attempt %d waited %d ms, above the %v cap", r.Strategy, a.N, a.WaitBeforeMS, c)
					}
				}
			}
			if b := s.WaitBudget; b > 0 && total > b.Milliseconds() {
				t.Fatalf("%s waited %d ms in all, above its %v budget", r.Strategy, total, b)
			}
		}
	}
}

// ShouldRetryFalseNeverResent: after an answer with x-should-retry: false
// (of the generated faults, every 503 and no other status), a
// strategy never resends the same request unchanged. It fails for one that
// does not read the header (should_retry: ignore) and for the naive loop.
func ShouldRetryFalseNeverResent(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		sc := Scenario().Draw(t, "scenario")
		rep := Run(t, sc, strategies...)
		for _, r := range rep.Results {
			for i, a := range r.AttemptsLog[:max(len(r.AttemptsLog)-1, 0)] {
				if !saidShouldRetry(a, "false") {
					continue
				}
				next := r.AttemptsLog[i+1]
				if next.Model == a.Model && next.MaxTokens == a.MaxTokens && next.InputTokens == a.InputTokens {
					t.Fatalf("%s: attempt %d said x-should-retry: false, and attempt %d resent it unchanged: %s", r.Strategy, a.N, next.N,
						settingOf(named[r.Strategy], notClassify, ignoresShouldRetry))
				}
			}
		}
	}
}

// AuthRefreshAtMostOnce: a 401 is retried on the same model at most once
// per turn, and only where there is a refresh to make. It fails for the
// naive loop, which resends a 401 as it resends anything.
func AuthRefreshAtMostOnce(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		sc := Scenario().Draw(t, "scenario")
		rep := Run(t, sc, strategies...)
		for _, r := range rep.Results {
			refreshes := 0
			for i, a := range r.AttemptsLog[:max(len(r.AttemptsLog)-1, 0)] {
				if a.Status == 401 && r.AttemptsLog[i+1].Model == a.Model {
					refreshes++
				}
			}
			s := named[r.Strategy]
			if refreshes > 1 {
				t.Fatalf("%s resent a 401 %d times in one turn: %s", r.Strategy, refreshes,
					settingOf(s, notClassify, authWithinAttempts, retryLists(recovery.KindAuth), roundsList(recovery.KindAuth)))
			}
			if refreshes == 1 && (!sc.Turn.AuthRefresh || !s.RefreshAuth) {
				t.Fatalf("%s retried a 401 with no refresh to make: %s", r.Strategy,
					settingOf(s, notClassify, authWithinAttempts, retryLists(recovery.KindAuth), roundsList(recovery.KindAuth)))
			}
		}
	}
}

// BackgroundNeverRetriesOverload: a background request is given up on its
// first overload. It fails for a strategy that does not shed background
// load (shed_background: false) and for the naive loop.
func BackgroundNeverRetriesOverload(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		sc := Scenario().Draw(t, "scenario")
		if !sc.Turn.Background {
			return
		}
		rep := Run(t, sc, strategies...)
		for _, r := range rep.Results {
			for i, a := range r.AttemptsLog {
				if a.Kind == "overloaded" && i != len(r.AttemptsLog)-1 {
					t.Fatalf("%s: background attempt %d was overloaded, yet %d more followed: %s", r.Strategy, a.N, len(r.AttemptsLog)-1-i,
						settingOf(named[r.Strategy], notClassify, noShed))
				}
			}
		}
	}
}

// NoAttemptExceedsWindowAfterOverflow: once an overflow was seen, every
// attempt's input + max_tokens fits the model's window. It fails for a
// strategy that neither adjusts nor compacts, and for the naive loop.
func NoAttemptExceedsWindowAfterOverflow(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		sc := Scenario().Draw(t, "scenario")
		rep := Run(t, sc, strategies...)
		for _, r := range rep.Results {
			seen := false
			for _, a := range r.AttemptsLog {
				if w := sc.Models[a.Model].ContextWindow; seen && a.InputTokens+a.MaxTokens > w {
					t.Fatalf("%s attempt %d: %d + %d > window %d after an overflow was seen: %s", r.Strategy, a.N, a.InputTokens, a.MaxTokens, w,
						settingOf(named[r.Strategy], notClassify, noRepair))
				}
				if a.Kind == string(recovery.KindContextOverflow) {
					seen = true
				}
			}
		}
	}
}

// MaxTokensWithinOutputLimit: no request asks more max_tokens than the
// model can give. It fails for an escalation bounded by its ceiling alone
// (s11's escalation.unclamped: true).
func MaxTokensWithinOutputLimit(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		sc := Scenario().Draw(t, "scenario")
		rep := Run(t, sc, strategies...)
		for _, r := range rep.Results {
			for _, a := range append(append([]ledger.Attempt(nil), r.AttemptsLog...), r.RepairLog...) {
				if limit := sc.Models[a.Model].MaxOutput; a.MaxTokens > limit {
					t.Fatalf("%s %s %d asked %d max_tokens of %s, whose limit is %d: %s", r.Strategy, a.Purpose, a.N, a.MaxTokens, a.Model, limit,
						settingOf(named[r.Strategy], escalationUnclamped))
				}
			}
		}
	}
}

// StuckLoopEndsWithinStepCap: every generated tool script ends within the
// strategy's step cap; only a strategy with a guard warns or breaks; a
// turn stopped by the cap took exactly the cap's steps; an aborted turn
// names what stopped it.
func StuckLoopEndsWithinStepCap(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		rep := Run(t, ToolScenario().Draw(t, "scenario"), strategies...)
		for _, r := range rep.Results {
			s := named[r.Strategy]
			limit := s.StepCap
			if limit <= 0 {
				limit = recovery.DefaultStepCap
			}
			switch {
			case r.Steps < 1 || r.Steps > limit:
				t.Fatalf("%s: %d steps, cap %d", r.Strategy, r.Steps, limit)
			case r.LoopDetector == recovery.DetectorStepCap && r.Steps != limit:
				t.Fatalf("%s: stopped by the cap at %d steps, cap %d", r.Strategy, r.Steps, limit)
			case !s.Guard && (r.LoopWarnings > 0 || (r.LoopDetector != "" && r.LoopDetector != recovery.DetectorStepCap)):
				t.Fatalf("%s: no guard, yet %d warnings and detector %q", r.Strategy, r.LoopWarnings, r.LoopDetector)
			case (r.Outcome == ledger.OutcomeAborted) != (r.LoopDetector != ""):
				t.Fatalf("%s: outcome %s, detector %q", r.Strategy, r.Outcome, r.LoopDetector)
			}
		}
	}
}

// LoopGuardWarnsFirst: a turn the loop guard broke had been warned first,
// so the model was told it was repeating itself before it was stopped. It
// fails for a detector whose break threshold equals its warn threshold,
// which breaks at once (classify's no_progress, as the layered agent demo
// does).
func LoopGuardWarnsFirst(strategies ...recovery.Strategy) func(*rapid.T) {
	named := byName(strategies)
	return func(t *rapid.T) {
		rep := Run(t, ToolScenario().Draw(t, "scenario"), strategies...)
		for _, r := range rep.Results {
			if r.LoopDetector == "" || r.LoopDetector == recovery.DetectorStepCap || r.LoopWarnings > 0 {
				continue
			}
			t.Fatalf("%s: %s broke the turn with no warning first: %s", r.Strategy, r.LoopDetector,
				settingOf(named[r.Strategy], breaksAtOnce(loopguard.Detector(r.LoopDetector))))
		}
	}
}
