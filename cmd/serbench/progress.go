package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/schollz/progressbar/v3"
	"golang.org/x/term"

	"github.com/serbench/serbench/bench"
)

// Progress display intervals.
const (
	// progressRedraw is how often the line on a terminal is rewritten.
	progressRedraw = 200 * time.Millisecond
	// progressStep and progressEvery space the plain lines written when
	// stderr is not a terminal: a line when the work has advanced by
	// another tenth, or every 30 s.
	progressStep  = 0.1
	progressEvery = 30 * time.Second
)

// stage is one report of where a piece of work is, as progress shows it.
type stage struct {
	// phase names what is going on ("sampling", "building base"); a new
	// phase is always shown.
	phase string
	// counts says how far in countable terms: "120/400 cells done".
	counts string
	// done counts the units of work done; left estimates those still to
	// do (0: none or unknown). The percentage and the time left come from
	// them, the pace being that of the units since the first report.
	done, left int
}

// progress shows how far a run is on stderr. On a terminal, a bar
// (github.com/schollz/progressbar) of the share done, described by the
// line below and redrawn every 200 ms at most, cleared at the end;
// otherwise a plain line is written when the work has advanced by a tenth
// (or, re-estimated, fallen back by one), every 30 s, or when the phase
// changes, and never the same line twice. It
// never writes to the report's output.
type progress struct {
	w io.Writer
	// bar, set when w is a terminal, draws its line: the share done in
	// thousandths, described by line.
	bar     *progressbar.ProgressBar
	unit    string // what update's counts count ("rounds")
	started time.Time
	now     func() time.Time
	// budget, when set, is the time the work may take (ab -budget, run
	// -max-time with adaptive sampling): the line says how much of it is
	// used, counted from budgetStart (zero: from the first report of
	// work, so that builds before it do not count), and no estimate
	// exceeds what is left of it.
	budget      time.Duration
	budgetStart time.Time
	// first is when the first report of the current phase came, with its
	// count of units done: the pace is taken from there.
	first     time.Time
	firstDone int
	// cur is the latest stage; shown, the last line written, with when
	// and at which fraction of the work.
	cur       stage
	shownCur  stage
	shown     string
	shownAt   time.Time
	shownFrac float64
	shownPh   string
}

// newProgress returns a progress display on w for work that started at
// started; unit names what update's counts count ("measurements").
func newProgress(w io.Writer, started time.Time, unit string) *progress {
	p := &progress{w: w, unit: unit, started: started, now: time.Now, shownAt: started}
	if f, ok := w.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		p.bar = newBar(w)
	}
	return p
}

// newBar returns the terminal's bar on w: the share done in thousandths,
// 20 columns wide, the rest of the line the description report gives it.
// It has no throttle of its own: report redraws every progressRedraw at
// most.
func newBar(w io.Writer) *progressbar.ProgressBar {
	return progressbar.NewOptions(1000,
		progressbar.OptionSetWriter(w),
		progressbar.OptionSetWidth(20),
		progressbar.OptionSetElapsedTime(false),
		progressbar.OptionSetPredictTime(false),
		progressbar.OptionClearOnFinish(),
	)
}

// update reports done of total units of work, for work whose total is
// known from the start.
func (p *progress) update(done, total int) {
	p.report(stage{counts: fmt.Sprintf("%d/%d %s", done, total, p.unit), done: done, left: max(total-done, 0)})
}

// measuring reports bench.Measure's progress: cells done of cells, and
// the work's estimate for the percentage and the time left.
func (p *progress) measuring(b bench.Progress) {
	p.report(stage{phase: b.Phase, counts: fmt.Sprintf("%d/%d cells done", b.CellsDone, b.Cells), done: b.Done, left: b.Left})
}

