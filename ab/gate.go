package ab

import (
	"fmt"
	"math"
	"strings"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/verdict"
)

// A Change is one benchmark figure judged by a gate: worse beyond its
// limit (see Regressions), better beyond it (see Improvements), or, for
// the compared figure (ns/op or instructions/op), not resolved either way
// (see Inconclusive).
type Change struct {
	Benchmark string
	// Metric is "ns/op" (or "instructions/op" with MeasureInstructions),
	// "B/op" or "allocs/op".
	Metric string
	// Base and Head are the medians of the metric at each side.
	Base, Head float64
	// Limit is the largest change of time the gate lets pass, as a
	// fraction; 0 for B/op and allocs/op, which allow none.
	Limit float64
	// Worse is set for a regression, unset for an improvement and for an
	// inconclusive figure.
	Worse bool
	// Judgement is the verdict on the compared figure's change at Limit
	// (verdict.Judge); for B/op and allocs/op, Regressed or Improved.
	Judgement verdict.Judgement
	// b is the benchmark's comparison, for the time's interval and q.
	b Benchmark
	// benchmarks is the number of benchmarks compared, the family the
	// correction is over; layouts the run's Options.Layouts.
	benchmarks, layouts int
}

// Judge is the verdict on benchmark b's change of the compared figure at
// threshold maxRegression (a fraction, 0.05 for 5%; a negative one counts
// as 0), by the rule of package verdict that serbench compare and the
// results explorer share: the change's interval (Benchmark.ChangeInterval:
// the 95% distribution-free interval of the median ratio, with
// MeasureInstructions its range over the rounds) against the threshold,
// with significance as Benchmark.Significant at res.Options.Alpha.
// Without an interval (fewer than 6 rounds) it is verdict.Inconclusive.
func (res *Result) Judge(b Benchmark, maxRegression float64) verdict.Judgement {
	c := verdict.Change{Point: b.Change(), Significant: b.Significant(res.Options.Alpha)}
	c.Lo, c.Hi = nan, nan
	if lo, hi, ok := b.ChangeInterval(); ok {
		c.Lo, c.Hi = lo, hi
	}
	j, err := verdict.Judge(c, max(maxRegression, 0))
	if err != nil {
		// Only a NaN or infinite threshold gets here.
		return verdict.Judgement{Verdict: verdict.Inconclusive, Threshold: maxRegression, Resolution: nan}
	}
	return j
}

var nan = math.NaN()

// Regressions lists what got worse at head, by the rules of
// `serbench ab -max-regression`, in the order of res.Benchmarks:
//
//   - ns/op (instructions/op with MeasureInstructions) when Judge says
//     verdict.Regressed: the change's whole interval lies beyond
//     maxRegression (a fraction: 0.05 for 5%) and the change is
//     significant (Benchmark.Significant). A median beyond the limit whose
//     interval reaches back inside it is Inconclusive, not a regression;
//   - B/op and allocs/op, with no tolerance: when head's figure was higher
//     than base's in every round (which a median that merely moved does
//     not show), whatever maxRegression is.
func Regressions(res *Result, maxRegression float64) []Change {
	return changes(res, maxRegression, verdict.Regressed)
}

// Improvements lists what got better at head by the same rules, mirrored:
// a change of time whose verdict is verdict.Improved (its interval wholly
// below -limit, significant), B/op or allocs/op lower than base's in every
// round.
func Improvements(res *Result, limit float64) []Change {
	return changes(res, limit, verdict.Improved)
}

// Inconclusive lists the benchmarks whose change of the compared figure
// (ns/op, or instructions/op) the run could not resolve at maxRegression:
// Judge says verdict.Inconclusive (the interval straddles the limit, there
// is no interval, or the correction left a change beyond the limit not
// significant). A gate must not pass them as unchanged: serbench ab
// -max-regression exits with status 3 when there are some and no
// regression. Change.String says by how much the interval was too wide
// and what would resolve it.
func Inconclusive(res *Result, maxRegression float64) []Change {
	return changes(res, maxRegression, verdict.Inconclusive)
}

func changes(res *Result, limit float64, want verdict.Verdict) []Change {
	var out []Change
	worse := want == verdict.Regressed
	for _, b := range res.Benchmarks {
		if len(b.Ratios) == 0 {
			continue
		}
		j := res.Judge(b, limit)
		if j.Verdict == want {
			out = append(out, Change{Benchmark: b.Name, Metric: unit(b.Measure), Base: b.base(), Head: b.head(), Limit: j.Threshold, Worse: worse, Judgement: j, b: b, benchmarks: len(res.Benchmarks), layouts: res.Options.Layouts})
		}
		if want == verdict.Inconclusive {
			continue
		}
		bytes, allocs := b.BytesUp, b.AllocsUp
		if !worse {
			bytes, allocs = b.BytesDown, b.AllocsDown
		}
		mem := verdict.Judgement{Verdict: want}
		if bytes {
			out = append(out, Change{Benchmark: b.Name, Metric: "B/op", Base: b.BaseBytes, Head: b.HeadBytes, Worse: worse, Judgement: mem, b: b})
		}
		if allocs {
			out = append(out, Change{Benchmark: b.Name, Metric: "allocs/op", Base: b.BaseAllocs, Head: b.HeadAllocs, Worse: worse, Judgement: mem, b: b})
		}
	}
	return out
}

