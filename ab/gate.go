package ab

import (
	"fmt"
	"math"
	"slices"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/gate"
	"github.com/serbench/serbench/verdict"
)

// Judge is the verdict on benchmark b's change of the compared figure at
// threshold maxRegression (a fraction, 0.05 for 5%; a negative one counts
// as 0), by the rule of package verdict that serbench compare and the
// results explorer share: the change's interval (Benchmark.ChangeInterval:
// the distribution-free interval of the median ratio, widened to the
// interval between the code layouts when there are several; with
// MeasureInstructions the range over the rounds) against the threshold,
// with significance as Benchmark.Significant at res.Options.Alpha.
// Without an interval (fewer than 6 rounds) it is verdict.Inconclusive.
func (res *Result) Judge(b Benchmark, maxRegression float64) verdict.Judgement {
	j, err := verdict.Judge(change(b, res.Options.Alpha), max(maxRegression, 0))
	if err != nil {
		// Only a NaN or infinite threshold gets here.
		return verdict.Judgement{Verdict: verdict.Inconclusive, Threshold: maxRegression, Resolution: nan}
	}
	return j
}

// change is b's change of the compared figure with its interval (NaN
// bounds without one) and its significance at alpha.
func change(b Benchmark, alpha float64) verdict.Change {
	c := verdict.Change{Point: b.Change(), Lo: nan, Hi: nan, Significant: b.Significant(alpha)}
	if lo, hi, ok := b.ChangeInterval(); ok {
		c.Lo, c.Hi = lo, hi
	}
	return c
}

var nan = math.NaN()

// Figures is every benchmark of res as the gate of maxRegression (a
// fraction: 0.05 for 5%) judges it, in the order of res.Benchmarks, for
// package gate to sort and print: each benchmark's compared figure (ns/op,
// or instructions/op with MeasureInstructions) with its verdict (Judge),
// and after it its B/op and allocs/op when they were higher at head in
// every round (verdict.Regressed, whatever maxRegression is) or lower in
// every round (verdict.Improved). A benchmark without rounds is left out.
func Figures(res *Result, maxRegression float64) []gate.Figure {
	var out []gate.Figure
	for _, b := range res.Benchmarks {
		if len(b.Ratios) == 0 {
			continue
		}
		out = append(out, timeFigure(res, b, maxRegression))
		rounds := len(b.Ratios)
		for _, m := range []struct {
			metric     string
			base, head float64
			up, down   bool
		}{
			{"B/op", b.BaseBytes, b.HeadBytes, b.BytesUp, b.BytesDown},
			{"allocs/op", b.BaseAllocs, b.HeadAllocs, b.AllocsUp, b.AllocsDown},
		} {
			f := gate.Figure{Name: b.Name, Metric: m.metric, Base: m.base, Head: m.head, Counts: true, Change: verdict.Change{Point: nan, Lo: nan, Hi: nan}}
			switch {
			case m.up:
				f.Judgement.Verdict, f.Evidence = verdict.Regressed, fmt.Sprintf("higher in every one of %d rounds", rounds)
			case m.down:
				f.Judgement.Verdict, f.Evidence = verdict.Improved, fmt.Sprintf("lower in every one of %d rounds", rounds)
			default:
				continue
			}
			out = append(out, f)
		}
	}
	return out
}

