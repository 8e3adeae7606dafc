package report_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/gate"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
	"github.com/serbench/serbench/verdict"
)

// synthRun describes a run document built by hand for the gate's tests: six
// codecs (encoding/json the baseline) on five scenarios, marshal and
// unmarshal, and a convert cell of codec "a" on each scenario, every cell
// sampled round-robin, each round sharing a drift of the machine.
type synthRun struct {
	seed uint64
	// machine scales every time of the run (the machine's speed).
	machine float64
	// base scales the baseline's times of every process: that process's
	// encoding/json ran faster or slower (a process-level effect).
	base float64
	// slow scales the marshal and convert times of the named codecs.
	slow map[string]float64
	// procs is the number of processes (run -processes); 0 or 1 is one.
	procs int
	// spread is the relative spread of a process's codecs other than the
	// baseline from one process to the next (each process draws its own).
	spread float64
	// bytes gives the named codecs' B/op of each process, in turn (64
	// otherwise), and jitter makes their per-sample B/op vary by that
	// fraction around it (sonic's).
	bytes  map[string][]int64
	jitter float64
}

var synthCodecs = []string{"encoding/json", "a", "b", "c", "d", "e"}

// doc builds the run document.
func (s synthRun) doc() *results.Run {
	rng := rand.New(rand.NewPCG(s.seed, 41))
	procs := max(s.procs, 1)
	const rounds = 12
	type key struct{ codec, scenario, op string }
	samples := map[key][][]float64{} // per process
	bytesOf := func(c string, p int) int64 {
		if bs, ok := s.bytes[c]; ok {
			return bs[p%len(bs)]
		}
		return 64
	}
	var keys []key
	for p := range procs {
		pf := map[string]float64{}
		for _, c := range synthCodecs {
			pf[c] = 1 + s.spread*rng.NormFloat64()
		}
		pf["encoding/json"] *= s.base
		drift := make([]float64, rounds)
		for k := range drift {
			drift[k] = s.machine * (1 + 0.04*rng.Float64())
		}
		for si, sc := range []string{"s1", "s2", "s3", "s4", "s5"} {
			for ci, c := range synthCodecs {
				ops := []string{results.OpMarshal, results.OpUnmarshal}
				if c == "a" {
					ops = append(ops, results.OpConvert)
				}
				for _, op := range ops {
					k := key{c, sc, op}
					if p == 0 {
						keys = append(keys, k)
					}
					ns := 1000 / float64(ci+1) * (1 + 0.1*float64(si))
					if op == results.OpConvert {
						ns /= 4
					}
					if f, ok := s.slow[c]; ok && op != results.OpUnmarshal {
						ns *= f
					}
					xs := make([]float64, rounds)
					for r := range xs {
						xs[r] = ns * pf[c] * drift[r] * (1 + 0.005*rng.NormFloat64())
					}
					samples[k] = append(samples[k], xs)
				}
			}
		}
	}
	d := &results.Run{Baseline: "encoding/json"}
	for _, k := range keys {
		r := results.Row{Codec: k.codec, Scenario: k.scenario, Op: k.op, OK: true, Iterations: 1000, BytesPerOp: 64, AllocsPerOp: 2}
		base := samples[key{"encoding/json", k.scenario, k.op}]
		for p, xs := range samples[k] {
			r.Samples = append(r.Samples, xs...)
			f := results.ProcessFigures{NsPerOp: stats.Median(xs), BytesPerOp: bytesOf(k.codec, p), AllocsPerOp: 2, Samples: len(xs)}
			for i := range xs {
				j := 0.0
				if _, ok := s.bytes[k.codec]; ok {
					j = s.jitter * float64(i%3-1)
				}
				r.SampleBytes = append(r.SampleBytes, float64(f.BytesPerOp)*(1+j))
				r.SampleAllocs = append(r.SampleAllocs, 2)
			}
			if k.op != results.OpConvert {
				var ratios []float64
				for i, x := range xs {
					ratios = append(ratios, base[p][i]/x)
				}
				r.PairRatios = append(r.PairRatios, ratios...)
				f.Speedup = stats.Median(ratios)
			}
			r.Processes = append(r.Processes, f)
		}
		if procs == 1 {
			r.Processes = nil
		}
		r.NsPerOp, r.BytesPerOp = stats.Median(r.Samples), int64(stats.Median(r.SampleBytes))
		if r.PairRatios != nil {
			r.Speedup = stats.Median(r.PairRatios)
		}
		d.Results = append(d.Results, r)
	}
	return d
}

