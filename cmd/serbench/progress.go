package main

import (
	"fmt"
	"io"
	"os"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"
)

// progress shows how far a run is on stderr: a bar with the count, the
// total and the time left when stderr is a terminal, and otherwise a plain
// line at most every five seconds. It never writes to the report's output.
type progress struct {
	w       io.Writer
	bar     *progressbar.ProgressBar
	started time.Time
	last    time.Time
}

func newProgress(w io.Writer, started time.Time) *progress {
	p := &progress{w: w, started: started, last: started}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = progressbar.NewOptions(-1,
			progressbar.OptionSetWriter(w),
			progressbar.OptionSetDescription("measuring"),
			progressbar.OptionShowCount(),
			progressbar.OptionSetPredictTime(true),
			progressbar.OptionShowElapsedTimeOnFinish(),
			progressbar.OptionClearOnFinish(),
			progressbar.OptionThrottle(200*time.Millisecond),
		)
	}
	return p
}

func (p *progress) update(done, total int) {
	if p.bar != nil {
		if p.bar.GetMax() != total {
			p.bar.ChangeMax(total)
		}
		p.bar.Set(done)
		return
	}
	now := time.Now()
	if now.Sub(p.last) < 5*time.Second && done != total {
		return
	}
	p.last = now
	fmt.Fprintf(p.w, "serbench: %d/%d measurements (%.0f%%), %v elapsed\n", done, total, 100*float64(done)/float64(total), now.Sub(p.started).Round(time.Second))
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
	}
}
