// Package ab answers "did my change make it slower?" for a module's own Go
// benchmarks: an A/B test of two builds of one package, base (A) and head
// (B), run interleaved in one session and compared round by round.
//
// Two separate runs of `go test -bench` compared afterwards (benchstat of
// old.txt and new.txt) see two different machines: a shared virtual
// machine's speed drifts by more than the change being looked for between
// two runs minutes apart. Run instead builds the package's test binary at
// both revisions first, then runs the two binaries alternately,
//
//	A B  B A  A B  B A ...   one round = one run of each, ratio_i = B_i / A_i
//
// so a change of the machine's speed slower than one round cancels in each
// round's ratio, and the A B / B A alternation keeps either side from
// always going first. The change of a benchmark's time is the median of its
// per-round ratios minus 1, with the 95% distribution-free interval of that
// median (stats.PairedChange, as golang.org/x/perf/benchmath computes it),
// widened with several code layouts to cover the interval between them
// (stats.ClusteredChangeAt), and the exact sign test over the rounds; the p-values of all benchmarks
// are adjusted together with the Benjamini-Hochberg procedure
// (stats.AdjustBH). This is the randomized multiple interleaved trials
// method of A. Abedi and T. Brecht, "Conducting Repeatable Experiments in
// Highly Variable Cloud Computing Environments" (ICPE 2017), in the
// sequential form of L. Bulej et al., "Duet Benchmarking: Improving
// Measurement Accuracy in the Cloud" (ICPE 2020).
//
// With Options.Measure set to MeasureInstructions, Run compares instead
// the instructions each benchmark executes per operation, counted under
// valgrind's callgrind from two runs of N and 2N iterations, a figure the
// machine's speed does not move (see Options.Measure); Result.Counter
// records the CPU features seen natively and under valgrind, whose
// emulated CPU is what code that dispatches on CPU features sees there.
//
// Revisions are checked out with `git worktree add --detach` into a
// temporary folder, so the user's working tree is never touched, and the
// worktrees are removed on every way out of Run, cancellation included.
// The head side may instead be the working tree itself, uncommitted
// changes included.
//
// The package never prints: Run returns a *Result, Write formats it and
// Regressions lists what a gate should fail on: the benchmarks as judged
// figures (Figures) of package gate, which serbench compare shares.
package ab