// gated compares olds with news (CompareRuns) and gates them at 5%.
func gated(t *testing.T, olds, news []*results.Run) *compare.Comparison {
	t.Helper()
	c, err := compare.CompareRuns(olds, news, compare.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := compare.ApplyGate([]*compare.Comparison{c}, 0.05); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestGateConvertPaired: a convert cell has no speed-up; with one process
// a side it is compared by same-round samples of the baseline's marshal
// (BasisRoundsRef), so that a machine 10% slower in the new run does not
// move it, while the cell slowed by 10% is inconclusive, never unchanged:
// samples a round apart cannot tell a slower cell from noise that differed
// between the runs, so it does not regress on one run a side.
func TestGateConvertPaired(t *testing.T) {
	old := synthRun{seed: 1, machine: 1, base: 1}.doc()
	for _, tc := range []struct {
		name string
		new  synthRun
		want verdict.Verdict
	}{
		{"machine slower", synthRun{seed: 2, machine: 1.1, base: 1}, verdict.Unchanged},
		{"convert slower", synthRun{seed: 2, machine: 1, base: 1, slow: map[string]float64{"a": 1.1}}, verdict.Inconclusive},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := gated(t, []*results.Run{old}, []*results.Run{tc.new.doc()})
			n := 0
			for _, r := range c.Rows {
				if r.Op != results.OpConvert {
					continue
				}
				n++
				if r.Basis != compare.BasisRoundsRef || r.Verdict != tc.want {
					t.Errorf("%v: basis %s, verdict %s (change %+.3f %v); want %s, %s", r.Cell, r.Basis, r.Verdict, r.Change, r.ChangeInterval, compare.BasisRoundsRef, tc.want)
				}
			}
			if n != 5 {
				t.Errorf("%d convert rows, want 5", n)
			}
		})
	}
}

// TestGateConvertUnpaired: a convert cell whose runs hold no samples of the
// baseline's marshal has nothing to pair with: the gate reads it
// inconclusive and says why, never regressed, however its ns/op moved.
func TestGateConvertUnpaired(t *testing.T) {
	strip := func(d *results.Run) *results.Run {
		d.Results = slices.DeleteFunc(d.Results, func(r results.Row) bool {
			return r.Codec == "encoding/json" && r.Op == results.OpMarshal
		})
		return d
	}
	old := strip(synthRun{seed: 1, machine: 1, base: 1}.doc())
	c := gated(t, []*results.Run{old}, []*results.Run{strip(synthRun{seed: 2, machine: 1.2, base: 1}.doc())})
	unsure, err := compare.Inconclusive(c, 0.05)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, r := range c.Rows {
		if r.Op != results.OpConvert {
			continue
		}
		if r.Verdict != verdict.Inconclusive || !compare.Unpaired(c, r) {
			t.Errorf("%v: verdict %s, unpaired %v; want inconclusive, unpaired", r.Cell, r.Verdict, compare.Unpaired(c, r))
		}
	}
	for _, u := range unsure {
		if strings.HasSuffix(u.Name, " op="+results.OpConvert) {
			n++
			if s := u.String(); !strings.Contains(s, "no figure of it was timed beside the baseline") {
				t.Errorf("inconclusive line lacks the reason: %s", s)
			}
		}
	}
	if n != 5 {
		t.Errorf("%d convert cells inconclusive, want 5", n)
	}
}

// TestGateAllocationsBetweenProcesses: with one process on a side, a B/op
// change is held against what the figure varies between processes: within
// the spread of the other side's processes, or varying from sample to
// sample with no processes to show the spread, it is inconclusive; a
// figure steady within each run that grew regresses; between replicate
// runs the test decides.
func TestGateAllocationsBetweenProcesses(t *testing.T) {
	one := func(seed uint64, b []int64, jitter float64) *results.Run {
		return synthRun{seed: seed, machine: 1, base: 1, bytes: map[string][]int64{"b": b}, jitter: jitter}.doc()
	}
	three := func(seed uint64, b []int64) *results.Run {
		return synthRun{seed: seed, machine: 1, base: 1, procs: 3, bytes: map[string][]int64{"b": b}, jitter: 0.01}.doc()
	}
	docs := func(ds ...*results.Run) []*results.Run { return ds }
	for _, tc := range []struct {
		name       string
		olds, news []*results.Run
		want       string // "regressed", "inconclusive" or "" (neither)
		why        string
	}{
		{"one a side, varies within a run", docs(one(1, []int64{640}, 0.01)), docs(one(2, []int64{690}, 0.01)), "inconclusive", "varies from sample to sample"},
		{"one a side, steady", docs(one(1, []int64{640}, 0)), docs(one(2, []int64{740}, 0)), "regressed", ""},
		{"within the other side's spread", docs(three(1, []int64{600, 640, 660})), docs(one(2, []int64{680}, 0.01)), "inconclusive", "between the processes of one side"},
		{"beyond the other side's spread", docs(three(1, []int64{600, 640, 620})), docs(one(2, []int64{800}, 0.01)), "regressed", ""},
		{"replicates, within the spread", docs(three(1, []int64{600, 640, 700})), docs(three(2, []int64{620, 700, 660})), "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := gated(t, tc.olds, tc.news)
			regs, err := compare.Regressions(c, 0.05)
			if err != nil {
				t.Fatal(err)
			}
			unsure, err := compare.Inconclusive(c, 0.05)
			if err != nil {
				t.Fatal(err)
			}
			find := func(rs []gate.Figure) *gate.Figure {
				for i, r := range rs {
					if r.Metric == "B/op" && r.Name == "codec=b scenario=s1 op="+results.OpMarshal {
						return &rs[i]
					}
				}
				return nil
			}
			reg, un := find(regs), find(unsure)
			for _, r := range append(regs, unsure...) {
				if r.Metric == "B/op" && !strings.HasPrefix(r.Name, "codec=b ") {
					t.Errorf("B/op of %s listed: %s", r.Name, r)
				}
			}
			switch tc.want {
			case "regressed":
				if reg == nil || un != nil {
					t.Errorf("regressed %v, inconclusive %v; want regressed", reg, un)
				}
			case "inconclusive":
				if reg != nil || un == nil {
					t.Fatalf("regressed %v, inconclusive %v; want inconclusive", reg, un)
				}
				if !strings.Contains(un.String(), tc.why) {
					t.Errorf("line lacks %q: %s", tc.why, un)
				}
			default:
				if reg != nil || un != nil {
					t.Errorf("regressed %v, inconclusive %v; want neither", reg, un)
				}
			}
		})
	}
}

