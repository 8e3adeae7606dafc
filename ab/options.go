package ab

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Defaults and limits of Options.
const (
	// DefaultRounds is the number of rounds when Options.Rounds is 0, and
	// with Budget the rounds of each batch. The sign test tolerates four
	// contrary rounds of twenty at p ≤ 0.05. Shorter rounds are finer
	// pairs, so a machine whose speed changes every few seconds touches
	// fewer of them: beside a noisy neighbour, ten rounds of 100 ms caught
	// a 10% slowdown in 8 of 10 trials and twenty of 50 ms in 10 of 10
	// (docs/findings/noisy.md).
	DefaultRounds = 20
	// MinRounds is the fewest rounds accepted. The sign test needs 6
	// rounds, all agreeing, to reach p ≤ 0.05: with fewer, no change of
	// time is significant (Result.Warnings says so), though the B/op and
	// allocs/op gate still works.
	MinRounds = 2
	// MaxRounds is the most rounds accepted.
	MaxRounds = 1000
	// MaxLayouts is the most code layouts Options.Layouts accepts.
	MaxLayouts = 16
	// DefaultLayouts is Options.Layouts when it is 0, with MeasureTime and
	// at least twice as many rounds (with 8 to 15 rounds, half of them).
	// Eight, not four: the interval between layouts has one degree of
	// freedom fewer than there are layouts, and with four (Student's t at
	// 98% is 4.5 on three degrees) a 10% slowdown whose layouts read +7%
	// to +12% was inconclusive at 5%; with eight t is 3.0 and the spread
	// is divided by √8 (docs/findings/noisy.md).
	DefaultLayouts = 8
	// DefaultBenchtime is how long each benchmark runs in one invocation of
	// a test binary when neither Options.Benchtime nor Options.Iterations
	// is set. 20 ms, not 50: beside a noisy neighbour a round's ratio is
	// as spread at 20 ms as at 50 (what spreads it is the neighbour, not
	// the clock), and a round takes 2.4 times less, so a budget buys 2.4
	// times the rounds: a 10% slowdown was decided after 80-120 rounds
	// either way, in 56-70 s of the budget at 20 ms and 85-91 s at 50
	// (docs/findings/noisy.md, "Rounds of 20 ms").
	DefaultBenchtime = 20 * time.Millisecond
	// DefaultAlpha is the false discovery rate when Options.Alpha is 0.
	DefaultAlpha = 0.05
	// DefaultBench selects every benchmark.
	DefaultBench = "."
	// DefaultPackage is the package in the folder Run starts from.
	DefaultPackage = "."
	// DefaultInstructionRounds is the number of rounds when Options.Rounds
	// is 0 and Options.Measure is MeasureInstructions: counts vary little
	// from run to run, so a few rounds suffice.
	DefaultInstructionRounds = 3
	// DefaultInstructionBenchtime is, with MeasureInstructions, how long
	// the counted iterations of a benchmark take when run natively, when
	// neither Options.Benchtime nor Options.Iterations is set (see
	// Options.Measure). Under callgrind they take 50-100 times longer.
	DefaultInstructionBenchtime = 10 * time.Millisecond
	// DefaultTolerance is Options.Tolerance when it is 0.
	DefaultTolerance = 0.01
)

// Measures: what Run compares (Options.Measure).
const (
	// MeasureTime compares ns/op, as the testing package times it.
	MeasureTime = "time"
	// MeasureInstructions compares instructions executed per operation,
	// counted by valgrind's callgrind (see Options.Measure).
	MeasureInstructions = "instructions"
)

