package load

import (
	"context"
	"fmt"
	"math"
	"time"
)

// MaxSearch finds the highest request rate a server sustains within a
// latency objective, by running fixed-rate steps:
//
//  1. Start at Start. While a step passes, double the rate (up to Limit);
//     while the first steps fail, halve it (down to Floor).
//  2. Once a passing rate lo and a failing rate hi are known, bisect:
//     try (lo+hi)/2, which becomes the new lo if it passes and hi if not,
//     until hi-lo <= Precision*lo or MaxSteps steps have run.
//
// A step passes when its p99 latency is at most SLO, it had no errors, and
// the server answered at least MinThroughput of the rate offered (a server
// or client that falls behind fails the step even if the requests it did
// answer were fast). The answer is the highest passing rate, or 0 when
// none passed.
type MaxSearch struct {
	// SLO bounds the p99 latency of a passing step. Required; range (0, 1h].
	SLO time.Duration
	// Start is the first rate tried, in requests/s. Default 100.
	Start float64
	// Limit and Floor bound the rates tried. Defaults 1e6 and 1.
	Limit, Floor float64
	// Precision ends the bisection when hi-lo <= Precision*lo. Default 0.1.
	Precision float64
	// MaxSteps bounds the steps. Default 16.
	MaxSteps int
	// MinThroughput is the share of the offered rate a passing step must
	// answer, in [0,1]. Default 0.95.
	MinThroughput float64
}

// MaxStep is one step of a MaxSearch: the rate tried and what it measured.
type MaxStep struct {
	Rate         float64 `json:"rate"`
	P99Ms        float64 `json:"p99_ms"`
	Errors       uint64  `json:"errors"`
	RequestsPerS float64 `json:"requests_per_s"`
	Pass         bool    `json:"pass"`
	// Why says why a step failed ("p99 21.3ms > 15ms", "3 errors", ...).
	Why string `json:"why,omitempty"`
}

// Measure runs one step at rate and returns what it measured (Pass and Why
// are set by MaxSearch.Run), and the full result, kept for the best step.
type Measure func(ctx context.Context, rate float64) (MaxStep, HTTPResult, error)

func (s MaxSearch) effective() (MaxSearch, error) {
	if s.Start == 0 {
		s.Start = 100
	}
	if s.Limit == 0 {
		s.Limit = 1e6
	}
	if s.Floor == 0 {
		s.Floor = 1
	}
	if s.Precision == 0 {
		s.Precision = 0.1
	}
	if s.MaxSteps == 0 {
		s.MaxSteps = 16
	}
	if s.MinThroughput == 0 {
		s.MinThroughput = 0.95
	}
	switch {
	case CheckSLO(s.SLO) != nil:
		return s, CheckSLO(s.SLO)
	case !(s.Floor > 0 && s.Floor <= s.Start && s.Start <= s.Limit) || math.IsInf(s.Limit, 0):
		return s, fmt.Errorf("load: invalid search rates: floor %g, start %g, limit %g (want 0 < floor <= start <= limit)", s.Floor, s.Start, s.Limit)
	case !(s.Precision > 0 && s.Precision < 1):
		return s, fmt.Errorf("load: invalid search precision %g (range is (0, 1))", s.Precision)
	case s.MaxSteps < 1 || s.MaxSteps > 1000:
		return s, fmt.Errorf("load: invalid search steps %d (range is [1, 1000])", s.MaxSteps)
	case !(s.MinThroughput >= 0 && s.MinThroughput <= 1):
		return s, fmt.Errorf("load: invalid MinThroughput %g (range is [0, 1])", s.MinThroughput)
	}
	return s, nil
}

// judge sets st.Pass and st.Why.
func (s MaxSearch) judge(st *MaxStep) {
	slo := float64(s.SLO) / float64(time.Millisecond)
	switch {
	case st.Errors > 0:
		st.Why = fmt.Sprintf("%d errors", st.Errors)
	case st.P99Ms > slo:
		st.Why = fmt.Sprintf("p99 %.3gms > %.3gms", st.P99Ms, slo)
	case st.RequestsPerS < s.MinThroughput*st.Rate:
		st.Why = fmt.Sprintf("answered %.0f/s of %.0f/s", st.RequestsPerS, st.Rate)
	default:
		st.Pass = true
	}
}

// Run searches with measure. It returns the highest passing rate (0 if
// none), the result of that step, and every step in the order run.
func (s MaxSearch) Run(ctx context.Context, measure Measure) (best float64, bestResult HTTPResult, steps []MaxStep, err error) {
	if s, err = s.effective(); err != nil {
		return 0, bestResult, nil, err
	}
	try := func(rate float64) (bool, error) {
		st, r, err := measure(ctx, rate)
		if err != nil {
			return false, err
		}
		st.Rate = rate
		s.judge(&st)
		steps = append(steps, st)
		if st.Pass && rate > best {
			best, bestResult = rate, r
		}
		return st.Pass, nil
	}
	lo, hi := 0.0, 0.0 // highest pass, lowest fail (0: none yet)
	for rate := s.Start; len(steps) < s.MaxSteps; {
		pass, err := try(rate)
		if err != nil {
			return best, bestResult, steps, err
		}
		if pass {
			lo = rate
			if hi != 0 || rate >= s.Limit {
				break
			}
			rate = min(rate*2, s.Limit)
			continue
		}
		hi = rate
		if lo != 0 || rate <= s.Floor {
			break
		}
		rate = max(rate/2, s.Floor)
	}
	for lo > 0 && hi > 0 && hi-lo > s.Precision*lo && len(steps) < s.MaxSteps {
		mid := (lo + hi) / 2
		pass, err := try(mid)
		if err != nil {
			return best, bestResult, steps, err
		}
		if pass {
			lo = mid
		} else {
			hi = mid
		}
	}
	return best, bestResult, steps, nil
}

// CheckSLO reports whether slo is a valid MaxSearch.SLO (range (0, 1h]),
// so a command can reject a bad value when it parses it, before any load
// or server starts.
func CheckSLO(slo time.Duration) error {
	if slo <= 0 || slo > time.Hour {
		return fmt.Errorf("load: invalid SLO %v (range is (0, 1h])", slo)
	}
	return nil
}
