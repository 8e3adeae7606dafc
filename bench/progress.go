package bench

import "math"

// Phases of Measure, as Progress.Phase names them.
const (
	PhaseCalibrate = "calibrating"
	PhaseSample    = "sampling"
	PhaseParallel  = "parallel"
	PhaseProfile   = "profiling"
)

// Progress is where Measure is, as Options.Progress receives it after each
// unit of work: one cell's calibration, one sample (a baseline's samples
// between paired cells included), one cell's parallel or profile pass.
//
// Cells is fixed for the whole run, so "CellsDone of Cells" never moves
// backwards or grows; Done+Left is the work's size as now estimated, which
// with adaptive sampling (Options.Target) changes from pass to pass.
type Progress struct {
	// Phase is what the unit was: PhaseCalibrate, PhaseSample,
	// PhaseParallel or PhaseProfile.
	Phase string
	// Cells is the number of timed cells; CellsDone those whose samples
	// are all taken: every cell once its Count samples are taken, and
	// with Target, a cell whose interval meets the target, that reached
	// MaxCount samples or whose operation failed (counted after each
	// pass); all of them once sampling stops (the budget spent).
	Cells, CellsDone int
	// Done is the units of work done. Left estimates those still to do:
	// exact without Target. With Target, until the first round ends, as
	// if every cell went to MaxCount samples; after it, for each cell
	// still sampled, the samples its interval needs to narrow to the
	// target if it narrows as 1/√n (at most MaxCount), with one baseline
	// sample for each of a paired cell's; plus the parallel and profile
	// passes. MaxTime may stop the sampling before Left reaches 0.
	Done, Left int
}

// tracker keeps Measure's Progress and reports every step of it.
type tracker struct {
	p  Progress
	fn func(Progress)
}

// step counts one unit of work done in the current phase.
func (t *tracker) step() {
	t.p.Done++
	t.p.Left = max(t.p.Left-1, 0)
	t.report()
}

// report passes the progress as it is on.
func (t *tracker) report() {
	if t.fn != nil {
		t.fn(t.p)
	}
}

// samplesLeft estimates the samples the cells still to sample (wide, as
// sampler.wide returns them) take until their intervals meet target: n
// samples with half-width hw need about n·(hw/target)² to reach target
// (a half-width shrinks as 1/√n); a cell with no interval yet, twice
// what it has. Each is at least one and at most MaxCount in all; a
// paired cell's samples count twice (each comes with a baseline sample).
func samplesLeft(wide []*cell, target float64) int {
	left := 0
	for _, c := range wide {
		n := len(c.ns)
		need := 2 * n
		if hw, ok := c.targetHalfWidth(); ok && target > 0 {
			need = int(math.Ceil(float64(n) * (hw / target) * (hw / target)))
		}
		k := min(max(need-n, 1), max(MaxCount-n, 1))
		if c.base != nil {
			k *= 2
		}
		left += k
	}
	return left
}
