package ab

import (
	"bytes"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/serbench/serbench/stats"
	"golang.org/x/perf/benchfmt"
)

// Result is a finished A/B comparison.
type Result struct {
	// Options are the options in effect, defaults filled in.
	Options Options
	// Base and Head are the two sides, A and B.
	Base, Head Revision
	// Rounds is the number of rounds run.
	Rounds int
	// Benchmarks are the benchmarks both sides ran, in the order the base
	// binary first printed them (then the head's).
	Benchmarks []Benchmark
	// OnlyBase and OnlyHead name the benchmarks that only one side ran.
	OnlyBase, OnlyHead []string
	// Counter says how instructions were counted, with
	// MeasureInstructions; nil with MeasureTime.
	Counter *Counter `json:",omitempty"`
	// Sequential says what Options.Budget bought; nil without a budget.
	Sequential *Sequential `json:",omitempty"`
	// Warnings are problems that did not stop the run: too few rounds for
	// a change of time to be significant, worktrees that could not be
	// removed.
	Warnings []string
}

// Confidence is the confidence of a benchmark's interval of time without
// Options.Budget: 95%. With a budget, 1 - Confidence is the error rate
// spent over the looks.
const Confidence = 0.95

// Sequential is what Options.Budget bought: the looks taken and what each
// decided.
type Sequential struct {
	// Budget is Options.Budget; Used the time the rounds took, builds
	// excluded.
	Budget, Used time.Duration
	// Plan is the most rounds the budget allowed at the first batch's
	// pace (at most MaxRounds): the plan the alpha spending is over.
	Plan int
	// Looks are the rounds at each look; Decided the benchmarks decided
	// (not inconclusive) at each.
	Looks, Decided []int
	// LastSpent is set when the last look was judged at all of the error
	// rate that the looks before it left (stats.FinalLookConfidence): the
	// budget or the plan held no more rounds after it.
	LastSpent bool `json:",omitempty"`
	// Benchmarks say what the budget bought each benchmark, in the
	// Result's order. Rounds after the look that decided a benchmark do
	// not run it.
	Benchmarks []SequentialBenchmark
}

// SequentialBenchmark is what a sequential run's budget bought one
// benchmark.
type SequentialBenchmark struct {
	Name string
	// Rounds is the number of rounds its figures are from: those up to
	// the look that decided it, or all of them.
	Rounds int
	// Look is the look (from 1) that decided it; 0 when none did.
	Look int
	// Verdict is its verdict at the gate (verdict.Regressed,
	// verdict.Unchanged, verdict.Improved or verdict.Inconclusive).
	Verdict string
	// FirstWidth and Width are the widths of its interval of the change
	// (hi - lo, a fraction of base's figure; -1 for none) at the first
	// look and at the look its figures are from: what the rounds the
	// budget bought narrowed it to.
	FirstWidth, Width float64
}

// Unit is the unit of the compared figure: "ns/op", or with
// MeasureInstructions "instructions/op".
func (r *Result) Unit() string { return unit(r.Options.Measure) }

func unit(measure string) string {
	if measure == MeasureInstructions {
		return "instructions/op"
	}
	return "ns/op"
}

