// Package verdict is the one rule by which serbench decides what a measured
// change means for a regression gate: serbench ab, serbench compare
// -max-regression and the results explorer's diff (package site) all
// judge a change with Judge, so that the same interval gets the same
// verdict wherever it is shown.
//
// A change is a fraction of the old value, positive when worse (0.05: 5%
// slower), measured with a confidence interval Lo..Hi around its point
// estimate. Against a threshold t (the gate's -max-regression, a fraction)
// the interval decides:
//
//   - Regressed: the whole interval lies beyond t (Lo > t) and the change
//     is significant after the caller's multiple-comparison correction;
//   - Unchanged: no part of the interval lies beyond t (Hi ≤ t): whatever
//     the true change is, the run shows it is not worse than t;
//   - Improved: the whole interval lies below -t and the change is
//     significant: an Unchanged that is also better by more than t;
//   - Inconclusive: the interval straddles t (Lo ≤ t < Hi), there is no
//     interval, or the interval lies beyond t but the correction left the
//     change not significant. The run could not tell a change beyond t
//     from one within it, and a gate must not report that as Unchanged.
//
// This is the equivalence-testing reading of an interval (Schuirmann,
// "A comparison of the two one-sided tests procedure and the power
// approach for assessing the equivalence of average bioavailability",
// Journal of Pharmacokinetics and Biopharmaceutics 15(6), 1987): a
// change is shown to lie within a margin only by an interval that lies
// within it, never by a test that failed to find a difference.
//
// The package is pure: standard library only, no I/O.
package verdict

import (
	"fmt"
	"math"
)

// Verdict is the outcome of Judge.
type Verdict string

// The verdicts, as the command line, the JSON documents and the pull
// request comment print them.
const (
	Regressed    Verdict = "regressed"
	Inconclusive Verdict = "inconclusive"
	Unchanged    Verdict = "unchanged"
	Improved     Verdict = "improved"
)

// Change is a measured change with its confidence interval, each a
// fraction of the old value, positive when worse: Point 0.07 with Lo 0.02
// and Hi 0.12 is "7% slower, between 2% and 12%".
type Change struct {
	// Point is the estimate (a median ratio minus 1, a ratio of
	// geometric means minus 1, ...).
	Point float64
	// Lo and Hi bound Point's interval, Lo ≤ Point ≤ Hi. A NaN bound, or
	// Lo > Hi, means no interval was had (too few samples).
	Lo, Hi float64
	// Significant is the caller's test after its multiple-comparison
	// correction (q ≤ alpha). An interval can exclude 0 while the
	// corrected test does not; Judge then says so (Judgement.Corrected).
	Significant bool
}

// HasInterval reports whether c carries an interval.
func (c Change) HasInterval() bool {
	return !math.IsNaN(c.Lo) && !math.IsNaN(c.Hi) && c.Lo <= c.Hi
}

// Judgement is the verdict on a Change at a threshold, with what a reader
// needs to act on it.
type Judgement struct {
	Verdict Verdict `json:"verdict"`
	// Threshold is the gate's limit, a fraction (0.05 for 5%).
	Threshold float64 `json:"threshold"`
	// Resolution is the smallest change the run could have told from no
	// change at the interval's confidence: the interval's larger
	// half-width around Point, a fraction (0.04: ±4%). A change must
	// exceed Threshold by about Resolution to read Regressed, and a run
	// whose Resolution exceeds Threshold cannot read Unchanged even for
	// identical code. NaN without an interval.
	Resolution float64 `json:"resolution"`
	// TooWide is, for Inconclusive with an interval, by how much the
	// interval's side toward the threshold overreaches it: Hi - Threshold
	// when Point ≤ Threshold (the interval would have to end at the
	// threshold to read Unchanged), Threshold - Lo when Point > Threshold
	// (to read Regressed); a fraction, 0 otherwise.
	TooWide float64 `json:"too_wide,omitempty"`
	// Shrink is, for Inconclusive with an interval, the factor by which
	// that side of the interval would have to narrow to decide, if the
	// point estimate stayed where it is (at least 1; +Inf when Point is
	// exactly the threshold). An interval narrows with the square root of
	// the samples, so about Shrink² times the samples would decide.
	Shrink float64 `json:"shrink,omitempty"`
	// Corrected is set when the interval lies wholly beyond the
	// threshold, or wholly below its negative, but the multiple-comparison
	// correction left the change not significant: Regressed became
	// Inconclusive, Improved became Unchanged.
	Corrected bool `json:"corrected,omitempty"`
}

// Judge returns the verdict on c at threshold (a fraction, 0.05 for 5%;
// see the package documentation for the rule). A threshold that is
// negative or NaN is an error.
func Judge(c Change, threshold float64) (Judgement, error) {
	if !(threshold >= 0) || math.IsInf(threshold, 0) {
		return Judgement{}, fmt.Errorf("verdict: invalid threshold %v (want a finite fraction >= 0, 0.05 for 5%%)", threshold)
	}
	j := Judgement{Threshold: threshold, Resolution: math.NaN()}
	if !c.HasInterval() {
		j.Verdict = Inconclusive
		return j, nil
	}
	j.Resolution = max(c.Hi-c.Point, c.Point-c.Lo)
	switch {
	case c.Lo > threshold && c.Significant:
		j.Verdict = Regressed
	case c.Hi < -threshold && c.Significant:
		j.Verdict = Improved
	case c.Hi < -threshold:
		j.Verdict, j.Corrected = Unchanged, true
	case c.Hi <= threshold:
		j.Verdict = Unchanged
	case c.Lo > threshold:
		j.Verdict, j.Corrected = Inconclusive, true
	default:
		j.Verdict = Inconclusive
		side, room := c.Hi-c.Point, threshold-c.Point
		j.TooWide = c.Hi - threshold
		if c.Point > threshold {
			side, room = c.Point-c.Lo, c.Point-threshold
			j.TooWide = threshold - c.Lo
		}
		j.Shrink = math.Inf(1)
		if room > 0 {
			j.Shrink = max(1, side/room)
		}
	}
	return j, nil
}

// Samples is about how many samples (rounds, pairs, runs) would decide an
// Inconclusive judgement reached with n: n·Shrink², rounded up, if the
// point estimate stays where it is and the interval narrows as 1/√n.
// It is n for any other verdict, and 0 when no finite count would do
// (no interval, or Point exactly at the threshold).
func (j Judgement) Samples(n int) int {
	if j.Verdict != Inconclusive || j.Corrected {
		return n
	}
	if !(j.Shrink >= 1) || math.IsInf(j.Shrink, 0) {
		return 0
	}
	return int(math.Ceil(float64(n) * j.Shrink * j.Shrink))
}

// Percent prints a fraction as a signed percentage with one decimal, or
// with more when one decimal would print it equal to the threshold (a
// fraction) it is being held against while it differs: Percent(0.0503,
// 0.05) is "+5.03%", Percent(0.12, 0.05) "+12.0%". It prints at most four
// decimals.
func Percent(f, threshold float64) string {
	for digits := 1; ; digits++ {
		s := fmt.Sprintf("%+.*f%%", digits, 100*f)
		t := fmt.Sprintf("%+.*f%%", digits, 100*threshold)
		if s != t || f == threshold || digits == 4 {
			return s
		}
	}
}
