package load

import (
	"context"
	"time"
)

// HTTPMax finds codec id's highest request rate whose p99 latency stays
// within slo: a MaxSearch from o.Rate whose every step is an HTTPPhase of
// o.Duration. The result is the last step's, with SLOMs, MaxRate (0 when
// no rate passed, and then the result holds no measurement) and Steps set.
// o must be Effective.
func HTTPMax(ctx context.Context, o HTTPOptions, id string, slo time.Duration) (HTTPResult, error) {
	s := MaxSearch{SLO: slo, Start: o.Rate}
	best, r, steps, err := s.Run(ctx, func(ctx context.Context, rate float64) (MaxStep, HTTPResult, error) {
		r, err := HTTPPhase(ctx, o, id, rate)
		return MaxStep{P99Ms: r.P99Ms, Errors: r.Errors, RequestsPerS: r.RequestsPerS}, r, err
	})
	if err != nil {
		return r, err
	}
	if best == 0 {
		r = HTTPResult{Framework: o.Framework, Codec: id, Scenario: o.Scenario, Method: o.Method,
			DurationS: o.Duration.Seconds(), Conns: o.Conns, CPUScope: o.CPUScope}
	}
	r.SLOMs = float64(slo) / float64(time.Millisecond)
	r.MaxRate = &best
	r.Steps = steps
	return r, nil
}
