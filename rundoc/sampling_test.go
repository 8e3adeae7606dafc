package rundoc

import (
	"errors"
	"strings"
	"testing"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/toolchain"
)

func TestSampling(t *testing.T) {
	base := Sampling{Benchtime: bench.DefaultBenchtime, MaxTime: bench.DefaultMaxTime, Count: bench.DefaultCount, Target: DefaultTarget, LiveHeap: "0"}
	quick := base
	quick.Quick = true
	opts, err := quick.Options()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Benchtime != QuickBenchtime || opts.Count != QuickCount || opts.Target != 0 || quick.Rounds(opts) != QuickCount {
		t.Errorf("-quick: benchtime %v, count %d, target %v, rounds %d; want %v, %d, 0, %d", opts.Benchtime, opts.Count, opts.Target, quick.Rounds(opts), QuickBenchtime, QuickCount, QuickCount)
	}
	opts, err = base.Options()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Target != DefaultTarget || base.Rounds(opts) != toolchain.DefaultRounds {
		t.Errorf("adaptive: target %v, rounds %d; want %v, %d", opts.Target, base.Rounds(opts), DefaultTarget, toolchain.DefaultRounds)
	}
	for _, tc := range []struct {
		name string
		edit func(*Sampling)
		want string
	}{
		{"count", func(s *Sampling) { s.Count, s.CountSet = 0, true }, "invalid -count 0"},
		{"count and target", func(s *Sampling) { s.CountSet, s.TargetSet = true, true }, "-target 3%: choose one"},
		{"benchtime", func(s *Sampling) { s.Benchtime, s.BenchtimeSet = -1, true }, "invalid -benchtime -1ns"},
		{"live heap", func(s *Sampling) { s.LiveHeap = "lots" }, "-live-heap:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base
			tc.edit(&s)
			_, err := s.Options()
			if se := new(SamplingError); !errors.As(err, &se) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want a *SamplingError containing %q", err, tc.want)
			}
		})
	}
}
