package loopguard

import "fmt"

// Detector names the pattern that fired.
type Detector string

// The detectors.
const (
	Repeat     Detector = "repeat"
	PingPong   Detector = "ping_pong"
	NoProgress Detector = "no_progress"
)

// Config holds the thresholds. A zero field takes the default written
// beside it. A break threshold below its warn threshold is raised to it;
// a break threshold equal to its warn threshold breaks at once, with no
// warning first (AtOnce), as the layered demo's no_progress detector does.
type Config struct {
	Window          int `yaml:"window"`            // calls remembered; 0 means 20
	RepeatWarn      int `yaml:"repeat_warn"`       // same call in the window; 0 means 3
	RepeatBreak     int `yaml:"repeat_break"`      // 0 means 5
	PingPongWarn    int `yaml:"ping_pong_warn"`    // A-B cycles at the end of the window; 0 means 3
	PingPongBreak   int `yaml:"ping_pong_break"`   // 0 means 5
	NoProgressWarn  int `yaml:"no_progress_warn"`  // same call, same result; 0 means 2
	NoProgressBreak int `yaml:"no_progress_break"` // 0 means 3
}

func def(v, d int) int {
	if v <= 0 {
		return d
	}
	return v
}

// breakAt is a break threshold: a zero one takes its default, kept above
// warn; a set one is kept at warn or above.
func breakAt(v, d, warn int) int {
	if v <= 0 {
		return max(d, warn+1)
	}
	return max(v, warn)
}

// Effective fills zero fields with their defaults and keeps every break
// at or above its warn: the thresholds the guard runs. Effective of an
// effective Config is itself.
func (c Config) Effective() Config {
	c.Window = def(c.Window, 20)
	c.RepeatWarn = def(c.RepeatWarn, 3)
	c.RepeatBreak = breakAt(c.RepeatBreak, 5, c.RepeatWarn)
	c.PingPongWarn = def(c.PingPongWarn, 3)
	c.PingPongBreak = breakAt(c.PingPongBreak, 5, c.PingPongWarn)
	c.NoProgressWarn = def(c.NoProgressWarn, 2)
	c.NoProgressBreak = breakAt(c.NoProgressBreak, 3, c.NoProgressWarn)
	return c
}

// AtOnce reports whether detector d breaks at its warn threshold with no
// warning first: its break threshold, defaults applied, is its warn
// threshold.
func (c Config) AtOnce(d Detector) bool {
	c = c.Effective()
	switch d {
	case Repeat:
		return c.RepeatBreak == c.RepeatWarn
	case PingPong:
		return c.PingPongBreak == c.PingPongWarn
	case NoProgress:
		return c.NoProgressBreak == c.NoProgressWarn
	}
	return false
}

// Level is how strongly a Verdict asks the caller to act.
type Level int

// The levels.
const (
	None  Level = iota // carry on
	Warn               // tell the model it is repeating itself
	Break              // stop the turn
)

func (l Level) String() string {
	switch l {
	case Warn:
		return "warn"
	case Break:
		return "break"
	}
	return "none"
}

// Verdict is what the guard says after a call.
type Verdict struct {
	Level    Level
	Detector Detector
	Count    int    // the figure that crossed the threshold
	Message  string // for Warn: the text to show the model
	AtOnce   bool   // for Break: the detector breaks with no warning first (Config.AtOnce)
}

type entry struct {
	call   Fingerprint
	result string
}

// Guard watches one agent turn. It is not safe for concurrent use.
type Guard struct {
	cfg    Config
	window []entry
	warned map[Detector]bool
}

// New returns a guard with cfg's thresholds.
func New(cfg Config) *Guard {
	return &Guard{cfg: cfg.Effective(), warned: map[Detector]bool{}}
}

// Observe records one executed call and its result hash (ResultHash) and
// returns the guard's verdict. A detector warns once, when it first crosses
// its warn threshold; it breaks only after it has warned, unless its break
// threshold is its warn threshold: then it breaks at once (Verdict.AtOnce).
func (g *Guard) Observe(call Fingerprint, result string) Verdict {
	g.window = append(g.window, entry{call, result})
	if len(g.window) > g.cfg.Window {
		g.window = g.window[len(g.window)-g.cfg.Window:]
	}
	checks := []struct {
		d           Detector
		count       int
		warn, brk   int
		description string
	}{
		// Strictest first: no new information at all.
		{NoProgress, g.sameResult(), g.cfg.NoProgressWarn, g.cfg.NoProgressBreak, "called %s %d times with the same arguments and got the same result each time"},
		{Repeat, g.repeats(), g.cfg.RepeatWarn, g.cfg.RepeatBreak, "called %s %d times with the same arguments"},
		{PingPong, g.cycles(), g.cfg.PingPongWarn, g.cfg.PingPongBreak, "alternated between two calls, the last %s, for %d cycles"},
	}
	var out Verdict
	for _, c := range checks {
		switch {
		case c.count >= c.brk && c.brk == c.warn:
			return Verdict{Level: Break, Detector: c.d, Count: c.count, AtOnce: true}
		case c.count >= c.brk && g.warned[c.d]:
			return Verdict{Level: Break, Detector: c.d, Count: c.count}
		case c.count >= c.warn && !g.warned[c.d]:
			g.warned[c.d] = true
			if out.Level == None {
				out = Verdict{Level: Warn, Detector: c.d, Count: c.count,
					Message: "You have " + fmt.Sprintf(c.description, toolName(call), c.count) +
						". This is not making progress: stop repeating it and change your approach."}
			}
		case c.count < c.warn:
			g.warned[c.d] = false
		}
	}
	return out
}

func toolName(f Fingerprint) string {
	for i := 0; i < len(f); i++ {
		if f[i] == ':' {
			return string(f[:i])
		}
	}
	return string(f)
}

// repeats counts the calls in the window equal to the latest.
func (g *Guard) repeats() int {
	last := g.window[len(g.window)-1].call
	n := 0
	for _, e := range g.window {
		if e.call == last {
			n++
		}
	}
	return n
}

// sameResult counts the calls in the window equal to the latest, with the
// same result.
func (g *Guard) sameResult() int {
	last := g.window[len(g.window)-1]
	n := 0
	for _, e := range g.window {
		if e == last {
			n++
		}
	}
	return n
}

// cycles counts the complete A-B cycles at the end of the window, A and B
// two different calls.
func (g *Guard) cycles() int {
	w := g.window
	n := len(w)
	if n < 2 || w[n-1].call == w[n-2].call {
		return 0
	}
	run := 2
	for i := n - 3; i >= 0 && w[i].call == w[i+2].call; i-- {
		run++
	}
	return run / 2
}
