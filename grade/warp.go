package grade

import (
	"debug/elf"
	"errors"
	"fmt"
	"math"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/faultbench/faultbench/internal/clock"
	"github.com/faultbench/faultbench/scenario"
)

// The warp: `grade --speed N` runs the client under libfaketime (Debian's
// faketime package), which makes the clocks and the sleeps of a
// dynamically linked process run N times fast, and gives the mock a
// clock.Warped of the same speed, from the same instant, so that a
// retry-after of 60 s, an HTTP date, a reset header and a fault window
// mean the same on both sides while a minute passes in a second. Every
// time on the card is then the client's virtual time.
//
// libfaketime reads FAKETIME="+OFFSET xN": from its start in the process,
// the clock reads the real time plus OFFSET, and runs N times fast. With
// OFFSET (N−1)·(launch − origin) the process's clock reads the mock's
// warped time from its launch on, up to the few milliseconds between the
// launch and the library's start, times N (tens of ms at 60×, within the
// noise). A statically linked program (a Go binary built without cgo)
// loads no library and is not warped; nor is a child that clears its
// environment.

// MaxSpeed bounds --speed: past it a millisecond of the host's noise is
// more than a second of the client's time.
const MaxSpeed = 1000

// LibFaketimeVar names the libfaketime library to preload, when it is
// not in one of libFaketimePaths.
const LibFaketimeVar = "FAULTBENCH_LIBFAKETIME"

// libFaketimePaths are where Debian and a source build put libfaketime.
var libFaketimePaths = []string{
	"/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1",
	"/usr/lib/aarch64-linux-gnu/faketime/libfaketime.so.1",
	"/usr/lib/faketime/libfaketime.so.1",
	"/usr/local/lib/faketime/libfaketime.so.1",
}

// ErrNoFaketime says the warp cannot run: libfaketime is not installed.
var ErrNoFaketime = errors.New("libfaketime is not installed (Debian: apt-get install faketime; or name it in " + LibFaketimeVar + ")")

// LibFaketime is the path of libfaketime: LibFaketimeVar's value when it
// is set, else the first of the usual places that holds it; ErrNoFaketime
// when none does.
func LibFaketime() (string, error) {
	if p := os.Getenv(LibFaketimeVar); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s: %w", LibFaketimeVar, err)
		}
		return p, nil
	}
	for _, p := range libFaketimePaths {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", ErrNoFaketime
}

// warpEnv is env with the variables that warp a process launched at real
// time launched to clk: LD_PRELOAD (lib before any already there) and
// FAKETIME.
func warpEnv(env []string, lib string, clk clock.Warped, launched time.Time) []string {
	offset := float64(clk.Speed-1) * launched.Sub(clk.Origin).Seconds()
	preload := lib
	if v, ok := lookup(env, "LD_PRELOAD"); ok && v != "" {
		preload += " " + v
	}
	return append(env[:len(env):len(env)],
		"LD_PRELOAD="+preload,
		"FAKETIME=+"+strconv.FormatFloat(offset, 'f', 3, 64)+" x"+strconv.Itoa(clk.Speed))
}

// Static says why the program argv0 cannot be warped: a statically
// linked executable (no ELF interpreter) loads no library. "" when it can
// be, or when that cannot be told (a script: its interpreter decides).
func Static(argv0 string) string {
	path, err := exec.LookPath(argv0)
	if err != nil {
		return ""
	}
	f, err := elf.Open(path)
	if err != nil { // not ELF: a script, whose interpreter is what runs
		return ""
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return ""
		}
	}
	return path + " is statically linked: libfaketime cannot warp it"
}

// span is the virtual time a well-behaved client needs for sc: the latest
// time a rule's window names, or the waits its rules' retry-after
// headers ask, all of them, whichever is more. A rung of the ladder is
// judged with the others, most of which are long: every rung is at
// least LongSpan, so that they run together or not at all.
func span(sc *scenario.Scenario) time.Duration {
	var window, asked time.Duration
	if slices.Contains(sc.Grade, "ladder") {
		window = LongSpan
	}
	for _, r := range sc.Script {
		window = max(window, time.Duration(r.When.After), time.Duration(r.When.Before))
		if v, ok := r.Respond.Headers["retry-after"]; ok {
			if s, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && s > 0 {
				asked += time.Duration(max(1, r.Times)*s) * time.Second
			}
		}
	}
	return max(window, asked)
}

// LongSpan is where a scenario is long: a well-behaved client needs this
// much of its time or more (span). A grade in real time runs no long
// scenario; the built-in pack's others need at most a few seconds.
const LongSpan = 30 * time.Second

