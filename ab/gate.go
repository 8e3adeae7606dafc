package ab

import (
	"fmt"
	"strings"
)

// A Change is one benchmark figure that moved at head beyond a gate's
// limit: worse (see Regressions) or better (see Improvements).
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
	// Worse is set for a regression, unset for an improvement.
	Worse bool
	// b is the benchmark's comparison, for the time's interval and q.
	b Benchmark
}

// Regressions lists what got worse at head, by the rules of
// `serbench ab -max-regression`, in the order of res.Benchmarks:
//
//   - ns/op, when the change of time is significant after the correction
//     (q ≤ res.Options.Alpha) and its median, Benchmark.Change, exceeds
//     maxRegression (a fraction: 0.05 for 5%). The interval is printed,
//     not required to clear maxRegression: a median above the limit that
//     the sign test says is no accident is enough;
//   - with MeasureInstructions instructions/op instead of ns/op, when the
//     median change exceeds maxRegression and every round's change
//     exceeds res.Options.Tolerance (Benchmark.Significant);
//   - B/op and allocs/op, with no tolerance: when head's figure was higher
//     than base's in every round (which a median that merely moved does
//     not show), whatever maxRegression is.
func Regressions(res *Result, maxRegression float64) []Change {
	return changes(res, maxRegression, true)
}

// Improvements lists what got better at head by the same rules, mirrored:
// a significant change of time below -limit, B/op or allocs/op lower than
// base's in every round.
func Improvements(res *Result, limit float64) []Change {
	return changes(res, limit, false)
}

func changes(res *Result, limit float64, worse bool) []Change {
	var out []Change
	for _, b := range res.Benchmarks {
		c := b.Change()
		if !worse {
			c = -c
		}
		if b.Significant(res.Options.Alpha) && c > limit {
			out = append(out, Change{Benchmark: b.Name, Metric: unit(b.Measure), Base: b.base(), Head: b.head(), Limit: limit, Worse: worse, b: b})
		}
		bytes, allocs := b.BytesUp, b.AllocsUp
		if !worse {
			bytes, allocs = b.BytesDown, b.AllocsDown
		}
		if bytes {
			out = append(out, Change{Benchmark: b.Name, Metric: "B/op", Base: b.BaseBytes, Head: b.HeadBytes, Worse: worse, b: b})
		}
		if allocs {
			out = append(out, Change{Benchmark: b.Name, Metric: "allocs/op", Base: b.BaseAllocs, Head: b.HeadAllocs, Worse: worse, b: b})
		}
	}
	return out
}

// String is one line: "Encode-8: ns/op +12.3% [+10.1%, +14.0%] (1,020 →
// 1,146, q=0.0039), more than 5%" or "Encode-8: allocs/op 1 → 2, higher
// in every one of 10 rounds"; for an improvement "..., better by more than
// 5%" and "lower in every one of 10 rounds".
func (c Change) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %s ", c.Benchmark, c.Metric)
	switch c.Metric {
	case "B/op", "allocs/op":
		fmt.Fprintf(&sb, "%s → %s, %s", figure(c.Base), figure(c.Head), c.evidence())
		return sb.String()
	case "instructions/op":
		sb.WriteString(percent(c.b.Change()))
		if lo, hi, ok := c.b.ChangeInterval(); ok {
			fmt.Fprintf(&sb, " [%s, %s over the rounds]", percent(lo), percent(hi))
		}
		fmt.Fprintf(&sb, " (%s → %s), %s", figure(c.Base), figure(c.Head), c.evidence())
		return sb.String()
	}
	sb.WriteString(percent(c.b.Change()))
	if lo, hi, ok := c.b.ChangeInterval(); ok {
		fmt.Fprintf(&sb, " [%s, %s]", percent(lo), percent(hi))
	}
	fmt.Fprintf(&sb, " (%s → %s, q=%s), %s", figure(c.Base), figure(c.Head), pvalue(c.b.Q), c.evidence())
	return sb.String()
}

// evidence says why c counts: "more than 5%", "better by more than 5%",
// "higher in every one of 10 rounds", "lower in every one of 10 rounds".
func (c Change) evidence() string {
	measured := c.Metric == "ns/op" || c.Metric == "instructions/op"
	switch {
	case measured && c.Worse:
		return "more than " + limit(c.Limit)
	case measured:
		return "better by more than " + limit(c.Limit)
	case c.Worse:
		return fmt.Sprintf("higher in every one of %d rounds", len(c.b.Ratios))
	default:
		return fmt.Sprintf("lower in every one of %d rounds", len(c.b.Ratios))
	}
}

// limit prints a gate's threshold as a percentage: 0.05 is "5%".
func limit(f float64) string { return fmt.Sprintf("%.6g%%", 100*f) }
