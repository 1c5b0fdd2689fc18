package grade

import (
	"fmt"
	"slices"
	"time"

	"github.com/faultbench/faultbench/mockllm"
	"github.com/faultbench/faultbench/scenario"
)

// Status is a check's verdict in one scenario.
type Status string

// The verdicts of a check.
const (
	Pass Status = "pass"
	Fail Status = "fail"
	// NotReached says the scenario never led the client where the check
	// looks: a client that gives up on the first 429 never shows whether
	// it honours retry-after.
	NotReached Status = "not reached"
	// Inconclusive says the host's noise was too large to tell a pass
	// from a fail: a timing check whose figures the noise measured while
	// the client ran could have made either way (waits.go).
	Inconclusive Status = "inconclusive"
)

// Finding is one check's verdict in one scenario, with its evidence.
type Finding struct {
	Check    string `json:"check"`
	Scenario string `json:"scenario"`
	Status   Status `json:"status"`
	Evidence string `json:"evidence"`
}

// Run is what one scenario saw of the client: its scenario, the requests
// of its session as the mock journalled them, and how the process ended.
type Run struct {
	Scenario *scenario.Scenario `json:"-"`
	// Entries are the session's journal, in order.
	Entries []mockllm.Entry `json:"-"`
	// Exit is the process's exit code; -1 when a signal ended it (the
	// timeout's kill among them) or it could not start.
	Exit int `json:"exit"`
	// TimedOut says the timeout struck and the process group was killed.
	TimedOut bool `json:"timed_out"`
	// Timeout is the timeout the run had.
	Timeout time.Duration `json:"-"`
	// Elapsed is the time from the session's start, its first request,
	// to the process's end (from its launch when it sent none).
	Elapsed time.Duration `json:"-"`
	// Startup is the time from the process's launch to its first request
	// (the session's start); -1 when it sent none.
	Startup time.Duration `json:"-"`
	// Noise is the host's noise while the process ran: how late a short
	// sleep woke, its 99th percentile (noise.go). A gap the mock measures
	// is the client's wait and up to about that much more.
	Noise time.Duration `json:"-"`
	// Output is the end of what the process wrote, standard output and
	// error together (at most 4 KiB).
	Output string `json:"output,omitempty"`
	// Err is why the process could not be run, if it could not.
	Err error `json:"-"`
	// Speed is how many times faster than real time the client's clock
	// and the mock's ran (warp.go); 1 for real time. Every time above is
	// the client's (virtual) time.
	Speed int `json:"speed,omitempty"`
	// Unwarped says why a client asked to run warped ran in real time (a
	// static binary), or why its waits show the warp did not take; "" when
	// it did, or none was asked.
	Unwarped string `json:"unwarped,omitempty"`
	// Skipped says why the scenario was not run: it does not fit the
	// timeout at this speed. No check judges it.
	Skipped string `json:"skipped,omitempty"`
}

// attempts are the run's model requests: its entries without a Route (a
// count_tokens call, a models listing, an unknown path).
func (r Run) attempts() []mockllm.Entry {
	out := make([]mockllm.Entry, 0, len(r.Entries))
	for _, e := range r.Entries {
		if e.Route == "" {
			out = append(out, e)
		}
	}
	return out
}

// judged are the attempts the checks judge: the run's model requests
// from the first one a rule of the script answered, where the scenario's
// fault was met (from the first, for a scenario without a script). Those
// before it are the client's own business — a side request the mock
// refused for its body (Claude Code sends one), an answer no rule gave —
// and not its answer to the fault. nil when no rule answered any.
func (r Run) judged() []mockllm.Entry {
	att := r.attempts()
	if r.Scenario != nil && len(r.Scenario.Script) == 0 {
		return att
	}
	for i, e := range att {
		if e.Rule > 0 {
			return att[i:]
		}
	}
	return nil
}

// unmet is the evidence of a check whose fault no request met: "no
// request overflowed the context (2 attempts, exit 1)".
func (r Run) unmet(what string) string {
	n := len(r.attempts())
	return fmt.Sprintf("no request %s (%d %s, %s)", what, n, plural(n, "attempt"), r.ended())
}

// first is the index of the first attempt of att that is, or -1.
func first(att []mockllm.Entry, is func(mockllm.Entry) bool) int {
	for i, e := range att {
		if is(e) {
			return i
		}
	}
	return -1
}

// ended says how the process ended, for evidence: "exit 1", "killed by a
// signal" or, when the timeout struck, "still retrying after 120 s".
func (r Run) ended() string {
	switch {
	case r.TimedOut:
		if r.Speed > 1 {
			return "still retrying after " + minutes(r.Timeout*time.Duration(r.Speed))
		}
		return "still retrying after " + seconds(r.Timeout)
	case r.Err != nil:
		return "did not run: " + r.Err.Error()
	case r.Exit < 0:
		return "killed by a signal"
	}
	return fmt.Sprintf("exit %d", r.Exit)
}

// Bounds are the limits the checks of a persistent fault judge against.
type Bounds struct {
	// Attempts is the most requests a client may send in a scenario that
	// never recovers before it gives up or falls back; 0 means 10.
	Attempts int
	// Time is how long it may keep trying, and how long it may sit on a
	// hung request; 0 means 60 s.
	Time time.Duration
	// Outage is how long a client may keep trying through a long outage
	// before it gives up or falls back, if it does not ride it out; 0
	// means 10 min (the outage check).
	Outage time.Duration
	// Silence is the longest a client may send nothing during an outage
	// (a wait no user can tell from a hang); 0 means 5 min.
	Silence time.Duration
}