// Options configure Run. The zero value is not usable: Base is required;
// every other field's zero value means its default. Resolved validates
// them once and fills in the defaults.
type Options struct {
	// Dir is a folder of the git checkout: Package is found from it as the
	// go command finds it there, and the worktrees hold the same folder.
	// "" means the current directory.
	Dir string
	// Base is the revision compared against (A): anything `git rev-parse`
	// takes, such as a branch, a tag, a commit or HEAD~2. Required.
	Base string
	// Head is the revision compared (B). "" means the working tree of Dir
	// as it is, uncommitted changes included.
	Head string
	// Package is the one package whose benchmarks run, as the go command
	// takes it in Dir: "./codec/wire" or an import path. "" means
	// DefaultPackage. A pattern ("./...") is an error.
	Package string
	// Bench selects the benchmarks, as `go test -bench` does. "" means
	// DefaultBench.
	Bench string
	// Rounds is the number of rounds; each runs both binaries once, A then
	// B in even rounds and B then A in odd ones. 0 means DefaultRounds;
	// the range is [MinRounds, MaxRounds].
	Rounds int
	// Layouts, when 2 or more, builds each revision that many times with
	// the linker's function order randomized (`go test -c
	// -ldflags=-randlayout=K`, K from 1), and round r runs both sides'
	// build K = r/2 mod Layouts + 1, so that each layout takes an A B and
	// a B A round in turn. Where a function lands moves a benchmark's
	// time by up to 15-30% with the code unchanged
	// (docs/findings/noisy.md, docs/agreement.md); one build of each side
	// compares two draws of it, several builds make layout a source of
	// variation rather than a difference between the revisions, and the
	// change's interval covers the spread between the layouts
	// (Benchmark.LayoutLo). 0 means DefaultLayouts with MeasureTime when Rounds is
	// at least twice that, else 1; 1 builds once, as go test does (the
	// layouts are links of the same compiled packages, so each costs a
	// link, not a build); the range is [0, MaxLayouts], at most half of
	// Rounds, time only (instructions do not depend on where code lands).
	// The two release tags of a codec library with identical instruction
	// counts failed a 5% gate twice with one layout and read ~ with four
	// (issue 41).
	Layouts int
	// Benchtime is how long each benchmark runs in each invocation
	// (-test.benchtime). 0 means DefaultBenchtime; it must not be
	// negative, and it is ignored when Iterations is set.
	Benchtime time.Duration
	// Iterations, when positive, runs each benchmark exactly this many
	// iterations per invocation (-test.benchtime Nx) instead of for
	// Benchtime. It must not be negative.
	Iterations int
	// Alpha is the false discovery rate at which a change of time counts
	// as significant: its Benjamini-Hochberg q ≤ Alpha. 0 means
	// DefaultAlpha; the range is (0, 1).
	Alpha float64
	// Measure is what is compared: MeasureTime ("" means it) or
	// MeasureInstructions. With MeasureInstructions each benchmark of each
	// build runs alone under valgrind's callgrind (with GOMAXPROCS=1,
	// GODEBUG=asyncpreemptoff=1, GOGC=off and GOMEMLIMIT=1GiB: the
	// collector's work is left out, allocation's is not) twice per round,
	// for N and for 2N
	// iterations (-test.benchtime Nx, then 2Nx); its instructions per
	// operation are the difference of the two runs' totals divided by N,
	// so the process's start-up, the benchmark's own setup and its first
	// run of one iteration, the same in both runs, drop out. N is
	// Iterations when set, else chosen per benchmark so that N iterations
	// take about Benchtime natively (DefaultInstructionBenchtime when
	// Benchtime is 0), from one native run of each build at that
	// benchtime, base's time deciding for both.
	Measure string
	// Tolerance is, with MeasureInstructions, the change of a per-operation
	// count taken for run-to-run variation: a change counts when every
	// round's ratio lies beyond it on the same side. A fraction: 0 means
	// DefaultTolerance (1%); the range is [0, 1).
	Tolerance float64
	// Probe, when set with MeasureInstructions, is a command (program and
	// arguments) that prints on one line the CPU features it sees, as
	// CPUFeatures returns them; Run runs it under valgrind once and
	// records the answer in Result.Counter.EmulatedCPUFeatures.
	Probe []string `json:"-"`
	// Budget, when positive, makes the run sequential: after the first
	// Rounds rounds, while a benchmark's change of time is inconclusive at
	// MaxRegression (Result.Judge), Run adds Rounds rounds more of only
	// the benchmarks still inconclusive, as long as the time of the rounds
	// so far (builds excluded) plus one more batch at the pace of the
	// latest fits in Budget; the last batch takes all that Budget still
	// holds, once a batch would reach the plan or less than half a batch
	// more would fit after it, in parts of Rounds rounds, each while
	// Budget holds one more at the latest pace. Each look judges its
	// interval at the confidence a group-sequential design gives it
	// (stats.LookConfidence: O'Brien-Fleming-type alpha spending of
	// 1 - 95%, planned for the most rounds Budget allows at the first
	// batch's pace; the last look at stats.FinalLookConfidence: all that
	// the looks before it left), so the chance of a false verdict stays
	// at 5% however many looks are taken; a benchmark decided at a look
	// keeps that look's figures.
	// Time only; it needs MaxRegression, and must cover the first batch:
	// at least 2 × Rounds × Benchtime (MinBudget). 0 runs Rounds rounds
	// and judges once, at 95%.
	Budget time.Duration
	// MaxRegression is the gate's threshold Budget samples for, a
	// fraction (0.05 for 5%); it must be positive with Budget, and is
	// otherwise unused (the gate is the caller's: Regressions).
	MaxRegression float64
	// Progress, when set, is called after each invocation of a test
	// binary with where the run is (see Progress).
	Progress func(Progress) `json:"-"`
	// Building, when set, is called before each build of a test binary
	// with the side ("base" or "head"), the code layout (from 1) of
	// layouts, and the builds done before it of all builds: a build
	// takes seconds, during which Progress is not called.
	Building func(side string, layout, layouts, done, total int) `json:"-"`
}

