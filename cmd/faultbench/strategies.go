package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/faultbench/faultbench/internal/texttable"
	"github.com/faultbench/faultbench/recovery"
	"github.com/faultbench/faultbench/recovery/strategyfile"
)

// customSuffix is added to a preset's name when `faultbench strategies
// NAME` prints it as a file, so that the file runs beside the preset.
const customSuffix = "-custom"

func newStrategiesCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "strategies [NAME|FILE|FOLDER...]",
		Short: "List the built-in strategies and their parameters, or print strategies as YAML to copy and edit",
		Long: "With no argument, a table of the built-in presets side by side, then where each comes from.\n" +
			"With arguments (preset names, strategy files or folders of them), each strategy as a complete\n" +
			"YAML file: save one under strategies/, change what you like, and pass its path to\n" +
			"`faultbench run --strategies`. A preset is printed named NAME-custom, so that the file can run\n" +
			"beside the preset.",
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) == 0 {
				return listStrategies(stdout, recovery.Presets())
			}
			var buf bytes.Buffer
			for i, a := range args {
				ss, err := resolveStrategy(a)
				if err != nil {
					return bad(err)
				}
				_, preset := recovery.Preset(a)
				for j, s := range ss {
					if i > 0 || j > 0 {
						buf.WriteString("---\n")
					}
					if preset {
						// A copy run beside its preset (--strategies X,file)
						// must not clash with it on the name.
						fmt.Fprintf(&buf, "# The preset %s as a file to edit, named %s%s so that it can run beside %s\n"+
							"# (--strategies %s,this-file.yaml); rename it as you like.\n", s.Name, s.Name, customSuffix, s.Name, s.Name)
						s.Name += customSuffix
					}
					buf.Write(strategyfile.Marshal(s))
				}
			}
			_, err := stdout.Write(buf.Bytes())
			return err
		},
	}
}

// listStrategies writes the parameters of ss side by side, one column per
// strategy, then each strategy's description. Each cell shows the
// strategy's Effective value: what the engine runs, every default
// resolved by recovery, none restated here.
func listStrategies(w io.Writer, ss []recovery.Strategy) error {
	var buf bytes.Buffer
	header := []string{"parameter"}
	for _, s := range ss {
		header = append(header, s.Name)
	}
	var rows [][]string
	for _, r := range strategyRows {
		row := []string{r.name}
		for _, s := range ss {
			if !s.Classify && r.classifyOnly {
				row = append(row, "-")
				continue
			}
			row = append(row, r.cell(s.Effective()))
		}
		rows = append(rows, row)
	}
	// Cut into parts of as many strategies as fit in 120 columns, each part
	// repeating the parameter column.
	if err := texttable.Render(&buf, texttable.Table{Header: header, Rows: rows, Left: len(header)}); err != nil {
		return err
	}
	buf.WriteString("\n")
	for _, s := range ss {
		for i, line := range wrapWords(s.Name+": "+s.Description, texttable.MaxWidth-2) {
			if i > 0 {
				line = "  " + line
			}
			buf.WriteString(line + "\n")
		}
	}
	buf.WriteString("\n`faultbench strategies NAME` prints one as YAML; save it under strategies/, edit it, and\n" +
		"run it with `faultbench run --strategies path/to/file.yaml` (or a folder of them).\n")
	_, err := w.Write(buf.Bytes())
	return err
}