// timeFigure is benchmark b's compared figure judged at maxRegression,
// with ab's remedies for an interval too wide: more rounds, -layouts,
// -measure instructions, a quieter runner.
func timeFigure(res *Result, b Benchmark, maxRegression float64) gate.Figure {
	j := res.Judge(b, maxRegression)
	f := gate.Figure{Name: b.Name, Metric: unit(b.Measure), Base: b.base(), Head: b.head(), Change: change(b, res.Options.Alpha), Judgement: j,
		Range:      b.Measure == MeasureInstructions,
		Correction: fmt.Sprintf("%s over the %s", compare.Correction, benchmarks(len(res.Benchmarks)))}
	if !f.Range {
		f.Q = b.Q
	}
	if j.Verdict != verdict.Inconclusive {
		return f
	}
	rounds := len(b.Ratios)
	switch {
	case !f.Change.HasInterval():
		f.Note = fmt.Sprintf("%d rounds give no interval; -rounds %d or more do", rounds, minRoundsFor(0.05))
	case j.Corrected && f.Range:
		f.Note = fmt.Sprintf("the range lies beyond %s but not every round is beyond the tolerance %s", limit(j.Threshold), limit(b.Tolerance))
	}
	if f.Change.HasInterval() && !j.Corrected && b.LayoutsWider() {
		// More rounds narrow the interval within a layout, not the
		// spread between layouts: more layouts do.
		meds := b.layoutMedians()
		f.Remedies = append(f.Remedies, fmt.Sprintf("more code layouts (%s; the %d layouts' median changes read %s to %s, where the linker put the code moving it more than the rounds did)",
			moreLayouts(res.Options), len(meds), percent(slices.Min(meds)-1), percent(slices.Max(meds)-1)), "-measure instructions")
		return f
	}
	if n := j.Samples(rounds); n > 0 && n <= MaxRounds {
		f.Remedies = append(f.Remedies, fmt.Sprintf("about %d rounds (-rounds %d)", n, n))
	} else {
		f.Remedies = append(f.Remedies, "more rounds")
	}
	if !f.Range {
		f.Remedies = append(f.Remedies, moreLayouts(res.Options), "-measure instructions")
	}
	f.Remedies = append(f.Remedies, "a quieter runner")
	return f
}

// moreLayouts is the flags for twice o's layouts (at least DefaultLayouts,
// at most MaxLayouts), with the rounds they need when o's are too few:
// "-layouts 16 -rounds 32".
func moreLayouts(o Options) string {
	n := min(MaxLayouts, max(DefaultLayouts, 2*o.Layouts))
	if o.Rounds < 2*n {
		return fmt.Sprintf("-layouts %d -rounds %d", n, 2*n)
	}
	return fmt.Sprintf("-layouts %d", n)
}

// Regressions lists what got worse at head, by the rules of
// `serbench ab -max-regression`, in the order of res.Benchmarks
// (Figures, sorted by gate.Sort):
//
//   - ns/op (instructions/op with MeasureInstructions) when Judge says
//     verdict.Regressed: the change's whole interval lies beyond
//     maxRegression (a fraction: 0.05 for 5%) and the change is
//     significant (Benchmark.Significant). A median beyond the limit whose
//     interval reaches back inside it is Inconclusive, not a regression;
//   - B/op and allocs/op, with no tolerance: when head's figure was higher
//     than base's in every round (which a median that merely moved does
//     not show), whatever maxRegression is.
func Regressions(res *Result, maxRegression float64) []gate.Figure {
	return gate.Sort(Figures(res, maxRegression)).Regressed
}

// Improvements lists what got better at head by the same rules, mirrored:
// a change of time whose verdict is verdict.Improved (its interval wholly
// below -limit, significant), B/op or allocs/op lower than base's in every
// round.
func Improvements(res *Result, limit float64) []gate.Figure {
	return gate.Sort(Figures(res, limit)).Improved
}

// Inconclusive lists the benchmarks whose change of the compared figure
// (ns/op, or instructions/op) the run could not resolve at maxRegression:
// Judge says verdict.Inconclusive (the interval straddles the limit, there
// is no interval, or the correction left a change beyond the limit not
// significant). A gate must not pass them as unchanged: serbench ab
// -max-regression exits with status 3 (gate.StatusInconclusive) when
// there are some and no regression. A figure's line (gate.Figure.String)
// says by how much the interval was too wide and what would resolve it:
// more rounds, -layouts, -measure instructions or a quieter runner.
func Inconclusive(res *Result, maxRegression float64) []gate.Figure {
	return gate.Sort(Figures(res, maxRegression)).Inconclusive
}

// limit prints a gate's threshold as a percentage: 0.05 is "5%".
func limit(f float64) string { return gate.LimitText(f) }
