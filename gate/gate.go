// Package gate is the regression gate that serbench ab -max-regression
// and serbench compare -max-regression share: the judged figure (Figure),
// how judged figures sort into regressed, inconclusive and improved
// (Sort), the line each prints (Figure.String), and the exit status of
// the gate (Sorted.Status). The rule a change is judged by is package
// verdict's; ab and compare turn their benchmarks and cells into Figures
// and add only the remedies and notes that fit the tool.
//
// The package is pure: it imports package verdict and the standard
// library, never ab or compare, and does no I/O.
package gate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/serbench/serbench/verdict"
)

// A Figure is one figure of one benchmark or cell as a gate judged it.
type Figure struct {
	// Name is the benchmark ("Encode-8") or the cell ("codec=cbor
	// scenario=sse-event op=marshal").
	Name string
	// Metric is the figure's unit as the tool names it: "ns/op",
	// "instructions/op", "speed-up", "normalised ns/op", "B/op",
	// "allocs/op", "size", ...
	Metric string
	// Base and Head are the figure at each side (medians, or the
	// speed-ups over a baseline with Speedup; B/op, allocs/op and bytes
	// as the testing package prints them).
	Base, Head float64
	// Change is the measured change, a fraction of Base positive when
	// worse, with its interval (NaN bounds when there is none) and its
	// corrected significance.
	Change verdict.Change
	// Q is the change's p-value after the multiple-comparison
	// correction, printed as q=Q when positive (0: the figure had no
	// test).
	Q float64
	// Judgement is the verdict on Change at Judgement.Threshold, the
	// gate's limit (a fraction: 0.05 for 5%): verdict.Judge's for a
	// figure judged by its interval; set by the tool for one judged
	// otherwise (Evidence says how).
	Judgement verdict.Judgement
	// Speedup is set when Base and Head are speed-ups over a baseline
	// (a fall is the regression): the line prints them with ×, and the
	// change as time relative to the baseline.
	Speedup bool
	// Range is set when the interval is the change's range over the
	// rounds (instructions counted under valgrind), printed
	// "[lo, hi over the rounds]".
	Range bool
	// Counts is set for a figure whose line gives Base → Head without a
	// change (a base of 0 B/op has no percentage).
	Counts bool
	// Text, when set, is the whole line after the name, for a figure
	// without numbers ("no longer round-trips exactly").
	Text string
	// Evidence says why a decided figure that was not judged by its
	// interval counts: "higher in every one of 10 rounds". Empty for a
	// figure judged by its interval: the line then says "the interval
	// lies beyond 5%" (or "below -5%").
	Evidence string
	// Note says why an inconclusive figure could not be decided when the
	// width of its interval is not why (too few samples for an interval,
	// a shift of the whole process, ...). Empty otherwise.
	Note string
	// Correction names the multiple-comparison correction and the family
	// it was over, "benjamini-hochberg over the 4 benchmarks", for the
	// line of a change whose interval lies beyond the limit but that the
	// correction left not significant (Judgement.Corrected).
	Correction string
	// Remedies are what would resolve an inconclusive figure whose
	// interval is too wide, most specific first: "about 52 rounds
	// (-rounds 52)", "-layouts 4", ..., "a quieter runner".
	Remedies []string
}

// Limit is the gate's threshold the figure was held against, a fraction.
func (f Figure) Limit() float64 { return f.Judgement.Threshold }

// Sorted is judged figures by verdict, each in the order given to Sort.
type Sorted struct {
	Regressed, Inconclusive, Improved []Figure
}

// Sort sorts figs by their verdict; unchanged figures are left out.
func Sort(figs []Figure) Sorted {
	var s Sorted
	for _, f := range figs {
		switch f.Judgement.Verdict {
		case verdict.Regressed:
			s.Regressed = append(s.Regressed, f)
		case verdict.Inconclusive:
			s.Inconclusive = append(s.Inconclusive, f)
		case verdict.Improved:
			s.Improved = append(s.Improved, f)
		}
	}
	return s
}

// The exit statuses of a gate, as serbench ab and serbench compare
// -max-regression exit (docs/reference.md): no figure regressed and none
// inconclusive; a figure regressed; none regressed but one could not be
// decided. Status 2 is the command line's usage error.
const (
	StatusPassed       = 0
	StatusRegressed    = 1
	StatusInconclusive = 3
)

// Status is the gate's exit status over s: Status(len(s.Regressed),
// len(s.Inconclusive)).
func (s Sorted) Status() int { return Status(len(s.Regressed), len(s.Inconclusive)) }

// Status is the exit status of a gate that found regressed figures and
// inconclusive ones: StatusRegressed when a figure regressed, else
// StatusInconclusive when one is inconclusive, else StatusPassed.
// Improvements do not change it.
func Status(regressed, inconclusive int) int {
	switch {
	case regressed > 0:
		return StatusRegressed
	case inconclusive > 0:
		return StatusInconclusive
	}
	return StatusPassed
}

