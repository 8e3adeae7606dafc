// Package compare compares serbench runs (results.Run) and gates on the
// comparison: Compare tests two runs cell by cell (Mann-Whitney U-tests on
// the samples, or the paired speed-ups, with the Benjamini-Hochberg
// correction over each comparison's tests, and geomeans per scenario and
// op), CompareRuns compares replicate runs between runs, CompareFiles
// reads the runs of `serbench compare`, and the gate (Figures,
// Regressions, Inconclusive, ApplyGate) judges each change against a
// threshold with package verdict's rule and hands the judged figures to
// package gate, which serbench ab shares. It computes and never renders: package report
// writes comparisons (report.WriteComparison).
package compare
