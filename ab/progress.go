package ab

// Progress is where Run is, as Options.Progress receives it after each
// invocation of a test binary (with MeasureInstructions, after each
// benchmark counted under callgrind).
type Progress struct {
	// Runs is the invocations done; RunsLeft those still planned: the
	// rest of Rounds, or with Budget, of the rounds the budget allows at
	// the first batch's pace (Sequential.Plan), of which a run takes
	// fewer once every benchmark is decided.
	Runs, RunsLeft int
	// Benchmarks is the number of benchmarks both builds ran (0 until
	// the first round ends); Decided those whose verdict is decided:
	// with Budget, those no longer inconclusive, counted at each look;
	// otherwise all of them once the last round ends.
	Benchmarks, Decided int
}

// progress reports p to opts.Progress, if set.
func (o Options) progress(p Progress) {
	if o.Progress != nil {
		o.Progress(p)
	}
}

// commonBenchmarks is the number of benchmarks that both outputs of a
// round (base's and head's) ran.
func commonBenchmarks(base, head []byte) int {
	a, _, err := parseOutput(base)
	if err != nil {
		return 0
	}
	b, _, err := parseOutput(head)
	if err != nil {
		return 0
	}
	n := 0
	for name := range a {
		if _, ok := b[name]; ok {
			n++
		}
	}
	return n
}
