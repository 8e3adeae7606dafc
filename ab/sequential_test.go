package ab

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/stats"
)

// seqOutputs is forty rounds: Slow-2 takes 20% longer at head in every
// round; Unsure-2 is 0% to 13.3% slower by turns in the first twenty
// rounds (inconclusive at 5%) and the same in the next twenty.
func seqOutputs() (base, head [][]byte) {
	for i := range 40 {
		unsure := 1.0
		if i < 20 {
			unsure = 1 + 0.007*float64(i)
		}
		base = append(base, output(line("Slow-2", 1000, 0, 0), line("Unsure-2", 1000, 0, 0)))
		head = append(head, output(line("Slow-2", 1200, 0, 0), line("Unsure-2", 1000*unsure, 0, 0)))
	}
	return base, head
}

func TestAnalyzeLooks(t *testing.T) {
	opts, err := Options{Base: "main", Budget: time.Minute, MaxRegression: 0.05}.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	base, head := seqOutputs()
	res, decided, err := analyzeLooks(opts, base, head, []int{20, 40}, 40)
	if err != nil {
		t.Fatal(err)
	}
	if len(decided) != 2 || decided[0] != 1 || decided[1] != 1 {
		t.Errorf("decided at each look %v, want [1 1]: Slow-2 at the first, Unsure-2 at the second", decided)
	}
	by := map[string]Benchmark{}
	for _, b := range res.Benchmarks {
		by[b.Name] = b
	}
	slow, unsure := by["Slow-2"], by["Unsure-2"]
	first := stats.LookConfidence(0.05, 20, 0, 40)
	if len(slow.Ratios) != 20 || math.Abs(slow.Confidence-first) > 1e-12 || res.Judge(slow, 0.05).Verdict != "regressed" {
		t.Errorf("Slow-2: %d rounds at %v, verdict %s; want the first look's 20 at %v, regressed", len(slow.Ratios), slow.Confidence, res.Judge(slow, 0.05).Verdict, first)
	}
	second := stats.LookConfidence(0.05, 40, 20, 40)
	if len(unsure.Ratios) != 40 || math.Abs(unsure.Confidence-second) > 1e-12 || res.Judge(unsure, 0.05).Verdict != "unchanged" {
		t.Errorf("Unsure-2: %d rounds at %v, verdict %s; want 40 at %v, unchanged", len(unsure.Ratios), unsure.Confidence, res.Judge(unsure, 0.05).Verdict, second)
	}
	// At the first look alone Unsure-2 is inconclusive.
	res1, _, err := analyzeLooks(opts, base[:20], head[:20], []int{20}, 40)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(Inconclusive(res1, 0.05)); n != 1 {
		t.Errorf("%d inconclusive at the first look, want Unsure-2", n)
	}
}

// TestSequential runs the budget's loop on recorded outputs, its start
// put twenty seconds back so that the first batch's pace is a second a
// round: a minute plans 60 rounds, and Unsure-2 is decided after 40.
func TestSequential(t *testing.T) {
	opts, err := Options{Base: "main", Budget: time.Minute, MaxRegression: 0.05}.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	base, head := seqOutputs()
	outs := [][][]byte{base[:20], head[:20]}
	var asked [][2]int
	more := func(from, to, total int) error {
		asked = append(asked, [2]int{from, to})
		outs[0], outs[1] = base[:to], head[:to]
		return nil
	}
	res, err := sequential(opts, outs, time.Now().Add(-20*time.Second), more, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	sq := res.Sequential
	if len(asked) != 1 || asked[0] != [2]int{20, 40} || sq == nil || sq.Plan < 40 || len(sq.Looks) != 2 || sq.Looks[1] != 40 {
		t.Fatalf("asked for rounds %v, sequential %+v; want 20 to 40 once, two looks", asked, sq)
	}
	if n := len(Inconclusive(res, 0.05)); n != 0 {
		t.Errorf("%d inconclusive after the second look", n)
	}
	line := sq.String()
	for _, want := range []string{"sequential (-budget 1m0s): 40 rounds in 2 looks (20, 40)", "benchmarks decided at each look: 1, 1", "O'Brien-Fleming-type alpha spending (Lan-DeMets)"} {
		if !strings.Contains(line, want) {
			t.Errorf("%q lacks %q", line, want)
		}
	}
	stop := errors.New("stop")
	if _, err := sequential(opts, [][][]byte{base[:20], head[:20]}, time.Now().Add(-20*time.Second), func(int, int, int) error { return stop }, func(int) {}); !errors.Is(err, stop) {
		t.Errorf("a failed batch: err %v", err)
	}
}

func TestBudgetOptions(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Base: "m", Budget: time.Second, MaxRegression: 0.05}, "too small for the first 20 rounds: at least 2s"},
		{Options{Base: "m", Budget: time.Minute}, "needs the gate's threshold"},
		{Options{Base: "m", Budget: -time.Second, MaxRegression: 0.05}, "must be positive"},
		{Options{Base: "m", Budget: time.Minute, MaxRegression: 0.05, Measure: MeasureInstructions}, "time only"},
	} {
		var oe *OptionError
		if _, err := tc.opts.Resolved(); !errors.As(err, &oe) || oe.Field != "Budget" || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want a Budget error saying %q", tc.opts, err, tc.want)
		}
	}
}
