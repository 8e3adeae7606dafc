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
	unit    string // what done and total count, in the plain line
	bar     *progressbar.ProgressBar
	started time.Time
	last    time.Time
	// done and total are the latest update's, for finish; printed the
	// counts of the last plain line, which is never printed twice.
	done, total int
	printed     [2]int
	// budget, when set, is the time the work may take (ab -budget): the
	// plain line says how much of it is used.
	budget time.Duration
	// growing is set when the total grows as the work goes (run's
	// adaptive sampling adds samples pass by pass) and budget bounds the
	// whole work from started (run -max-time): the line then gives no
	// percentage and no time left from the pace, which would read 100%
	// and a few seconds left for minutes, but the budget's remainder.
	growing bool
	// first is when the first update came, with its count: the pace of
	// the time left is taken from there, so that a build or a setup
	// before the first count does not inflate it.
	first     time.Time
	firstDone int
}

// newProgress returns a progress display on w for work that started at
// started; unit names what update's counts count ("measurements").
func newProgress(w io.Writer, started time.Time, unit string) *progress {
	p := &progress{w: w, unit: unit, started: started, last: started}
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
	// The last line waits for finish: adaptive sampling grows the total
	// pass by pass, so done == total is not yet the end.
	p.done, p.total = done, total
	now := time.Now()
	if p.first.IsZero() {
		p.first, p.firstDone = now, done
	}
	if now.Sub(p.last) < 5*time.Second {
		return
	}
	p.printLine(now)
}

// printLine writes the plain progress line: the counts, the time elapsed
// (and, with a budget, how much of it the work since the first count has
// used) and, from the pace since the first update, about how long the
// rest takes: "serbench: 24/40 benchmark runs (60%), 30s elapsed, 12s of
// the budget 2m0s used, about 8s left". A line with the same counts
// as the last one printed is not printed again.
func (p *progress) printLine(now time.Time) {
	done, total := p.done, p.total
	p.last = now
	if p.printed == [2]int{done, total} {
		return
	}
	p.printed = [2]int{done, total}
	elapsed := now.Sub(p.started)
	if p.growing && p.budget > 0 {
		line := fmt.Sprintf("serbench: %d of %d %s planned so far (adaptive sampling adds more), %v elapsed of the -max-time budget %v",
			done, total, p.unit, elapsed.Round(time.Second), p.budget)
		if left := p.budget - elapsed; left > 0 && done < total {
			line += fmt.Sprintf(", at most %v left", left.Round(time.Second))
		}
		fmt.Fprintln(p.w, line)
		return
	}
	line := fmt.Sprintf("serbench: %d/%d %s (%.0f%%), %v elapsed", done, total, p.unit, 100*float64(done)/float64(total), elapsed.Round(time.Second))
	if p.budget > 0 && !p.first.IsZero() {
		// The budget is of the rounds, which begin about when the first
		// count comes (builds before it excluded).
		line += fmt.Sprintf(", %v of the budget %v used", now.Sub(p.first).Round(time.Second), p.budget)
	}
	if n := done - p.firstDone; n > 0 && done < total {
		left := time.Duration(float64(now.Sub(p.first)) * float64(total-done) / float64(n))
		line += fmt.Sprintf(", about %v left", left.Round(time.Second))
	}
	fmt.Fprintln(p.w, line)
}

func (p *progress) finish() {
	if p.bar != nil {
		p.bar.Finish()
		return
	}
	if p.total > 0 {
		p.printLine(time.Now())
	}
}

// every updates p with the seconds elapsed, once per interval, against an
// estimated total, until the returned stop is called; stop finishes the
// display. Time-based progress suits work whose length is set by a clock
// (load phases) rather than by a count of measurements.
func (p *progress) every(interval time.Duration, total int) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		t := time.NewTicker(interval)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case now := <-t.C:
				p.update(min(int(now.Sub(p.started).Seconds()), total), total)
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		p.finish()
	}
}
