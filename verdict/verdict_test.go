package verdict

import (
	"math"
	"testing"
)

func TestJudge(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name      string
		c         Change
		want      Verdict
		corrected bool
		tooWide   float64
		shrink    float64
	}{
		{"beyond", Change{Point: 0.10, Lo: 0.07, Hi: 0.13, Significant: true}, Regressed, false, 0, 0},
		{"beyond, corrected away", Change{Point: 0.08, Lo: 0.06, Hi: 0.124, Significant: false}, Inconclusive, true, 0, 0},
		{"inside", Change{Point: 0.01, Lo: -0.02, Hi: 0.04, Significant: false}, Unchanged, false, 0, 0},
		{"inside, significant", Change{Point: 0.02, Lo: 0.01, Hi: 0.03, Significant: true}, Unchanged, false, 0, 0},
		{"ends at the threshold", Change{Point: 0.01, Lo: -0.03, Hi: 0.05}, Unchanged, false, 0, 0},
		{"below -t", Change{Point: -0.2, Lo: -0.25, Hi: -0.15, Significant: true}, Improved, false, 0, 0},
		{"below -t, corrected away", Change{Point: -0.2, Lo: -0.25, Hi: -0.15}, Unchanged, true, 0, 0},
		{"straddles -t", Change{Point: -0.05, Lo: -0.1, Hi: 0.01, Significant: true}, Unchanged, false, 0, 0},
		// Point below t: the upper side (0.07) must end at t (room 0.03).
		{"straddles, point inside", Change{Point: 0.02, Lo: -0.04, Hi: 0.09}, Inconclusive, false, 0.04, 0.07 / 0.03},
		// Point above t: the lower side (0.05) must clear t (room 0.02).
		{"straddles, point beyond", Change{Point: 0.07, Lo: 0.02, Hi: 0.12, Significant: true}, Inconclusive, false, 0.03, 0.05 / 0.02},
		{"point at the threshold", Change{Point: 0.05, Lo: 0.0, Hi: 0.1}, Inconclusive, false, 0.05, math.Inf(1)},
		{"no interval", Change{Point: 0.3, Lo: nan, Hi: nan, Significant: true}, Inconclusive, false, 0, 0},
		{"bounds reversed", Change{Point: 0, Lo: 0.1, Hi: -0.1}, Inconclusive, false, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			j, err := Judge(tc.c, 0.05)
			if err != nil {
				t.Fatal(err)
			}
			if j.Verdict != tc.want || j.Corrected != tc.corrected {
				t.Errorf("verdict %s (corrected %v), want %s (corrected %v)", j.Verdict, j.Corrected, tc.want, tc.corrected)
			}
			if math.Abs(j.TooWide-tc.tooWide) > 1e-12 {
				t.Errorf("TooWide %v, want %v", j.TooWide, tc.tooWide)
			}
			if !(j.Shrink == tc.shrink || math.Abs(j.Shrink-tc.shrink) < 1e-12) {
				t.Errorf("Shrink %v, want %v", j.Shrink, tc.shrink)
			}
			if tc.c.HasInterval() != !math.IsNaN(j.Resolution) {
				t.Errorf("Resolution %v with an interval %v", j.Resolution, tc.c.HasInterval())
			}
		})
	}
}

func TestJudgeResolution(t *testing.T) {
	j, err := Judge(Change{Point: 0.01, Lo: -0.02, Hi: 0.06}, 0.1)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(j.Resolution-0.05) > 1e-12 {
		t.Errorf("Resolution %v, want the larger half-width 0.05", j.Resolution)
	}
}

func TestJudgeBadThreshold(t *testing.T) {
	for _, th := range []float64{-0.01, math.NaN(), math.Inf(1)} {
		if _, err := Judge(Change{Lo: 0, Hi: 0}, th); err == nil {
			t.Errorf("threshold %v: no error", th)
		}
	}
}

func TestSamples(t *testing.T) {
	j, _ := Judge(Change{Point: 0.02, Lo: -0.04, Hi: 0.08}, 0.05)
	// Shrink 2: four times the 20 rounds.
	if got := j.Samples(20); got != 80 {
		t.Errorf("Samples(20) = %d, want 80", got)
	}
	j, _ = Judge(Change{Point: 0.0, Lo: -0.01, Hi: 0.01}, 0.05)
	if got := j.Samples(20); got != 20 {
		t.Errorf("decided: Samples(20) = %d, want 20", got)
	}
	j, _ = Judge(Change{Point: 0.05, Lo: 0, Hi: 0.1}, 0.05)
	if got := j.Samples(20); got != 0 {
		t.Errorf("point at the threshold: Samples(20) = %d, want 0", got)
	}
}

func TestPercent(t *testing.T) {
	for _, tc := range []struct {
		f, th float64
		want  string
	}{
		{0.12, 0.05, "+12.0%"},
		{0.0503, 0.05, "+5.03%"},
		{0.0500004, 0.05, "+5.0000%"},
		{0.05, 0.05, "+5.0%"},
		{0.0497, 0.05, "+4.97%"},
		{-0.0503, -0.05, "-5.03%"},
		{-0.2, 0.05, "-20.0%"},
	} {
		if got := Percent(tc.f, tc.th); got != tc.want {
			t.Errorf("Percent(%v, %v) = %s, want %s", tc.f, tc.th, got, tc.want)
		}
	}
}
