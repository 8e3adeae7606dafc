package bench

import (
	"bytes"
	"fmt"
	"slices"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/stats"
)

// newStreamSizes summarizes sizes (one per message, at least one).
func newStreamSizes(sizes []int) *results.StreamSizes {
	s := slices.Clone(sizes)
	slices.Sort(s)
	var total int64
	for _, n := range s {
		total += int64(n)
	}
	return &results.StreamSizes{Messages: len(s), P50: stats.NearestRank(s, 0.50), P99: stats.NearestRank(s, 0.99), Max: s[len(s)-1], TotalBytes: total}
}

// prepareStream is prepare for a message corpus: it round-trips and
// compares every message, then returns one cell per op whose timed
// function marshals (unmarshals, converts, parses) the messages one by
// one in turn, each on a Binding of its own, so ns/op is per message.
// SizeBytes is the mean encoded size, Stream the distribution. A message
// that fails makes the cell's Error name its line (the first such line);
// a message the codec cannot take at all makes the whole codec n/a there.
func prepareStream(c codec.Codec, s scenario.Scenario) []*cell {
	per := make([][]*cell, len(s.Messages))
	for i, m := range s.Messages {
		cs := prepare(c, s.ID, m.Value, nil, func(_, got any) error { return m.Diff(got) })
		if cs[0].NA {
			// n/a on the first message is the codec refusing the type;
			// on a later one, that message's content.
			if i > 0 {
				for _, x := range cs {
					x.failed = fmt.Errorf("line %d: %w", m.Line, x.failed)
					x.Error = x.failed.Error()
				}
			}
			return cs
		}
		per[i] = cs
	}
	out := make([]*cell, len(per[0]))
	for j, first := range per[0] {
		x := &cell{Row: results.Row{Codec: first.Codec, Scenario: s.ID, Op: first.Op}}
		sizes := make([]int, len(per))
		newFns := make([]func() (func(int) error, error), len(per))
		var all [][]byte
		for i, cs := range per {
			m := cs[j]
			sizes[i] = m.size
			newFns[i] = m.newFn
			if m.encoded != nil {
				all = append(all, m.encoded)
			}
			if m.failed != nil && x.failed == nil {
				x.failed = fmt.Errorf("line %d: %w", s.Messages[i].Line, m.failed)
			}
			if m.newFn == nil {
				newFns = nil
			}
			if newFns == nil && x.failed != nil {
				break
			}
		}
		if newFns != nil {
			x.newFn = streamLoop(newFns, s.Messages)
		}
		if x.Op == results.OpMarshal && len(all) == len(per) {
			x.encodedAll = all
			x.encoded = bytes.Join(all, nil)
		}
		x.Stream = newStreamSizes(sizes)
		x.size = x.Stream.MeanSize()
		x.SizeBytes = x.size
		out[j] = x
	}
	return ready(out)
}

// streamLoop returns a newFn that makes one timed function per message
// and runs n operations cycling through them, carrying on from where the
// previous call stopped, so that successive samples cover the stream.
func streamLoop(newFns []func() (func(int) error, error), msgs []scenario.Message) func() (func(int) error, error) {
	return func() (func(int) error, error) {
		fns := make([]func(int) error, len(newFns))
		for i, nf := range newFns {
			fn, err := nf()
			if err != nil {
				return nil, fmt.Errorf("line %d: %w", msgs[i].Line, err)
			}
			fns[i] = fn
		}
		next := 0
		return func(n int) error {
			for range n {
				if err := fns[next](1); err != nil {
					return fmt.Errorf("line %d: %w", msgs[next].Line, err)
				}
				if next++; next == len(fns) {
					next = 0
				}
			}
			return nil
		}, nil
	}
}