// The defaults of Bounds.
const (
	DefaultAttempts = 10
	DefaultTime     = 60 * time.Second
	DefaultOutage   = 10 * time.Minute
	DefaultSilence  = 5 * time.Minute
)

func (b Bounds) outage() time.Duration {
	if b.Outage > 0 {
		return b.Outage
	}
	return DefaultOutage
}

func (b Bounds) silence() time.Duration {
	if b.Silence > 0 {
		return b.Silence
	}
	return DefaultSilence
}

func (b Bounds) attempts() int {
	if b.Attempts > 0 {
		return b.Attempts
	}
	return DefaultAttempts
}

func (b Bounds) time() time.Duration {
	if b.Time > 0 {
		return b.Time
	}
	return DefaultTime
}

// Check is one check: a name (as a scenario's grade list writes it), what
// it asks in a line, and its judge over the runs of the scenarios that
// name it, which gives one Finding per run (Judge fills in the names).
type Check struct {
	Name     string
	Question string
	judge    func(runs []Run, b Bounds) []Finding
}

// perRun makes a judge of a function that judges one run alone.
func perRun(f func(r Run, b Bounds) (Status, string)) func([]Run, Bounds) []Finding {
	return func(runs []Run, b Bounds) []Finding {
		out := make([]Finding, len(runs))
		for i, r := range runs {
			out[i].Status, out[i].Evidence = f(r, b)
		}
		return out
	}
}

// Checks are every check, in the order a report card lists them.
func Checks() []Check {
	return []Check{
		{"retry-after", "waits what retry-after asks (at least that, at most 2× + 1 s)", perRun(honoursWait)},
		{"retry-after-ms", "waits what retry-after-ms asks (at least that, at most 2× + 1 s)", perRun(honoursWait)},
		{"should-retry-false", "does not retry when x-should-retry: false forbids it", perRun(noRetry)},
		{"permanent", "does not retry a permanent error (400, 403, 404 model, 429 insufficient_quota)", perRun(noRetry)},
		{"bounded", "gives up or falls back within the bounds under a persistent overload", perRun(bounded)},
		{"backoff", "waits longer after each failure (the gaps grow)", backsOff},
		{"jitter", "randomises its waits, so that a fleet of it would not retry in step", jitters},
		{"recovers", "gets its answer after a transient fault", perRun(recovers)},
		{"stream-restarts", "restarts a cut stream a bounded number of times", perRun(bounded)},
		{"hang", "gives up on a hung request within the time bound", perRun(timesOut)},
		{"overflow", "shrinks the request after a context overflow instead of resending it", perRun(shrinks)},
		{"fallback", "switches to the fallback model when the primary stays overloaded", perRun(fallsBack)},
		{"layers", "retries in one loop, not in loops nested inside each other whose attempts multiply", perRun(layered)},
		{"stream-error", "retries an error inside a stream before any output; after output, does not claim the half answer", perRun(streamError)},
		{"budget", "does not retry a spent budget (Anthropic's 400 usage limit, a 402 from OpenRouter or DeepSeek)", perRun(spent)},
		{"ladder", "keeps the waits a 429's retry-after asks up to a minute, and says its ceiling (waits, falls back, gives up or caps above it)", ladder},
		{"outage", "through a 30-minute outage, gives up within the bound or rides it out, never silent for long, resuming soon after the recovery", perRun(outage)},
		{"unbounded", "stops retrying a fault that never passes before the horizon (the timeout)", perRun(unbounded)},
	}
}

// Judge applies every check to the runs of the scenarios that name it, in
// the order of Checks and then of runs.
func Judge(runs []Run, b Bounds) []Finding {
	var out []Finding
	unwarped := notWarped(runs)
	for _, c := range Checks() {
		var mine []Run
		for _, r := range runs {
			if r.Skipped == "" && r.Scenario != nil && slices.Contains(r.Scenario.Grade, c.Name) {
				mine = append(mine, r)
			}
		}
		if len(mine) == 0 {
			continue
		}
		fs := c.judge(mine, b)
		for i := range fs {
			fs[i].Check, fs[i].Scenario = c.Name, mine[i].Scenario.Name
			if why, missed := mine[i].missedWindow(); missed && fs[i].Status == NotReached {
				fs[i].Evidence = why
			}
			if unwarped != "" && slices.Contains(timingChecks, c.Name) && fs[i].Status != NotReached {
				fs[i].Status, fs[i].Evidence = Inconclusive, fs[i].Evidence+"; but "+unwarped
			}
		}
		out = append(out, fs...)
	}
	return out
}

// seconds writes a duration as seconds for evidence: "2 s", "2.4 s",
// "0.35 s".
func seconds(d time.Duration) string {
	s := d.Seconds()
	switch {
	case s == float64(int64(s)):
		return fmt.Sprintf("%d s", int64(s))
	case s >= 10:
		return fmt.Sprintf("%.1f s", s)
	}
	return fmt.Sprintf("%.2g s", s)
}

func ms(v int64) time.Duration { return time.Duration(v) * time.Millisecond }