type strategyRow struct {
	name         string
	classifyOnly bool
	cell         func(recovery.Strategy) string // of an effective strategy
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func orNone(d time.Duration) string {
	if d <= 0 {
		return "none"
	}
	return shortDur(d)
}

func shortDur(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s") // 1m0s, not 10s
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	if s == "" {
		return "0s"
	}
	return s
}

// short names kinds in a narrow cell.
var short = map[recovery.Kind]string{
	recovery.KindRateLimit: "rate_limit", recovery.KindQuotaExhausted: "quota", recovery.KindOverloaded: "overloaded",
	recovery.KindServer: "server", recovery.KindTimeout: "timeout", recovery.KindConflict: "conflict",
	recovery.KindConnection: "connection", recovery.KindContextOverflow: "overflow", recovery.KindRequestTooLarge: "too_large",
	recovery.KindInvalidRequest: "invalid", recovery.KindAuth: "auth", recovery.KindPermission: "permission",
	recovery.KindNotFound: "not_found", recovery.KindEmptyResponse: "empty", recovery.KindUnknown: "unknown",
}

func kindCell(ks []recovery.Kind) string {
	if len(ks) == 0 {
		return "none"
	}
	var lines []string
	for i := 0; i < len(ks); i += 2 {
		pair := []string{}
		for _, k := range ks[i:min(i+2, len(ks))] {
			name := short[k]
			if name == "" {
				name = string(k)
			}
			pair = append(pair, name)
		}
		lines = append(lines, strings.Join(pair, " "))
	}
	return strings.Join(lines, "\n")
}

func jitterCell(b recovery.Backoff) string {
	r := b.JitterRatio
	if r <= 0 {
		r = 0.25
	}
	pct := strconv.FormatFloat(r*100, 'f', -1, 64) + "%"
	switch b.Jitter {
	case recovery.JitterPositive:
		return "jitter +0–" + pct
	case recovery.JitterNegative:
		return "jitter −0–" + pct
	case recovery.JitterSymmetric:
		return "jitter ±" + pct
	case recovery.JitterFull:
		return "full jitter"
	}
	return "no jitter"
}

var strategyRows = []strategyRow{
	{"classifies", false, func(s recovery.Strategy) string { return yesNo(s.Classify) }},
	{"attempts per step", false, func(s recovery.Strategy) string { return strconv.Itoa(s.Attempts) }},
	{"attempts per turn", true, func(s recovery.Strategy) string {
		if s.TurnAttempts <= 0 {
			return "no bound"
		}
		return strconv.Itoa(s.TurnAttempts)
	}},
	{"backoff", false, func(s recovery.Strategy) string {
		b := s.Backoff
		cap := "no cap"
		if b.Cap > 0 {
			cap = "cap " + shortDur(b.Cap)
		}
		return fmt.Sprintf("%s ×%s\n%s\n%s", shortDur(b.Base), strconv.FormatFloat(b.Factor, 'f', -1, 64), cap, jitterCell(b))
	}},
	{"rounds", true, func(s recovery.Strategy) string {
		if s.Rounds.Max <= 0 {
			return "none"
		}
		b := s.Rounds.Backoff
		out := fmt.Sprintf("%d more\n%s ×2^r\n%s", s.Rounds.Max, shortDur(b.Base), jitterCell(b))
		if !slices.Equal(s.Rounds.Retry, s.Retry) {
			out += "\non " + kindCell(s.Rounds.Retry)
		}
		return out
	}},
	{"sleeps after last", false, func(s recovery.Strategy) string { return yesNo(s.SleepAfterFinal) }},
	{"retries", false, func(s recovery.Strategy) string {
		if !s.Classify {
			return "every failure"
		}
		out := "transient\nkinds"
		if !slices.Equal(s.Retry, recovery.TransientKinds()) {
			out = kindCell(s.Retry)
		}
		if s.GiveUpMidStream {
			out += "\nnot once a\nstream began"
		}
		return out
	}},
	{"only statuses", true, func(s recovery.Strategy) string {
		if len(s.RetryStatuses) == 0 {
			return "any"
		}
		var lines []string
		text := statusRuns(strategyfile.FormatStatuses(s.RetryStatuses))
		for i := 0; i < len(text); i += 3 {
			lines = append(lines, strings.Join(text[i:min(i+3, len(text))], " "))
		}
		return strings.Join(lines, "\n")
	}},
	{"x-should-retry", true, func(s recovery.Strategy) string {
		out := "obeyed"
		switch s.ShouldRetry {
		case recovery.ShouldRetryIgnore:
			return "ignored"
		case recovery.ShouldRetryHonorExceptOverloaded:
			out = "obeyed but\nnot on 529"
		}
		if s.ShouldRetryPermanent {
			out += "\ntrue: resends\npermanent too"
		}
		return out
	}},
	{"retry-after", true, func(s recovery.Strategy) string {
		w := s.RetryAfter
		var obeyed string
		switch {
		case w.Honor == recovery.RetryAfterSecondsOnly:
			obeyed = "whole seconds\nonly"
		case w.HonorsHeader():
			obeyed = "obeyed"
			if w.RetryInfo {
				obeyed += "\n+ RetryInfo"
			}
		case w.RetryInfo:
			// Gemini CLI: no header read, the error body's RetryInfo is.
			obeyed = "RetryInfo\nonly"
		default:
			return "ignored"
		}
		if w.Jitter > 0 {
			obeyed += "\n+0–" + strconv.FormatFloat(w.Jitter*100, 'f', -1, 64) + "%"
		}
		if w.Cap <= 0 {
			return obeyed + "\nno cap"
		}
		above := map[recovery.AboveCap]string{
			recovery.AboveCapWait: "waits cap", recovery.AboveCapGiveUp: "gives up",
			recovery.AboveCapFallback: "fallback", recovery.AboveCapBackoff: "backoff",
		}[w.AboveCap]
		return fmt.Sprintf("%s\ncap %s\nabove: %s", obeyed, shortDur(w.Cap), above)
	}},
	{"rate-limit reset", true, func(s recovery.Strategy) string { return yesNo(s.RetryAfter.RateLimitReset) }},
	{"wait budget", true, func(s recovery.Strategy) string { return orNone(s.WaitBudget) }},
	{"persistent", true, func(s recovery.Strategy) string { return yesNo(s.Persistent) }},
	{"fallback", true, func(s recovery.Strategy) string {
		var parts []string
		if s.Fallback.After > 0 {
			parts = append(parts, fmt.Sprintf("after %d×529", s.Fallback.After))
		}
		if len(s.Fallback.On) > 0 {
			parts = append(parts, "on "+kindCell(s.Fallback.On))
		}
		if s.Fallback.OnExhausted {
			parts = append(parts, "when attempts\nrun out")
		}
		if len(parts) == 0 {
			return "none"
		}
		return strings.Join(parts, "\n")
	}},
	{"401 refresh", true, func(s recovery.Strategy) string {
		switch {
		case s.Auth == recovery.AuthWithinAttempts:
			return "before each\nretry, within\nthe attempts"
		case s.Auth == recovery.AuthRefresh:
			return "once"
		}
		return "no"
	}},
	{"sheds background", true, func(s recovery.Strategy) string { return yesNo(s.ShedBackground) }},
	{"escalation", true, func(s recovery.Strategy) string {
		if s.Escalation.Factor <= 1 {
			return "off"
		}
		out := fmt.Sprintf("×%s, %d max", strconv.FormatFloat(s.Escalation.Factor, 'f', -1, 64), s.Escalation.Max)
		if s.Escalation.Ceiling > 0 {
			out += fmt.Sprintf("\nceiling %d", s.Escalation.Ceiling)
		}
		if s.Escalation.Unclamped {
			out += "\nunclamped"
		}
		if s.Escalation.WithinStep {
			out += "\nwithin the step"
		}
		return out
	}},
	{"adjustment", true, func(s recovery.Strategy) string {
		if !s.Adjust.Enabled {
			return "off"
		}
		out := fmt.Sprintf("buffer %d\nfloor %d", s.Adjust.Buffer, s.Adjust.Floor)
		if s.Adjust.WithinStep {
			out += "\nwithin the step"
		}
		return out
	}},
	{"max_tokens clamp", true, func(s recovery.Strategy) string { return yesNo(s.ClampMaxTokens) }},
	{"compaction", true, func(s recovery.Strategy) string {
		if !s.Compaction.Enabled {
			return "off"
		}
		return fmt.Sprintf("keeps %d\n%d max", s.Compaction.KeepRecent, s.Compaction.Max)
	}},
	{"learnt window", true, func(s recovery.Strategy) string {
		if !s.Adjust.Enabled && !s.Compaction.Enabled && !s.Preflight {
			return "-"
		}
		out := strconv.FormatFloat(s.Compaction.LearnedWindowRatio, 'f', -1, 64) + "×input"
		if s.Compaction.LearnFromEstimate {
			out += "\non every\noverflow"
		}
		return out
	}},
	{"413 as overflow", true, func(s recovery.Strategy) string {
		if s.Compaction.TooLargeAsOverflow <= 0 {
			return "no"
		}
		return fmt.Sprintf("at %s×window", strconv.FormatFloat(s.Compaction.TooLargeAsOverflow, 'f', -1, 64))
	}},
	{"preflight", true, func(s recovery.Strategy) string { return yesNo(s.Preflight) }},
	{"loop guard", false, func(s recovery.Strategy) string {
		if !s.LoopGuard.Enabled {
			return "off"
		}
		g := s.LoopGuard
		// warn/break, or "N at once" for a detector that breaks with no
		// warning (its break is its warn).
		pair := func(warn, brk int) string {
			if brk == warn {
				return fmt.Sprintf("%d at once", warn)
			}
			return fmt.Sprintf("%d/%d", warn, brk)
		}
		return fmt.Sprintf("window %d\nrepeat %s\nping-pong %s\nno progress %s", g.Window,
			pair(g.RepeatWarn, g.RepeatBreak), pair(g.PingPongWarn, g.PingPongBreak), pair(g.NoProgressWarn, g.NoProgressBreak))
	}},
	{"step cap", false, func(s recovery.Strategy) string {
		return strconv.Itoa(s.StepCap)
	}},
	{"rate limiter", false, func(s recovery.Strategy) string {
		if !s.RateLimiter.Enabled {
			return "off"
		}
		return "holds for\nthe bucket\n≤ " + shortDur(s.RateLimiter.MaxWait)
	}},
	{"retry budget", false, func(s recovery.Strategy) string {
		b := s.RetryBudget
		if !b.Enabled {
			return "off"
		}
		return fmt.Sprintf("%s×requests\n+ %d per %s", strconv.FormatFloat(b.Ratio, 'f', -1, 64), b.MinRetries, shortDur(b.Window))
	}},
	{"circuit breaker", false, func(s recovery.Strategy) string {
		b := s.CircuitBreaker
		if !b.Enabled {
			return "off"
		}
		return fmt.Sprintf("opens\nafter %d×529\nprobe after %s", b.FailureThreshold, shortDur(b.Delay))
	}},
	{"adaptive limit", false, func(s recovery.Strategy) string {
		a := s.AdaptiveLimiter
		if !a.Enabled {
			return "off"
		}
		return fmt.Sprintf("from %d\n%d to %d\n×%s on\n429/529", a.InitialLimit, a.MinLimit, a.MaxLimit, strconv.FormatFloat(a.BackoffRatio, 'f', -1, 64))
	}},
}

// statusRuns writes four or more consecutive statuses as one range
// ("410–499"), for a narrow cell.
func statusRuns(text []string) []string {
	var out []string
	for i := 0; i < len(text); {
		j := i
		for j+1 < len(text) {
			a, errA := strconv.Atoi(text[j])
			b, errB := strconv.Atoi(text[j+1])
			if errA != nil || errB != nil || b != a+1 {
				break
			}
			j++
		}
		if j-i >= 3 {
			out = append(out, text[i]+"–"+text[j])
		} else {
			out = append(out, text[i:j+1]...)
		}
		i = j + 1
	}
	return out
}

// wrapWords breaks text into lines of at most width runes at spaces.
func wrapWords(text string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(text) {
		if line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width {
			lines = append(lines, line)
			line = ""
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	if line != "" {
		lines = append(lines, line)
	}
	return lines
}
