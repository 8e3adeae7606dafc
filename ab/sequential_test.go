package ab

import (
	"errors"
	"math"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/stats"
)

// seqOutputs is forty rounds: Slow-2 takes 20% longer at head in every
// round; Unsure-2 is 0% to 13.3% slower by turns in the first twenty
// rounds (inconclusive at 5%) and the same in the next twenty. A round
// holds only the benchmarks in only, when given (a later batch's).
func seqOutputs(only ...string) (base, head [][]byte) {
	want := func(name string) bool { return len(only) == 0 || slices.Contains(only, name) }
	for i := range 40 {
		unsure := 1.0
		if i < 20 {
			unsure = 1 + 0.007*float64(i)
		}
		var b, h []string
		if want("Slow-2") {
			b, h = append(b, line("Slow-2", 1000, 0, 0)), append(h, line("Slow-2", 1200, 0, 0))
		}
		if want("Unsure-2") {
			b, h = append(b, line("Unsure-2", 1000, 0, 0)), append(h, line("Unsure-2", 1000*unsure, 0, 0))
		}
		base, head = append(base, output(b...)), append(head, output(h...))
	}
	return base, head
}

func TestAnalyzeLooks(t *testing.T) {
	opts, err := Options{Base: "main", Budget: time.Minute, MaxRegression: 0.05}.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	base, head := seqOutputs()
	res, bought, err := analyzeLooks(opts, base, head, []int{20, 40}, 40, false)
	if err != nil {
		t.Fatal(err)
	}
	if d := decidedAt(bought, 2); len(d) != 2 || d[0] != 1 || d[1] != 1 {
		t.Errorf("decided at each look %v, want [1 1]: Slow-2 at the first, Unsure-2 at the second", d)
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
	if b := bought[1]; b.Name != "Unsure-2" || b.Rounds != 40 || b.Look != 2 || b.Verdict != "unchanged" || !(b.Width > 0 && b.Width < b.FirstWidth) {
		t.Errorf("bought Unsure-2 %+v, want 40 rounds, look 2, unchanged, a narrower interval than at the first look", b)
	}
	// At the first look alone Unsure-2 is inconclusive.
	res1, _, err := analyzeLooks(opts, base[:20], head[:20], []int{20}, 40, false)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(Inconclusive(res1, 0.05)); n != 1 {
		t.Errorf("%d inconclusive at the first look, want Unsure-2", n)
	}
}

// TestSequential runs the budget's loop with a fake runner, its start put
// twenty seconds back so that the first batch's pace is a second a
// round: a minute plans 60 rounds. Slow-2 is decided at the first look,
// so the second batch runs Unsure-2 alone (its rounds hold nothing
// else), which is decided after 40; Slow-2 keeps its first look's
// verdict and 20 rounds.
func TestSequential(t *testing.T) {
	opts, err := Options{Base: "main", Budget: time.Minute, MaxRegression: 0.05}.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	base, head := seqOutputs()
	outs := [][][]byte{base[:20], head[:20]}
	type ask struct {
		from, to int
		names    string
	}
	var asked []ask
	more := func(from, to, total int, names []string) error {
		asked = append(asked, ask{from, to, strings.Join(names, " ")})
		b, h := seqOutputs(names...)
		outs[0], outs[1] = append(outs[0], b[from:to]...), append(outs[1], h[from:to]...)
		return nil
	}
	var told []int
	res, err := sequential(opts, outs, time.Now().Add(-20*time.Second), more, func(n int) { told = append(told, n) })
	if err != nil {
		t.Fatal(err)
	}
	sq := res.Sequential
	if len(asked) != 1 || asked[0] != (ask{20, 40, "Unsure-2"}) || sq == nil || sq.Plan < 40 || len(sq.Looks) != 2 || sq.Looks[1] != 40 {
		t.Fatalf("asked for %+v, sequential %+v; want rounds 20 to 40 of Unsure-2 once, two looks", asked, sq)
	}
	if !slices.Equal(told, []int{1, 2}) {
		t.Errorf("told %v benchmarks decided, want 1 then 2", told)
	}
	if n := len(Inconclusive(res, 0.05)); n != 0 {
		t.Errorf("%d inconclusive after the second look", n)
	}
	for _, b := range res.Benchmarks {
		if b.Name == "Slow-2" && (len(b.Ratios) != 20 || res.Judge(b, 0.05).Verdict != "regressed") {
			t.Errorf("Slow-2 after the second batch: %d rounds, %s; want its first look's 20, regressed", len(b.Ratios), res.Judge(b, 0.05).Verdict)
		}
	}
	text := res.Sequential.String() + "\n" + strings.Join(sq.BoughtLines(), "\n")
	for _, want := range []string{"sequential (-budget 1m0s): 40 rounds in 2 looks (20, 40)", "benchmarks decided at each look: 1, 1", "O'Brien-Fleming-type alpha spending (Lan-DeMets)",
		"- Slow-2: 20 rounds, decided at look 1 of 2 (regressed); interval: 0.0% wide at the first look, 0.0% wide at its last", "- Unsure-2: 40 rounds, decided at look 2 of 2 (unchanged); interval: 10.5% wide at the first look, 4.9% wide at its last"} {
		if !strings.Contains(text, want) {
			t.Errorf("%q lacks %q", text, want)
		}
	}
	stop := errors.New("stop")
	if _, err := sequential(opts, [][][]byte{base[:20], head[:20]}, time.Now().Add(-20*time.Second), func(int, int, int, []string) error { return stop }, func(int) {}); !errors.Is(err, stop) {
		t.Errorf("a failed batch: err %v", err)
	}
}

// TestBenchUnion: the pattern of a later batch selects each name's
// levels, quoted and anchored, and no other top-level benchmark.
func TestBenchUnion(t *testing.T) {
	got := benchUnion([]string{"Encode/size=small-8", "Decode/size=big-8", "Sum-8"})
	want := `(?:^BenchmarkEncode$|^BenchmarkDecode$|^BenchmarkSum$)/(?:^size=small$|^size=big$)`
	if got != want {
		t.Errorf("benchUnion = %s, want %s", got, want)
	}
	if got := benchUnion([]string{"Sum-2"}); got != "^BenchmarkSum$" {
		t.Errorf("one name: %s", got)
	}
}

func TestBudgetOptions(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want string
	}{
		{Options{Base: "m", Budget: 500 * time.Millisecond, MaxRegression: 0.05}, "too small for the first 20 rounds: at least 800ms"},
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

// TestSequentialLastLook: a benchmark that stays inconclusive (head 0%
// and 10% slower by turns) while the budget runs out: the first batch
// took 10 ms a round, so a second of budget plans 100 rounds, but later
// batches take 15 ms a round, so the rounds stop short of the plan. The
// last look spends all of the error rate that the looks before it left:
// a lower confidence than its share of the plan would give it.
func TestSequentialLastLook(t *testing.T) {
	res, _ := runUnsure(t, func(int) time.Duration { return 15 * time.Millisecond })
	sq := res.Sequential
	n, prev := sq.Looks[len(sq.Looks)-1], 0
	if len(sq.Looks) > 1 {
		prev = sq.Looks[len(sq.Looks)-2]
	}
	if !sq.LastSpent || n >= sq.Plan {
		t.Fatalf("looks %v of %d planned, last spent %v; want the last look short of the plan, spending what was left", sq.Looks, sq.Plan, sq.LastSpent)
	}
	b0 := res.Benchmarks[0]
	want, share := stats.FinalLookConfidence(0.05, prev, sq.Plan), stats.LookConfidence(0.05, n, prev, sq.Plan)
	if len(b0.Ratios) != n || math.Abs(b0.Confidence-want) > 1e-12 || want >= share {
		t.Errorf("Unsure-2: %d rounds at %v; want %d at %v (all that the looks before it left), below its share of the plan, %v", len(b0.Ratios), b0.Confidence, n, want, share)
	}
	if v := res.Judge(b0, 0.05).Verdict; v != "inconclusive" {
		t.Errorf("Unsure-2 %s, want inconclusive", v)
	}
	if s := sq.String(); !strings.Contains(s, "the last at all that the looks before it left") {
		t.Errorf("%q does not say that the last look spent what was left", s)
	}
}

// TestSequentialLastBatchKeepsBudget: the batches after the first run at
// 2 ms a round, so when a batch would reach the plan (100 rounds at the
// first batch's 10 ms) the budget seems to hold hundreds more; then the
// rounds slow to 20 ms. The last batch runs in parts of 20 rounds, each
// while the budget holds one more at the latest pace, so it stops within
// one part of the budget instead of running the hundreds at ten times
// the time.
func TestSequentialLastBatchKeepsBudget(t *testing.T) {
	res, start := runUnsure(t, func(call int) time.Duration {
		if call > 3 {
			return 20 * time.Millisecond
		}
		return 2 * time.Millisecond
	})
	sq := res.Sequential
	if used, part := time.Since(start), 20*20*time.Millisecond; used > res.Options.Budget+part+100*time.Millisecond || !sq.LastSpent {
		t.Errorf("looks %v of %d planned took %v, last spent %v; want at most the budget %v and one part (%v), the last look spending what was left", sq.Looks, sq.Plan, used, sq.LastSpent, res.Options.Budget, part)
	}
}

// runUnsure runs the budget's loop with a budget of a second on
// unsureRounds, its start put 200 ms back so that the first batch's pace
// is 10 ms a round (a plan of 100 rounds), and each later batch's k-th
// call (from 1) sleeping perRound(k) a round; it returns the Result and
// the start.
func runUnsure(t *testing.T, perRound func(call int) time.Duration) (*Result, time.Time) {
	t.Helper()
	opts, err := Options{Base: "main", Budget: time.Second, Benchtime: time.Millisecond, MaxRegression: 0.05}.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	b, h := unsureRounds(0, 20)
	outs := [][][]byte{b, h}
	calls := 0
	more := func(from, to, total int, names []string) error {
		calls++
		time.Sleep(time.Duration(to-from) * perRound(calls))
		b, h := unsureRounds(from, to)
		outs[0], outs[1] = append(outs[0], b...), append(outs[1], h...)
		return nil
	}
	start := time.Now().Add(-200 * time.Millisecond)
	res, err := sequential(opts, outs, start, more, func(int) {})
	if err != nil {
		t.Fatal(err)
	}
	return res, start
}

// unsureRounds is rounds from up to to of Unsure-2, 0% and 10% slower at
// head by turns: inconclusive at 5% however many rounds.
func unsureRounds(from, to int) (base, head [][]byte) {
	for i := from; i < to; i++ {
		slower := 1.0
		if i%2 == 1 {
			slower = 1.1
		}
		base = append(base, output(line("Unsure-2", 1000, 0, 0)))
		head = append(head, output(line("Unsure-2", 1000*slower, 0, 0)))
	}
	return base, head
}