// TestGateProcessShift: identical code whose process ran encoding/json 8%
// faster (every speed-up of the run fell together) gives no regressed
// cell with one process a side; a codec slowed by 10% is regressed with
// three processes a side, regressed or inconclusive with one, never
// unchanged.
func TestGateProcessShift(t *testing.T) {
	slowC := map[string]float64{"c": 1.1}
	for _, tc := range []struct {
		name     string
		old, new synthRun
		// slowed is the codec slowed by 10%, "" for identical code.
		slowed string
		// regressed is what the slowed codec's marshal cells must read.
		want []verdict.Verdict
	}{
		{"identical, one process, baseline faster", synthRun{seed: 1, machine: 1, base: 1}, synthRun{seed: 2, machine: 1.05, base: 0.92}, "", nil},
		{"identical, one process, baseline slower", synthRun{seed: 1, machine: 1, base: 1.08}, synthRun{seed: 2, machine: 1, base: 1}, "", nil},
		{"identical, three processes", synthRun{seed: 1, machine: 1, base: 1, procs: 3, spread: 0.03}, synthRun{seed: 2, machine: 1.05, base: 0.97, procs: 3, spread: 0.03}, "", nil},
		{"slowed, one process", synthRun{seed: 1, machine: 1, base: 1}, synthRun{seed: 2, machine: 1, base: 1, slow: slowC}, "c", []verdict.Verdict{verdict.Regressed, verdict.Inconclusive}},
		{"slowed, one process, baseline faster", synthRun{seed: 1, machine: 1, base: 1}, synthRun{seed: 2, machine: 1, base: 0.94, slow: slowC}, "c", []verdict.Verdict{verdict.Regressed, verdict.Inconclusive}},
		{"slowed, three processes", synthRun{seed: 1, machine: 1, base: 1, procs: 3, spread: 0.002}, synthRun{seed: 2, machine: 1, base: 1, procs: 3, spread: 0.002, slow: slowC}, "c", []verdict.Verdict{verdict.Regressed}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := gated(t, []*results.Run{tc.old.doc()}, []*results.Run{tc.new.doc()})
			seen := 0
			for _, r := range c.Rows {
				if r.Codec == tc.slowed && r.Op == results.OpMarshal {
					seen++
					if !slices.Contains(tc.want, r.Verdict) {
						t.Errorf("%v: %s (change %+.3f %v), want one of %v", r.Cell, r.Verdict, r.Change, r.ChangeInterval, tc.want)
					}
					continue
				}
				if r.Verdict == verdict.Regressed {
					t.Errorf("%v regressed (change %+.3f %v, basis %s)", r.Cell, r.Change, r.ChangeInterval, r.Basis)
				}
			}
			if tc.slowed != "" && seen != 5 {
				t.Errorf("%d marshal cells of %s, want 5", seen, tc.slowed)
			}
			if tc.new.base < 1 && tc.new.procs < 2 {
				unsure, err := compare.InconclusiveLines([]*compare.Comparison{c}, 0.05)
				if err != nil {
					t.Fatal(err)
				}
				if all := strings.Join(unsure, "\n"); !strings.Contains(all, "which a faster or slower process, not the code, may explain") {
					t.Errorf("no inconclusive line puts the shift down to the process:\n%s", all)
				}
			}
		})
	}
}
