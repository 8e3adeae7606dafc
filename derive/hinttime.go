package derive

import (
	"errors"
	"fmt"
	"math"
	"time"

	"google.golang.org/protobuf/proto"
)

// Timing the hints. This is not package bench's harness on purpose: bench
// times a codec on a scenario (codec.Codec, scenario.Scenario, checked
// round trips, samples to a target interval), and a hint's two messages
// are dynamicpb values of two descriptors derived from one sample, neither
// a codec nor a scenario. What is measured here is one short, paired
// reading (the two messages in alternating batches, the fastest batch of
// each kept), which bench's cells do not offer; wrapping the messages in
// a codec and a scenario to reach bench would change that measurement.

// ErrNoHints is returned by Hints.TimeMarshal for hints that FindHints did
// not make (the zero Hint has no messages to time).
var ErrNoHints = errors.New("derive: hints: no messages to time (use FindHints)")

// TimeMarshal measures proto.Marshal on each hint's two messages and
// sets MarshalBefore and MarshalAfter in ns/op: after one batch of each
// to warm up, batches of 32 marshals alternate between the two until the
// hint has taken about budget, and each figure is the fastest of its
// batches' ns/op (the batch least disturbed by other processes). It is
// one short measurement on the running machine, not a
// benchmark: read it as a direction. Errors: a hint without messages
// (ErrNoHints), a marshal error.
func (hs Hints) TimeMarshal(budget time.Duration) error {
	for i := range hs {
		h := &hs[i]
		if h.before == nil || h.after == nil {
			return ErrNoHints
		}
		before, after := math.Inf(1), math.Inf(1)
		for start, n := time.Now(), 0; n < 2 || time.Since(start) < budget; n++ {
			b, err := marshalBatch(h.before)
			if err != nil {
				return fmt.Errorf("derive: hints: %s: %w", h.Path, err)
			}
			a, err := marshalBatch(h.after)
			if err != nil {
				return fmt.Errorf("derive: hints: %s: %w", h.Path, err)
			}
			if n > 0 { // the first batch warms up
				before, after = min(before, b), min(after, a)
			}
		}
		h.MarshalBefore, h.MarshalAfter = before, after
	}
	return nil
}

// marshalBatch returns proto.Marshal's ns/op on m over a batch of 32.
func marshalBatch(m proto.Message) (float64, error) {
	const batch = 32
	t0 := time.Now()
	for range batch {
		if _, err := proto.Marshal(m); err != nil {
			return 0, err
		}
	}
	return float64(time.Since(t0).Nanoseconds()) / batch, nil
}
