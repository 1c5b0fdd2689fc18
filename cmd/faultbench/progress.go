package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"
)

// isTerminal reports whether w is a terminal (a character device), the only
// place a progress bar goes: never a pipe, a file or a CI log. It asks the
// file's mode (os.ModeCharDevice) rather than take a dependency; /dev/null
// passes too, where a bar does no harm.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0 && os.Getenv("TERM") != "dumb"
}

// Progress bar timing: nothing for a run shorter than progressDelay, then
// at most one redraw per progressEvery.
const (
	progressDelay = time.Second
	progressEvery = 100 * time.Millisecond
	progressWidth = 30
)

// progressBar draws "[=========>          ] 12/18 runs" over and over on one
// terminal line, and wipes it when the run is over, so that what stays on
// the screen is the report. It draws nothing for a run that ends within
// progressDelay. Its methods are called one at a time (harness.Options
// Progress promises that).
type progressBar struct {
	w     io.Writer
	now   func() time.Time // the wall clock: this is the terminal, not the report
	start time.Time
	drawn time.Time // when the bar was last drawn; zero before the first time
}

func newProgressBar(w io.Writer) *progressBar {
	return &progressBar{w: w, now: time.Now, start: time.Now()}
}

// update draws the bar for done runs of total, when it is due.
func (p *progressBar) update(done, total int) {
	now := p.now()
	if now.Sub(p.start) < progressDelay {
		return
	}
	if !p.drawn.IsZero() && now.Sub(p.drawn) < progressEvery && done < total {
		return
	}
	p.drawn = now
	filled := 0
	if total > 0 {
		filled = progressWidth * done / total
	}
	bar := strings.Repeat("=", filled)
	if filled < progressWidth {
		bar += ">" + strings.Repeat(" ", progressWidth-filled-1)
	}
	fmt.Fprintf(p.w, "\r[%s] %d/%d runs", bar, done, total)
}

// finish wipes the bar, if it was ever drawn.
func (p *progressBar) finish() {
	if !p.drawn.IsZero() {
		fmt.Fprint(p.w, "\r\033[K")
	}
}
