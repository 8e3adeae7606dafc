// Package stats holds serbench's statistics: pure functions over samples
// (ns/op, B/op, allocs/op or ratios of them, as float64 slices) that the
// runner, the report, the comparison and the command line all call, so
// that a figure is computed one way wherever it appears.
//
// Summaries (Summarize, Median, HalfWidth, Quantile) and the U-test
// (UTest) are golang.org/x/perf/benchmath's, as benchstat computes them:
// no distribution assumed. Ratios of two sample sets get a percentile
// bootstrap interval (RatioInterval, CompareSamples); ratios measured in
// pairs the median with its distribution-free interval and an exact sign
// test (PairedChange), and when the pairs come in groups that share a
// draw of something the pairing does not remove (code layouts), Student's
// t interval over the groups' medians (ClusteredChangeAt). Replicate runs are compared by Welch's t-test on
// logarithms (WelchLogs), many tests corrected together by the
// Benjamini-Hochberg procedure (AdjustBH). Geometric means (GeoMean,
// GeoMeanInterval, GeoMeanChange), bimodal samples (DetectModes: a
// two-means split on log ns/op judged by Ashman's D), the Pareto front
// (ParetoFront), throughput plateaus (PlateauStart) and the agreement of
// two sets of speed-ups (Agreement) complete it. Each
// function's doc names its method and source.
//
// The package imports only the standard library, golang.org/x/perf and
// the statistics package it is built on (github.com/aclements/go-moremath):
// nothing of serbench. No function modifies its arguments. Every p-value
// it returns is in [0, 1] (ClampP).
package stats
