package ab

import (
	"fmt"
	"strings"
)

// A Regression is one benchmark figure that got worse at head by more than
// a gate allows (see Regressions).
type Regression struct {
	Benchmark string
	// Metric is "ns/op", "B/op" or "allocs/op".
	Metric string
	// Base and Head are the medians of the metric at each side.
	Base, Head float64
	// Limit is the largest change of time allowed, as a fraction; 0 for
	// B/op and allocs/op, which allow none.
	Limit float64
	// b is the benchmark's comparison, for the time's interval and q.
	b Benchmark
}

// Regressions lists what got worse at head, by the rules of
// `serbench ab -max-regression`, in the order of res.Benchmarks:
//
//   - ns/op, when the change of time is significant after the correction
//     (q ≤ res.Options.Alpha) and its median, Change, exceeds
//     maxRegression (a fraction: 0.05 for 5%). The interval is printed, not
//     required to clear maxRegression: a median above the limit that the
//     sign test says is no accident is enough;
//   - B/op and allocs/op, with no tolerance: when head's figure was higher
//     than base's in every round (which a median that merely moved does
//     not show), whatever maxRegression is.
func Regressions(res *Result, maxRegression float64) []Regression {
	var regs []Regression
	for _, b := range res.Benchmarks {
		if b.Significant(res.Options.Alpha) && b.Change() > maxRegression {
			regs = append(regs, Regression{Benchmark: b.Name, Metric: "ns/op", Base: b.BaseNs, Head: b.HeadNs, Limit: maxRegression, b: b})
		}
		if b.BytesUp {
			regs = append(regs, Regression{Benchmark: b.Name, Metric: "B/op", Base: b.BaseBytes, Head: b.HeadBytes, b: b})
		}
		if b.AllocsUp {
			regs = append(regs, Regression{Benchmark: b.Name, Metric: "allocs/op", Base: b.BaseAllocs, Head: b.HeadAllocs, b: b})
		}
	}
	return regs
}

// String is one line: "Encode-8: ns/op +12.3% [+10.1%, +14.0%] (1,020 →
// 1,146, q=0.0039), more than 5%" or "Encode-8: allocs/op 1 → 2, higher
// in every one of 10 rounds".
func (r Regression) String() string {
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %s ", r.Benchmark, r.Metric)
	if r.Metric != "ns/op" {
		fmt.Fprintf(&sb, "%s → %s, higher in every one of %d rounds", figure(r.Base), figure(r.Head), len(r.b.Ratios))
		return sb.String()
	}
	sb.WriteString(percent(r.b.Change()))
	if lo, hi, ok := r.b.ChangeInterval(); ok {
		fmt.Fprintf(&sb, " [%s, %s]", percent(lo), percent(hi))
	}
	fmt.Fprintf(&sb, " (%s → %s, q=%s), more than %s", figure(r.Base), figure(r.Head), pvalue(r.b.Q), limit(r.Limit))
	return sb.String()
}

// limit prints a gate's threshold as a percentage: 0.05 is "5%".
func limit(f float64) string { return fmt.Sprintf("%.6g%%", 100*f) }