// Fits says whether sc runs in a grade of timeout at speed: a long
// scenario (LongSpan) needs a warp, and any scenario at most a quarter of
// the timeout in the client's time. A scenario that does not fit is left
// out of the grade, and the card says at what speed it would run
// (NeedsSpeed).
func Fits(sc *scenario.Scenario, timeout time.Duration, speed int) bool {
	speed = max(1, speed)
	d := span(sc)
	return (speed > 1 || d < LongSpan) && 4*d <= timeout*time.Duration(speed)
}

// NeedsSpeed is the least speed at which sc fits a run of timeout.
func NeedsSpeed(sc *scenario.Scenario, timeout time.Duration) int {
	d, need := span(sc), 1
	if d >= LongSpan {
		need = 2
	}
	if timeout > 0 && 4*d > timeout {
		need = max(need, int((4*d+timeout-1)/timeout))
	}
	return need
}

// warpOf is the speed Observe runs at, why the client is not warped when
// it asked for a warp it cannot have, and the library to preload.
func warpOf(opts Options) (speed int, unwarped, lib string, err error) {
	speed = max(1, opts.Speed)
	if speed > MaxSpeed {
		return 0, "", "", fmt.Errorf("grade: speed %d is over %d", speed, MaxSpeed)
	}
	if speed == 1 {
		return 1, "", "", nil
	}
	if why := Static(opts.Command[0]); why != "" {
		return 1, why + "; judged in real time", "", nil
	}
	lib, err = LibFaketime()
	if err != nil {
		return 0, "", "", fmt.Errorf("grade: --speed %d: %w", speed, err)
	}
	return speed, "", lib, nil
}

// warpNoise is the host's noise in the client's time at speed: a late
// wake of the real clock is speed times as long on the warped one. The
// checks add floorMS to it (margin), and firstMS to a first gap; at speed
// N those are N times as long too, so the noise carries the difference:
// margins only widen, and a verdict the noise could have made stays
// inconclusive.
func warpNoise(noise time.Duration, speed int) time.Duration {
	if speed <= 1 {
		return noise
	}
	n := time.Duration(speed)
	return n*noise + (n-1)*(floorMS+firstMS)*time.Millisecond
}

// minutes writes a long duration for evidence, to a tenth of a minute:
// "17.5 min", or seconds under two minutes.
func minutes(d time.Duration) string {
	if d < 2*time.Minute {
		return seconds(d)
	}
	return strconv.FormatFloat(math.Round(d.Minutes()*10)/10, 'f', -1, 64) + " min"
}

// timingChecks are the checks whose verdicts rest on the client's waits:
// a client the warp did not take waits N times as long on the mock's
// clock, so they say nothing of it (Inconclusive).
var timingChecks = []string{"retry-after", "retry-after-ms", "backoff", "jitter", "bounded", "hang", "ladder", "outage", "unbounded"}

// notWarped says, from the runs' waits, whether a warp did not take: when
// every wait asked for (a retry-after of a second or more) that the
// client kept came out at least half speed times as long, its clock ran
// in real time while the mock's ran warped. "" when the warp took, none
// was asked for, or no wait tells.
func notWarped(runs []Run) string {
	long, kept := 0, 0
	example := ""
	for _, r := range runs {
		if r.Speed <= 1 || r.Skipped != "" {
			continue
		}
		att := r.judged()
		for i := 0; i+1 < len(att); i++ {
			e := att[i]
			if e.RetryAfterMS == nil || *e.RetryAfterMS < 1000 || e.Kind == "ok" {
				continue
			}
			asked, gap := *e.RetryAfterMS, att[i+1].GapMS
			switch {
			case gap >= asked*int64(r.Speed)/2:
				long++
				if example == "" {
					example = fmt.Sprintf("%s for %s in %s", minutes(ms(gap)), seconds(ms(asked)), r.Scenario.Name)
				}
			case gap >= asked:
				kept++
			}
		}
	}
	if long == 0 || kept > 0 {
		return ""
	}
	return fmt.Sprintf("the warp did not take: the waits came out about %d× what was asked (%s), as the client's clock ran in real time; its timing checks are inconclusive, grade it at --speed 1",
		runs[0].Speed, example)
}

// speedOf is the highest speed of runs; 1 for real time.
func speedOf(runs []Run) int {
	speed := 1
	for _, r := range runs {
		speed = max(speed, r.Speed)
	}
	return speed
}
