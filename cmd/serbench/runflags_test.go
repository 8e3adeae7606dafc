package main

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/rundoc"
	"github.com/serbench/serbench/toolchain"
)

func TestSampling(t *testing.T) {
	base := samplingFlags{benchtime: bench.DefaultBenchtime, maxTime: bench.DefaultMaxTime, count: bench.DefaultCount, target: rundoc.DefaultTarget, liveHeap: "0"}
	quick := base
	quick.quick = true
	opts, err := quick.options()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Benchtime != quickBenchtime || opts.Count != quickCount || opts.Target != 0 || quick.rounds(opts) != quickCount {
		t.Errorf("-quick: benchtime %v, count %d, target %v, rounds %d; want %v, %d, 0, %d", opts.Benchtime, opts.Count, opts.Target, quick.rounds(opts), quickBenchtime, quickCount, quickCount)
	}
	opts, err = base.options()
	if err != nil {
		t.Fatal(err)
	}
	if opts.Target != rundoc.DefaultTarget || base.rounds(opts) != toolchain.DefaultRounds {
		t.Errorf("adaptive: target %v, rounds %d; want %v, %d", opts.Target, base.rounds(opts), rundoc.DefaultTarget, toolchain.DefaultRounds)
	}
	for _, tc := range []struct {
		name string
		edit func(*samplingFlags)
		want string
	}{
		{"count", func(s *samplingFlags) { s.count, s.countSet = 0, true }, "invalid -count 0"},
		{"count and target", func(s *samplingFlags) { s.countSet, s.targetSet = true, true }, "-target 3%: choose one"},
		{"benchtime", func(s *samplingFlags) { s.benchtime, s.benchtimeSet = -1, true }, "invalid -benchtime -1ns"},
		{"live heap", func(s *samplingFlags) { s.liveHeap = "lots" }, "-live-heap:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := base
			tc.edit(&s)
			_, err := s.options()
			if !errors.As(err, new(usageError)) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v; want a usageError containing %q", err, tc.want)
			}
		})
	}
}

func TestParseControls(t *testing.T) {
	for _, tc := range []struct {
		gogc string
		pct  int
		ok   bool
	}{{"off", -1, true}, {"0", 0, true}, {"150", 150, true}, {"-5", 0, false}, {"lots", 0, false}} {
		pct, err := parseGOGC(tc.gogc)
		if (err == nil) != tc.ok || (pct == nil) == tc.ok || (pct != nil && *pct != tc.pct) {
			t.Errorf("parseGOGC(%q) = %v, %v", tc.gogc, pct, err)
		}
	}
	for _, tc := range []struct {
		pin  string
		cpus []int
	}{{"0", []int{0}}, {"0, 1", []int{0, 1}}, {"x", nil}, {"0,", nil}, {"-1", nil}} {
		cpus, err := parsePin(tc.pin)
		if !slices.Equal(cpus, tc.cpus) || (err == nil) != (tc.cpus != nil) {
			t.Errorf("parsePin(%q) = %v, %v", tc.pin, cpus, err)
		}
	}
}