// String is the figure's line, the name, the figure, its change and why
// it counts: "Encode-8: ns/op +12.3% [+10.1%, +14.0%] (1,020 → 1,146,
// q=0.0039), the interval lies beyond 5%"; "codec=C scenario=S op=O:
// speed-up 5.03× → 4.53× (+10.9% [+8.2%, +13.5%] time relative to the
// baseline, q=8.7e-05), the interval lies beyond 5%"; "Encode-8:
// allocs/op 1 → 2, higher in every one of 10 rounds"; for an
// inconclusive figure "..., inconclusive at 5%: " and why (Reason).
func (f Figure) String() string {
	if f.Text != "" {
		return f.Name + ": " + f.Text
	}
	var s string
	q := ""
	if f.Q > 0 {
		q = ", q=" + PValue(f.Q)
	}
	switch {
	case f.Counts:
		s = fmt.Sprintf("%s: %s %s → %s", f.Name, f.Metric, Amount(f.Base), Amount(f.Head))
	case f.Speedup:
		s = fmt.Sprintf("%s: %s %.2f× → %.2f× (%s time relative to the baseline%s)", f.Name, f.Metric, f.Base, f.Head, f.ChangeText(), q)
	default:
		s = fmt.Sprintf("%s: %s %s (%s → %s%s)", f.Name, f.Metric, f.ChangeText(), Amount(f.Base), Amount(f.Head), q)
	}
	if why := f.Why(); why != "" {
		s += ", " + why
	}
	return s
}

// ChangeText is the change with its interval, each to as many digits as
// tell it from the limit (verdict.Percent): "+7.4% [+2.1%, +12.9%]",
// with Range "+7.4% [+7.3%, +7.5% over the rounds]", without an interval
// "+7.4%".
func (f Figure) ChangeText() string {
	c := f.Change
	s := verdict.Percent(c.Point, toward(c.Point, f.Limit()))
	if !c.HasInterval() {
		return s
	}
	over := ""
	if f.Range {
		over = " over the rounds"
	}
	return fmt.Sprintf("%s [%s, %s%s]", s, verdict.Percent(c.Lo, toward(c.Lo, f.Limit())), verdict.Percent(c.Hi, toward(c.Hi, f.Limit())), over)
}

// toward is the limit on x's side of 0: a fall is held against -limit.
func toward(x, limit float64) float64 {
	if x < 0 {
		return -limit
	}
	return limit
}

// Why says why the figure counts: Evidence when set, "the interval lies
// beyond 5%" for a regression judged by its interval, "the interval lies
// below -5%" for an improvement, "inconclusive at 5%: " and Reason for an
// inconclusive figure; "" for an unchanged one.
func (f Figure) Why() string {
	switch f.Judgement.Verdict {
	case verdict.Inconclusive:
		return "inconclusive at " + LimitText(f.Limit()) + ": " + f.Reason()
	case verdict.Unchanged:
		return ""
	}
	switch {
	case f.Evidence != "":
		return f.Evidence
	case f.Judgement.Verdict == verdict.Regressed:
		return "the interval lies beyond " + LimitText(f.Limit())
	default:
		return "the interval lies below -" + LimitText(f.Limit())
	}
}

// Reason says, for an inconclusive figure, why the run could not decide
// and what would: Note when set; "too few samples for an interval"; for a
// change whose interval lies beyond the limit but that the correction
// left not significant, that, with q and the Correction; otherwise "the
// interval reaches 2.9 points past 5% (1.6× too wide; the smallest change
// this run resolves is ±4.1%): " and the Remedies, "... would resolve
// it". "" for a decided figure.
func (f Figure) Reason() string {
	j := f.Judgement
	switch {
	case j.Verdict != verdict.Inconclusive:
		return ""
	case f.Note != "":
		return f.Note
	case !f.Change.HasInterval():
		return "too few samples for an interval"
	case j.Corrected:
		return fmt.Sprintf("the interval lies beyond %s, but q=%s after %s is above alpha: the correction left it not significant",
			LimitText(f.Limit()), PValue(f.Q), f.Correction)
	}
	// A factor of 100 or more (10,000 times the samples) says that the
	// change sits at the limit, where no run decides: "3131.7× too wide"
	// for +1.997% at a 2% gate says nothing more useful.
	wide := "too wide to decide"
	if j.Shrink < 100 {
		wide = fmt.Sprintf("%.1f× too wide", j.Shrink)
	}
	s := fmt.Sprintf("the interval reaches %.1f points past %s (%s; the smallest change this run resolves is %s)",
		100*j.TooWide, LimitText(f.Limit()), wide, Resolution(j.Resolution))
	if len(f.Remedies) > 0 {
		s += ": " + orList(f.Remedies) + " would resolve it"
	}
	return s
}

// orList joins "a", "b" and "c" as "a, b or c".
func orList(xs []string) string {
	if len(xs) < 2 {
		return strings.Join(xs, "")
	}
	return strings.Join(xs[:len(xs)-1], ", ") + " or " + xs[len(xs)-1]
}

// LimitText prints a gate's threshold, a fraction, as a percentage: 0.05
// is "5%", 0.025 "2.5%".
func LimitText(f float64) string { return fmt.Sprintf("%.3g%%", 100*f) }

// Resolution prints the smallest change a run resolves, a fraction, as
// "±4.1%".
func Resolution(f float64) string { return fmt.Sprintf("±%.1f%%", 100*f) }

// PValue prints a p- or q-value with two significant digits: "0.0039",
// "8.7e-05".
func PValue(p float64) string { return strconv.FormatFloat(p, 'g', 2, 64) }

// Amount prints a figure of a side: whole numbers and any of 100 or more
// in full with thousands separated (1,146), others with three
// significant digits (12.3, 0.251).
func Amount(x float64) string {
	switch {
	case x == math.Trunc(x) || math.Abs(x) >= 100:
		return grouped(strconv.FormatFloat(math.Round(x), 'f', 0, 64))
	default:
		return strconv.FormatFloat(x, 'g', 3, 64)
	}
}

// grouped puts a comma between each group of three digits of an integer.
func grouped(s string) string {
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return sign + s
}