// String is one line: "Encode-8: ns/op +12.3% [+10.1%, +14.0%] (1,020 →
// 1,146, q=0.0039), the interval lies beyond 5%" or "Encode-8: allocs/op
// 1 → 2, higher in every one of 10 rounds"; for an improvement "..., the
// interval lies below -5%" and "lower in every one of 10 rounds"; for an
// inconclusive change "..., inconclusive at 5%: " and why (Reason).
// Percentages carry as many digits as it takes not to print a change
// equal to the limit it is held against (verdict.Percent).
func (c Change) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %s ", c.Benchmark, c.Metric)
	switch c.Metric {
	case "B/op", "allocs/op":
		fmt.Fprintf(&sb, "%s → %s, %s", figure(c.Base), figure(c.Head), c.evidence())
		return sb.String()
	}
	sb.WriteString(c.changeText())
	if c.Metric == "instructions/op" {
		fmt.Fprintf(&sb, " (%s → %s), %s", figure(c.Base), figure(c.Head), c.evidence())
		return sb.String()
	}
	fmt.Fprintf(&sb, " (%s → %s, q=%s), %s", figure(c.Base), figure(c.Head), pvalue(c.b.Q), c.evidence())
	return sb.String()
}

// changeText is the compared figure's change with its interval, to as
// many digits as distinguish them from the limit: "+7.4% [+2.1%, +12.9%]",
// with MeasureInstructions "... over the rounds]", without an interval
// "+7.4% (no interval)".
func (c Change) changeText() string {
	t := c.Limit
	if c.b.Change() < 0 {
		t = -t
	}
	s := verdict.Percent(c.b.Change(), t)
	lo, hi, ok := c.b.ChangeInterval()
	switch {
	case !ok:
		return s + " (no interval)"
	case c.Metric == "instructions/op":
		return fmt.Sprintf("%s [%s, %s over the rounds]", s, verdict.Percent(lo, c.Limit), verdict.Percent(hi, c.Limit))
	}
	return fmt.Sprintf("%s [%s, %s]", s, verdict.Percent(lo, c.Limit), verdict.Percent(hi, c.Limit))
}

// evidence says why c counts: "the interval lies beyond 5%", "the
// interval lies below -5%", "higher in every one of 10 rounds", "lower in
// every one of 10 rounds", or for an inconclusive change "inconclusive at
// 5%: " and its Reason.
func (c Change) evidence() string {
	measured := c.Metric == "ns/op" || c.Metric == "instructions/op"
	switch {
	case measured && c.Judgement.Verdict == verdict.Inconclusive:
		return "inconclusive at " + limit(c.Limit) + ": " + c.Reason()
	case measured && c.Worse:
		return "the interval lies beyond " + limit(c.Limit)
	case measured:
		return "the interval lies below -" + limit(c.Limit)
	case c.Worse:
		return fmt.Sprintf("higher in every one of %d rounds", len(c.b.Ratios))
	default:
		return fmt.Sprintf("lower in every one of %d rounds", len(c.b.Ratios))
	}
}

// Reason says, for an inconclusive change, why the run could not decide
// and what would: "the interval reaches 2.9 points past 5% on the side
// that would have decided (1.6× too wide): about 52 rounds (-rounds 52),
// -layouts 4, -measure instructions or a quieter runner would resolve
// it"; for a change whose interval lies beyond the limit but that the
// correction left not significant, that; with too few rounds for an
// interval, how many are needed. "" for a decided change.
func (c Change) Reason() string {
	j := c.Judgement
	if j.Verdict != verdict.Inconclusive {
		return ""
	}
	rounds := len(c.b.Ratios)
	instructions := c.Metric == "instructions/op"
	if _, _, ok := c.b.ChangeInterval(); !ok {
		return fmt.Sprintf("%d rounds give no interval; -rounds %d or more do", rounds, minRoundsFor(0.05))
	}
	if j.Corrected {
		if instructions {
			return fmt.Sprintf("the range lies beyond %s but not every round is beyond the tolerance %s", limit(c.Limit), limit(c.b.Tolerance))
		}
		return fmt.Sprintf("the interval lies beyond %s, but q=%s after %s over the %s is above alpha: the correction left it not significant",
			limit(c.Limit), pvalue(c.b.Q), compare.Correction, benchmarks(c.benchmarks))
	}
	var cures []string
	if n := j.Samples(rounds); n > 0 && n <= MaxRounds {
		cures = append(cures, fmt.Sprintf("about %d rounds (-rounds %d)", n, n))
	} else {
		cures = append(cures, "more rounds")
	}
	if !instructions {
		cures = append(cures, fmt.Sprintf("-layouts %d", min(MaxLayouts, max(DefaultLayouts, 2*c.layouts))), "-measure instructions")
	}
	cures = append(cures, "a quieter runner")
	wide := "too wide to decide"
	if j.Shrink < 1e6 {
		wide = fmt.Sprintf("%.1f× too wide", j.Shrink)
	}
	return fmt.Sprintf("the interval reaches %.1f points past %s (%s; the smallest change this run resolves is %s): %s would resolve it",
		100*j.TooWide, limit(c.Limit), wide, resolution(j.Resolution), orList(cures))
}

// orList joins "a", "b" and "c" as "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// limit prints a gate's threshold as a percentage: 0.05 is "5%".
func limit(f float64) string { return fmt.Sprintf("%.3g%%", 100*f) }