// Benchmark is one benchmark's comparison. Times are in ns/op, memory in
// B/op and allocs/op, each exactly as the testing package prints them;
// the medians are over the rounds in which both sides ran it.
type Benchmark struct {
	// Name is the benchmark's name as the testing package prints it,
	// without "Benchmark": "Encode/size=small-8".
	Name string
	// Measure is the Result's Options.Measure: MeasureTime or
	// MeasureInstructions.
	Measure string
	// Ratios are head ns/op over base ns/op, one per round in which both
	// sides ran the benchmark, in round order; with MeasureInstructions,
	// head instructions/op over base instructions/op.
	Ratios []float64
	// BaseInstructions and HeadInstructions are, with
	// MeasureInstructions, the median instructions per operation of each
	// side; the time fields are then 0.
	BaseInstructions, HeadInstructions float64
	// Iterations is, with MeasureInstructions, N: the counted runs were of
	// N and 2N iterations (see Options.Measure).
	Iterations int
	// Tolerance is, with MeasureInstructions, Options.Tolerance (see
	// Significant).
	Tolerance float64
	// BaseNs and HeadNs are the median ns/op of each side.
	BaseNs, HeadNs float64
	// HeadNsLo..HeadNsHi is the 95% distribution-free interval of HeadNs
	// over the rounds (stats.Summarize); 0 when there are too few rounds
	// for one.
	HeadNsLo, HeadNsHi float64
	// Layouts holds, with two or more Options.Layouts, the code layout
	// (from 1) that each of Ratios was measured with: round r runs layout
	// r/2 mod Options.Layouts + 1. nil with one layout.
	Layouts []int `json:",omitempty"`
	// Ratio is the median of Ratios, and RatioLo..RatioHi its interval at
	// Confidence; a bound that so few rounds cannot give is 0. With one
	// layout, the distribution-free interval of the median over the
	// rounds (stats.PairedChange). With two or more it also covers
	// LayoutLo..LayoutHi: the interval over the rounds treats them as
	// independent, but every round of a layout shares where the linker put
	// that layout's code, an effect that differs between layouts (up to
	// tens of percent on a code move: docs/findings/noisy.md), so the
	// interval is the wider of the two at each end. With
	// MeasureInstructions, RatioLo..RatioHi is the range of Ratios.
	Ratio, RatioLo, RatioHi float64
	// LayoutLo..LayoutHi is, with two or more layouts, the interval of the
	// ratio between the layouts at Confidence: Student's t over the
	// layouts' median ratios (stats.ClusteredChangeAt); 0 with one layout
	// or too few layouts with rounds.
	LayoutLo, LayoutHi float64 `json:",omitempty"`
	// Confidence is the confidence of RatioLo..RatioHi with MeasureTime:
	// the package's Confidence (95%), or with Options.Budget that of the
	// look that decided the benchmark (or the last look).
	Confidence float64
	// P is the two-sided exact sign test of "head is as often faster as
	// slower", over the rounds; Q is P adjusted over all of the Result's
	// benchmarks by the Benjamini-Hochberg procedure (compare.Correction).
	// Both are 1 with MeasureInstructions, which does not test.
	P, Q float64
	// Mem is set when both sides reported B/op and allocs/op in every
	// round (go test -benchmem); the four medians below are 0 otherwise.
	Mem bool
	// BaseBytes, HeadBytes, BaseAllocs and HeadAllocs are the medians of
	// B/op and allocs/op.
	BaseBytes, HeadBytes, BaseAllocs, HeadAllocs float64
	// BytesUp and AllocsUp are set when head's B/op, or allocs/op, was
	// higher than base's in every round: the memory gate (see
	// Regressions).
	BytesUp, AllocsUp bool
	// BytesDown and AllocsDown are set when head's B/op, or allocs/op, was
	// lower than base's in every round (see Improvements).
	BytesDown, AllocsDown bool
}

// at returns b with its interval at confidence conf: over the rounds
// (stats.PairedChangeAt) and, with layouts, widened to cover the interval
// between them (stats.ClusteredChangeAt).
func (b Benchmark) at(conf float64) Benchmark {
	if len(b.Ratios) == 0 || b.Measure == MeasureInstructions {
		return b
	}
	_, b.RatioLo, b.RatioHi = stats.PairedChangeAt(b.Ratios, conf)
	b.Confidence = conf
	b.LayoutLo, b.LayoutHi = 0, 0
	if g := b.layoutGroups(); g != nil {
		if _, lo, hi, ok := stats.ClusteredChangeAt(g, conf); ok {
			b.LayoutLo, b.LayoutHi = lo, hi
			// A bound the rounds could not give (0) stays unknown.
			if b.RatioLo > 0 {
				b.RatioLo = min(b.RatioLo, lo)
			}
			if b.RatioHi > 0 {
				b.RatioHi = max(b.RatioHi, hi)
			}
		}
	}
	return b
}

// layoutGroups is Ratios split by layout, in the order the layouts first
// ran; nil without Layouts.
func (b Benchmark) layoutGroups() [][]float64 {
	if len(b.Layouts) != len(b.Ratios) || len(b.Layouts) == 0 {
		return nil
	}
	at := map[int]int{}
	var groups [][]float64
	for i, k := range b.Layouts {
		j, ok := at[k]
		if !ok {
			j = len(groups)
			at[k] = j
			groups = append(groups, nil)
		}
		groups[j] = append(groups[j], b.Ratios[i])
	}
	return groups
}

// layoutMedians is the median ratio of each layout (layoutGroups).
func (b Benchmark) layoutMedians() []float64 {
	var out []float64
	for _, g := range b.layoutGroups() {
		out = append(out, stats.Median(g))
	}
	return out
}

// LayoutsWider reports whether the interval between the layouts is what
// widened the change's interval at either end: the layouts disagree by
// more than the rounds within them.
func (b Benchmark) LayoutsWider() bool {
	return b.LayoutLo > 0 && (b.LayoutLo == b.RatioLo || b.LayoutHi == b.RatioHi)
}

// Change is the change of time as a fraction, Ratio - 1: 0.05 is 5%
// slower at head.
func (b Benchmark) Change() float64 { return b.Ratio - 1 }

// ChangeInterval is the 95% interval of Change, with MeasureInstructions
// the range over the rounds; ok is false when there are too few rounds for
// an interval.
func (b Benchmark) ChangeInterval() (lo, hi float64, ok bool) {
	if b.RatioLo <= 0 || b.RatioHi <= 0 {
		return 0, 0, false
	}
	return b.RatioLo - 1, b.RatioHi - 1, true
}

