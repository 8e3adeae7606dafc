package main

import (
	"strings"

	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/compressor/algorithms"
	"github.com/serbench/serbench/scenario"
)

// The run flags -sizes (the size sweep) and -compress.

// defaultSizes lists scenario.DefaultSweepSizes as -sizes takes them.
func defaultSizes() string {
	var s []string
	for _, n := range scenario.DefaultSweepSizes {
		s = append(s, scenario.SizeLabel(n))
	}
	return strings.Join(s, ",")
}

// withSweep returns the scenarios of a run with -sizes: the sweep points of
// sizes, after the selected scenarios when -scenarios was given
// (selected), instead of them otherwise. sizes "" returns ss unchanged.
func withSweep(ss []scenario.Scenario, sizes string, selected bool) ([]scenario.Scenario, error) {
	if sizes == "" {
		return ss, nil
	}
	targets, err := scenario.ParseSizes(sizes)
	if err != nil {
		return nil, usagef("-sizes: %w", err)
	}
	sweep, err := scenario.Sweep(targets)
	if err != nil {
		return nil, usagef("-sizes: %w", err)
	}
	if !selected {
		return sweep, nil
	}
	return append(ss, sweep...), nil
}

// selectCompressors returns the compressors a -compress flag names; none
// for "". A name compressor/algorithms lacks is a usage error.
func selectCompressors(flag string) ([]compressor.Algorithm, error) {
	if flag == "" {
		return nil, nil
	}
	ids := splitList(flag)
	if len(ids) == 0 {
		return nil, usagef("-compress: no compressor in %q (valid: %s)", flag, strings.Join(algorithms.IDs(), ", "))
	}
	algs, err := algorithms.Select(ids)
	if err != nil {
		return nil, usagef("-compress: %w", err)
	}
	return algs, nil
}