// MinBudget is the smallest Options.Budget that covers the first batch of
// o's rounds: each round runs both builds, each benchmark for at least
// Benchtime, so 2 × Rounds × Benchtime with one benchmark (0 with
// Iterations, whose time is not known before the run). o must be
// resolved.
func (o Options) MinBudget() time.Duration {
	if o.Iterations > 0 {
		return 0
	}
	return 2 * time.Duration(o.Rounds) * o.Benchtime
}

// An OptionError is an Options field that Resolved rejects: its name, the
// value given and what is accepted.
type OptionError struct {
	Field string // the Options field: "Rounds"
	Value any    // the value given
	Want  string // what is accepted: "range is [2, 1000], 0 for the default 10"
}

func (e *OptionError) Error() string {
	if s, ok := e.Value.(string); ok {
		return fmt.Sprintf("ab: invalid %s %q (%s)", e.Field, s, e.Want)
	}
	return fmt.Sprintf("ab: invalid %s %v (%s)", e.Field, e.Value, e.Want)
}

// Resolved validates o and returns it with every default filled in: the
// options in effect, which Result.Options records. A bad field is an
// *OptionError.
func (o Options) Resolved() (Options, error) {
	bad := func(field string, v any, want string) (Options, error) {
		return Options{}, &OptionError{Field: field, Value: v, Want: want}
	}
	switch {
	case strings.TrimSpace(o.Base) == "":
		return bad("Base", o.Base, "a revision is required")
	case strings.HasPrefix(o.Base, "-"):
		return bad("Base", o.Base, "a revision, not a flag")
	case strings.HasPrefix(o.Head, "-"):
		return bad("Head", o.Head, "a revision, not a flag")
	case strings.HasPrefix(o.Package, "-"):
		return bad("Package", o.Package, "a package, not a flag")
	case strings.Contains(o.Package, "..."):
		return bad("Package", o.Package, "one package, not a pattern")
	case o.Rounds != 0 && (o.Rounds < MinRounds || o.Rounds > MaxRounds):
		return bad("Rounds", o.Rounds, fmt.Sprintf("range is [%d, %d], 0 for the default %d", MinRounds, MaxRounds, DefaultRounds))
	case o.Layouts < 0 || o.Layouts > MaxLayouts:
		return bad("Layouts", o.Layouts, fmt.Sprintf("range is [0, %d]; 1 builds each revision once, 0 for the default %d", MaxLayouts, DefaultLayouts))
	case o.Layouts > 1 && o.Measure == MeasureInstructions:
		return bad("Layouts", o.Layouts, "time only: -measure instructions counts what does not depend on code layout")
	case o.Benchtime < 0:
		return bad("Benchtime", o.Benchtime, fmt.Sprintf("must be positive, 0 for the default %v", DefaultBenchtime))
	case o.Iterations < 0:
		return bad("Iterations", o.Iterations, "must be positive, 0 to run for Benchtime")
	case o.Alpha != 0 && !(o.Alpha > 0 && o.Alpha < 1):
		return bad("Alpha", o.Alpha, fmt.Sprintf("range is (0, 1), 0 for the default %v", DefaultAlpha))
	case o.Measure != "" && o.Measure != MeasureTime && o.Measure != MeasureInstructions:
		return bad("Measure", o.Measure, MeasureTime+" or "+MeasureInstructions)
	case !(o.Tolerance >= 0 && o.Tolerance < 1):
		return bad("Tolerance", o.Tolerance, fmt.Sprintf("range is [0, 1), 0 for the default %v", DefaultTolerance))
	}
	if o.Measure == "" {
		o.Measure = MeasureTime
	}
	instructions := o.Measure == MeasureInstructions
	if instructions && o.Rounds == 0 {
		o.Rounds = DefaultInstructionRounds
	}
	if instructions && o.Benchtime == 0 {
		o.Benchtime = DefaultInstructionBenchtime
	}
	if instructions && o.Tolerance == 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.Package == "" {
		o.Package = DefaultPackage
	}
	if o.Bench == "" {
		o.Bench = DefaultBench
	}
	if o.Rounds == 0 {
		o.Rounds = DefaultRounds
	}
	if o.Layouts == 0 {
		o.Layouts = 1
		if !instructions && o.Rounds >= 8 {
			o.Layouts = min(DefaultLayouts, o.Rounds/2)
		}
	}
	if o.Layouts > 1 && 2*o.Layouts > o.Rounds {
		return bad("Layouts", o.Layouts, fmt.Sprintf("at most half of the %d rounds: each layout takes an A B and a B A round", o.Rounds))
	}
	if o.Benchtime == 0 {
		o.Benchtime = DefaultBenchtime
	}
	if o.Alpha == 0 {
		o.Alpha = DefaultAlpha
	}
	switch {
	case o.Budget < 0:
		return bad("Budget", o.Budget, "must be positive, 0 for a fixed number of rounds")
	case o.Budget > 0 && instructions:
		return bad("Budget", o.Budget, "time only: -measure instructions counts a figure that needs no more rounds")
	case o.Budget > 0 && !(o.MaxRegression > 0):
		return bad("Budget", o.Budget, "needs the gate's threshold (-max-regression) it samples for")
	case o.Budget > 0 && o.Budget < o.MinBudget():
		return bad("Budget", o.Budget, fmt.Sprintf("too small for the first %d rounds: at least %v (2 × %d rounds × -benchtime %v)", o.Rounds, o.MinBudget(), o.Rounds, o.Benchtime))
	}
	return o, nil
}

// benchtime is the -test.benchtime argument of o's invocations.
func (o Options) benchtime() string {
	if o.Iterations > 0 {
		return fmt.Sprintf("%dx", o.Iterations)
	}
	return o.Benchtime.String()
}

// ParseBenchtime reads a benchtime as go test -benchtime takes it: a
// positive duration ("100ms", Options.Benchtime) or a positive count of
// iterations ("1000x", Options.Iterations); the other result is 0.
func ParseBenchtime(s string) (d time.Duration, iterations int, err error) {
	if n, ok := strings.CutSuffix(s, "x"); ok {
		k, err := strconv.Atoi(n)
		if err != nil || k <= 0 {
			return 0, 0, fmt.Errorf("ab: invalid benchtime %q (want a positive count of iterations such as 1000x, or a duration such as 100ms)", s)
		}
		return 0, k, nil
	}
	d, err = time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, 0, fmt.Errorf("ab: invalid benchtime %q (want a positive duration such as 100ms, or a count of iterations such as 1000x)", s)
	}
	return d, 0, nil
}
