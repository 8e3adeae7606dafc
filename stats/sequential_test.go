package stats_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/serbench/serbench/stats"
)

func TestSpendOBF(t *testing.T) {
	// 2 − 2Φ(1.959964/√0.5) = 2 − 2Φ(2.771808) = 0.005575.
	if got := stats.SpendOBF(0.05, 0.5); math.Abs(got-0.005575) > 2e-5 {
		t.Errorf("SpendOBF(0.05, 0.5) = %v, want 0.005575", got)
	}
	if got := stats.SpendOBF(0.05, 1); got != 0.05 {
		t.Errorf("SpendOBF(0.05, 1) = %v, want all of alpha", got)
	}
	if got := stats.SpendOBF(0.05, 0); got != 0 {
		t.Errorf("SpendOBF(0.05, 0) = %v, want 0", got)
	}
	// The looks' shares add up to alpha.
	sum, prev := 0.0, 0
	for _, n := range []int{20, 40, 60, 80, 100} {
		sum += 1 - stats.LookConfidence(0.05, n, prev, 100)
		prev = n
	}
	if math.Abs(sum-0.05) > 1e-12 {
		t.Errorf("the looks spend %v in all, want 0.05", sum)
	}
	if got := stats.LookConfidence(0.05, 120, 100, 100); got != 1 {
		t.Errorf("a look beyond the plan: confidence %v, want 1", got)
	}
	// Stopped after 80 of 100: the last look spends what 20, 40 and 60
	// left, so the four looks spend alpha in all, more than its share.
	sum, prev = 0, 0
	for _, n := range []int{20, 40, 60} {
		sum += 1 - stats.LookConfidence(0.05, n, prev, 100)
		prev = n
	}
	last := stats.FinalLookConfidence(0.05, 60, 100)
	if math.Abs(sum+1-last-0.05) > 1e-12 || last >= stats.LookConfidence(0.05, 80, 60, 100) {
		t.Errorf("stopped at 80 of 100: last look at %v, the four spend %v; want 0.05 in all, the last below its share %v", last, sum+1-last, stats.LookConfidence(0.05, 80, 60, 100))
	}
	if got := stats.FinalLookConfidence(0.05, 0, 100); math.Abs(got-0.95) > 1e-12 {
		t.Errorf("a single look, the last: confidence %v, want 0.95", got)
	}
}

// TestSequentialFalseAlarms simulates serbench ab -budget on identical
// code: ratios of two equal, noisy timings, looked at after 20, 40, 60, 80
// and 100 rounds, each look's interval at LookConfidence. A false alarm is
// a trial in which any look's interval excludes 1 (no change). Over 2,000
// seeded trials the rate stays at or below alpha within three binomial
// standard errors, as it does when the looks stop after 80 of the 100
// planned and that last look spends what the others left
// (FinalLookConfidence), while looking five times at plain 95% intervals
// does not: the spending is what keeps the error rate.
func TestSequentialFalseAlarms(t *testing.T) {
	const trials, alpha = 2000, 0.05
	looks := []int{20, 40, 60, 80, 100}
	rng := rand.New(rand.NewPCG(41, 2026))
	spent, naive, short := 0, 0, 0
	for range trials {
		ratios := make([]float64, looks[len(looks)-1])
		for i := range ratios {
			// Each side's time wobbles by a few percent, heavier-tailed
			// now and then, as on a shared machine.
			a, b := 1+0.03*rng.NormFloat64(), 1+0.03*rng.NormFloat64()
			if rng.IntN(10) == 0 {
				b *= 1 + 0.2*rng.Float64()
				a *= 1 + 0.2*rng.Float64()
			}
			ratios[i] = b / a
		}
		alarmS, alarmN, alarmF, prev := false, false, false, 0
		// Stopped short: the budget ran out after 80 of the 100 planned,
		// and that last look spends what the others left.
		for i, n := range looks[:4] {
			conf := stats.LookConfidence(alpha, n, prev, looks[len(looks)-1])
			if i == 3 {
				conf = stats.FinalLookConfidence(alpha, prev, looks[len(looks)-1])
			}
			_, lo, hi := stats.PairedChangeAt(ratios[:n], conf)
			alarmF = alarmF || excludesOne(lo, hi)
			prev = n
		}
		prev = 0
		for _, n := range looks {
			_, lo, hi := stats.PairedChangeAt(ratios[:n], stats.LookConfidence(alpha, n, prev, looks[len(looks)-1]))
			alarmS = alarmS || excludesOne(lo, hi)
			_, lo, hi = stats.PairedChangeAt(ratios[:n], 1-alpha)
			alarmN = alarmN || excludesOne(lo, hi)
			prev = n
		}
		if alarmS {
			spent++
		}
		if alarmF {
			short++
		}
		if alarmN {
			naive++
		}
	}
	tolerance := 3 * math.Sqrt(alpha*(1-alpha)/trials)
	rate, naiveRate := float64(spent)/trials, float64(naive)/trials
	t.Logf("false alarms over %d trials: %.4f with alpha spending, %.4f stopping at 80 of 100 with the last look spending the rest, %.4f looking at 95%% intervals each time", trials, rate, float64(short)/trials, naiveRate)
	if rate > alpha+tolerance {
		t.Errorf("false-alarm rate %.4f with alpha spending, want at most %v (+%.4f)", rate, alpha, tolerance)
	}
	if r := float64(short) / trials; r > alpha+tolerance {
		t.Errorf("false-alarm rate %.4f stopping at 80 of 100 with the last look spending the rest, want at most %v (+%.4f)", r, alpha, tolerance)
	}
	if naiveRate <= rate {
		t.Errorf("naive looks %.4f not above the spent ones %.4f: the simulation cannot tell them apart", naiveRate, rate)
	}
}

func TestPairedChangeAt(t *testing.T) {
	ratios := []float64{0.9, 0.95, 0.98, 1, 1.01, 1.02, 1.03, 1.05, 1.1, 1.2, 0.97, 1.04}
	m, lo95, hi95 := stats.PairedChangeAt(ratios, 0.95)
	if m95, l, h, _ := stats.PairedChange(ratios); m != m95 || lo95 != l || hi95 != h {
		t.Errorf("at 95%%: %v [%v, %v], want PairedChange's %v [%v, %v]", m, lo95, hi95, m95, l, h)
	}
	_, lo, hi := stats.PairedChangeAt(ratios, 0.8)
	if !(lo >= lo95 && hi <= hi95) {
		t.Errorf("80%% interval [%v, %v] not inside the 95%% one [%v, %v]", lo, hi, lo95, hi95)
	}
}

// excludesOne reports whether an interval (0, 0 when there is none) lies
// wholly on one side of 1.
func excludesOne(lo, hi float64) bool { return lo > 0 && hi > 0 && (lo > 1 || hi < 1) }