// report records s and shows it if it is time to.
func (p *progress) report(s stage) {
	now := p.now()
	if p.first.IsZero() || s.phase != p.cur.phase {
		// Each phase's units take their own time: its pace is its own.
		p.first, p.firstDone = now, s.done
	}
	p.cur = s
	frac, _, _ := p.estimate(now)
	switch {
	case p.bar != nil:
		if now.Sub(p.shownAt) < progressRedraw && s.phase == p.shownPh {
			return
		}
		p.shownAt, p.shownPh = now, s.phase
		p.bar.Describe(p.line(now))
		_ = p.bar.Set(int(1000 * frac)) // a write error on stderr is not the run's
	case s.phase != p.shownPh || frac >= p.shownFrac+progressStep || frac <= p.shownFrac-progressStep || now.Sub(p.shownAt) >= progressEvery:
		// A fraction a tenth lower is the work re-estimated (ab's
		// budget planning more rounds): worth a line too.
		p.print(now, frac)
	case frac < p.shownFrac:
		p.shownFrac = frac
	}
}

// print writes the current line unless it is the one last written.
func (p *progress) print(now time.Time, frac float64) {
	line := p.line(now)
	p.shownAt, p.shownFrac, p.shownPh, p.shownCur = now, frac, p.cur.phase, p.cur
	if line == p.shown {
		return
	}
	p.shown = line
	fmt.Fprintln(p.w, line)
}

// fraction is the share of the work done, in [0, 1].
func (s stage) fraction() float64 {
	if s.done+s.left == 0 {
		return 0
	}
	return float64(s.done) / float64(s.done+s.left)
}

// estimate is where the current stage is at now: the share done, and the
// time left at the pace of the phase so far (-1: no pace yet). When the
// budget will end the work before that pace would (bound), the share is
// of the budget and the time left its remainder.
func (p *progress) estimate(now time.Time) (share float64, left time.Duration, bound bool) {
	s := p.cur
	share, left = s.fraction(), -1
	if n := s.done - p.firstDone; s.left > 0 && n > 0 {
		left = time.Duration(float64(now.Sub(p.first)) * float64(s.left) / float64(n))
	}
	if used := p.budgetUsed(now); p.budget > 0 && left >= 0 && left > p.budget-used {
		share, left, bound = min(float64(used)/float64(p.budget), 1), max(p.budget-used, 0), true
	}
	return share, left, bound
}

// budgetUsed is the time the budget has run at now.
func (p *progress) budgetUsed(now time.Time) time.Duration {
	from := p.budgetStart
	if from.IsZero() {
		from = p.first
	}
	return now.Sub(from)
}

// line is the progress line at now: "serbench: sampling: 120/400 cells
// done (35%), 45s of the budget 2m30s used, about 1m10s left", or with
// the budget bound to end the work first, "(60% of the budget), ..., at
// most 8s left (the budget)".
func (p *progress) line(now time.Time) string {
	s := p.cur
	var b strings.Builder
	b.WriteString("serbench: ")
	if s.phase != "" {
		b.WriteString(s.phase + ": ")
	}
	b.WriteString(s.counts)
	share, left, bound := p.estimate(now)
	switch {
	case bound:
		fmt.Fprintf(&b, " (%.0f%% of the budget)", 100*share)
	case s.done+s.left > 0:
		fmt.Fprintf(&b, " (%.0f%%)", 100*share)
	}
	if p.budget > 0 {
		fmt.Fprintf(&b, ", %v of the budget %v used", p.budgetUsed(now).Round(time.Second), p.budget)
	} else {
		fmt.Fprintf(&b, ", %v elapsed", now.Sub(p.started).Round(time.Second))
	}
	switch {
	case bound:
		fmt.Fprintf(&b, ", at most %v left (the budget)", left.Round(time.Second))
	case left >= 0:
		fmt.Fprintf(&b, ", about %v left", left.Round(time.Second))
	}
	return b.String()
}

// finish ends the display: on a terminal it clears the line, otherwise it
// writes the last state unless that line was written already.
func (p *progress) finish() {
	if p.first.IsZero() {
		return
	}
	if p.bar != nil {
		_ = p.bar.Clear()
		return
	}
	if p.cur != p.shownCur {
		// The last state, unless the last line showed it already.
		now := p.now()
		frac, _, _ := p.estimate(now)
		p.print(now, frac)
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