// Significant reports whether the change of time is significant at alpha
// after the correction: Q ≤ alpha. With MeasureInstructions, whether
// every round's ratio lies beyond the tolerance on the same side: all
// above 1 + Tolerance, or all below 1 - Tolerance.
func (b Benchmark) Significant(alpha float64) bool {
	if len(b.Ratios) == 0 {
		return false
	}
	if b.Measure != MeasureInstructions {
		return b.Q <= alpha
	}
	up, down := true, true
	for _, r := range b.Ratios {
		up = up && r > 1+b.Tolerance
		down = down && r < 1-b.Tolerance
	}
	return up || down
}

// base and head are the compared figure's medians: ns/op, or
// instructions/op.
func (b Benchmark) base() float64 {
	if b.Measure == MeasureInstructions {
		return b.BaseInstructions
	}
	return b.BaseNs
}

func (b Benchmark) head() float64 {
	if b.Measure == MeasureInstructions {
		return b.HeadInstructions
	}
	return b.HeadNs
}

// minRoundsFor is the fewest rounds whose sign test can reach alpha: n
// ratios all on one side give p = 2·0.5^n.
func minRoundsFor(alpha float64) int {
	n := 1
	for ; n < 62 && 2*math.Pow(0.5, float64(n)) > alpha; n++ {
	}
	return n
}

// A sample is one benchmark's figures in one invocation.
type sample struct {
	ns, bytes, allocs float64
	instr             float64 // instructions per operation, MeasureInstructions
	mem               bool    // B/op and allocs/op were printed
}

// parseOutput reads a test binary's output (the Go benchmark format,
// golang.org/x/perf/benchfmt) and returns each benchmark's figures by name
// and the names in order. Lines that are not benchmark results are
// skipped; a name printed twice keeps its last figures.
func parseOutput(out []byte) (map[string]sample, []string, error) {
	m := map[string]sample{}
	var order []string
	rd := benchfmt.NewReader(bytes.NewReader(out), "")
	for rd.Scan() {
		rec, ok := rd.Result().(*benchfmt.Result)
		if !ok {
			continue
		}
		var s sample
		hasNs, hasB, hasA := false, false, false
		for _, v := range rec.Values {
			val, unit := v.Value, v.Unit
			if v.OrigUnit != "" {
				val, unit = v.OrigValue, v.OrigUnit
			}
			switch unit {
			case "ns/op":
				s.ns, hasNs = val, true
			case "B/op":
				s.bytes, hasB = val, true
			case "allocs/op":
				s.allocs, hasA = val, true
			}
		}
		if !hasNs {
			continue
		}
		s.mem = hasB && hasA
		name := rec.Name.String()
		if _, seen := m[name]; !seen {
			order = append(order, name)
		}
		m[name] = s
	}
	if err := rd.Err(); err != nil {
		return nil, nil, fmt.Errorf("ab: read benchmark output: %w", err)
	}
	return m, order, nil
}

// hasBenchmarks reports whether a test binary's output holds a benchmark
// result.
func hasBenchmarks(out []byte) bool {
	m, _, err := parseOutput(out)
	return err == nil && len(m) > 0
}

// analyze pairs base[i] with head[i], the outputs of round i, and
// computes the Result of opts (which must be resolved).
func analyze(opts Options, base, head [][]byte) (*Result, error) {
	if len(base) != len(head) {
		return nil, fmt.Errorf("ab: %d base outputs but %d head outputs", len(base), len(head))
	}
	rounds := make([][2]map[string]sample, len(base))
	var order [2][]string
	seen := [2]map[string]bool{{}, {}}
	for r := range rounds {
		for i, out := range [2][]byte{base[r], head[r]} {
			m, names, err := parseOutput(out)
			if err != nil {
				return nil, err
			}
			rounds[r][i] = m
			for _, n := range names {
				if !seen[i][n] {
					seen[i][n] = true
					order[i] = append(order[i], n)
				}
			}
		}
	}
	return analyse(opts, rounds, order), nil
}

// analyse computes the Result of opts (which must be resolved) from each
// round's figures of each side, rounds[r][0] base's and rounds[r][1]
// head's, and the names of each side's benchmarks in order.
func analyse(opts Options, rounds [][2]map[string]sample, order [2][]string) *Result {
	res := &Result{Options: opts, Rounds: len(rounds)}
	seen := [2]map[string]bool{{}, {}}
	for i := range order {
		for _, n := range order[i] {
			seen[i][n] = true
		}
	}
	var names []string
	for _, n := range order[0] {
		if seen[1][n] {
			names = append(names, n)
		} else {
			res.OnlyBase = append(res.OnlyBase, n)
		}
	}
	for _, n := range order[1] {
		if !seen[0][n] {
			res.OnlyHead = append(res.OnlyHead, n)
		}
	}
	var ps []float64
	for _, n := range names {
		b := pair(opts, n, rounds)
		if len(b.Ratios) == 0 {
			// Both sides ran it, never in the same round: nothing to pair.
			b.P = 1
		}
		ps = append(ps, b.P)
		res.Benchmarks = append(res.Benchmarks, b)
	}
	for i, q := range stats.AdjustBH(ps) {
		res.Benchmarks[i].Q = q
	}
	if n := minRoundsFor(opts.Alpha); opts.Measure == MeasureTime && len(res.Benchmarks) > 0 && res.Rounds < n {
		res.Warnings = append(res.Warnings, fmt.Sprintf("%d rounds: the sign test needs %d or more to reach alpha %v, so no change of time can be significant (-rounds %d)", res.Rounds, n, opts.Alpha, max(n, DefaultRounds)))
	}
	if opts.Measure == MeasureInstructions {
		res.Warnings = append(res.Warnings, spread(res, rounds)...)
	}
	return res
}

// spread warns of each benchmark whose per-operation count varied between
// the rounds of one side by more than the tolerance: there, the gate's
// tolerance is smaller than the counts' own variation.
func spread(res *Result, rounds [][2]map[string]sample) []string {
	var out []string
	for _, b := range res.Benchmarks {
		for i, which := range [2]string{"base", "head"} {
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, r := range rounds {
				if s, ok := r[i][b.Name]; ok {
					lo, hi = min(lo, s.instr), max(hi, s.instr)
				}
			}
			if lo > 0 && hi/lo-1 > res.Options.Tolerance {
				out = append(out, fmt.Sprintf("%s: %s's instructions/op varied by %s between rounds (%s to %s), more than the tolerance %s: count more iterations (-benchtime)",
					b.Name, which, percent(hi/lo-1), figure(lo), figure(hi), limit(res.Options.Tolerance)))
			}
		}
	}
	return out
}

// pair computes benchmark name's comparison over the rounds in which both
// sides ran it.
func pair(opts Options, name string, rounds [][2]map[string]sample) Benchmark {
	b := Benchmark{Name: name, Measure: opts.Measure, Mem: true, BytesUp: true, AllocsUp: true, BytesDown: true, AllocsDown: true}
	instructions := opts.Measure == MeasureInstructions
	if instructions {
		b.Tolerance = opts.Tolerance
	}
	var baseNs, headNs, baseB, headB, baseA, headA []float64
	for i, r := range rounds {
		x, okx := r[0][name]
		y, oky := r[1][name]
		fx, fy := x.ns, y.ns
		if instructions {
			fx, fy = x.instr, y.instr
		}
		if !okx || !oky || fx <= 0 || fy <= 0 {
			continue
		}
		b.Ratios = append(b.Ratios, fy/fx)
		if opts.Layouts > 1 && !instructions {
			b.Layouts = append(b.Layouts, i/2%opts.Layouts+1)
		}
		baseNs, headNs = append(baseNs, fx), append(headNs, fy)
		b.Mem = b.Mem && x.mem && y.mem
		baseB, headB = append(baseB, x.bytes), append(headB, y.bytes)
		baseA, headA = append(baseA, x.allocs), append(headA, y.allocs)
		b.BytesUp = b.BytesUp && y.bytes > x.bytes
		b.AllocsUp = b.AllocsUp && y.allocs > x.allocs
		b.BytesDown = b.BytesDown && y.bytes < x.bytes
		b.AllocsDown = b.AllocsDown && y.allocs < x.allocs
	}
	if len(b.Ratios) == 0 || !b.Mem {
		b.BytesUp, b.AllocsUp, b.BytesDown, b.AllocsDown = false, false, false, false
	}
	if len(b.Ratios) == 0 {
		b.Mem = false
		return b
	}
	if instructions {
		b.Ratio, b.RatioLo, b.RatioHi = stats.Median(b.Ratios), slices.Min(b.Ratios), slices.Max(b.Ratios)
		b.P, b.Q = 1, 1
		b.BaseInstructions, b.HeadInstructions = stats.Median(baseNs), stats.Median(headNs)
	} else {
		b.Ratio, b.P = stats.Median(b.Ratios), stats.SignTest(b.Ratios)
		b = b.at(Confidence)
		b.BaseNs = stats.Median(baseNs)
		b.HeadNs, b.HeadNsLo, b.HeadNsHi = stats.Summarize(headNs)
	}
	if !b.Mem {
		return b
	}
	b.BaseBytes, b.HeadBytes = stats.Median(baseB), stats.Median(headB)
	b.BaseAllocs, b.HeadAllocs = stats.Median(baseA), stats.Median(headA)
	return b
}
