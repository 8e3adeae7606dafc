package ab

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/internal/golden"
	"github.com/serbench/serbench/stats"
)

// output is a test binary's output for one invocation, as the testing
// package prints it with -benchmem.
func output(lines ...string) []byte {
	return []byte("goos: linux\ngoarch: amd64\npkg: example.com/m\ncpu: Test CPU\n" + strings.Join(lines, "\n") + "\nPASS\n")
}

func line(name string, ns, bytes, allocs float64) string {
	return fmt.Sprintf("Benchmark%s \t 1000\t %g ns/op\t %g B/op\t %g allocs/op", name, ns, bytes, allocs)
}

// fixture is ten rounds of a base and a head binary: Slower-2 takes 20%
// longer at head in every round, Same-2 is faster and slower by turns,
// Alloc-2 allocates once more per op at head in every round, Faster-2
// takes 25% less time and allocates once less, Gone-2 is only at base and
// New-2 only at head.
func fixture() (base, head [][]byte) {
	for r := range 10 {
		wobble := 1 + 0.01*float64(r%3)
		same := 1.02
		if r%2 == 1 {
			same = 0.98
		}
		base = append(base, output(
			line("Slower-2", 1000*wobble, 64, 1),
			line("Same-2", 500, 0, 0),
			line("Alloc-2", 250, 0, 0),
			line("Faster-2", 800*wobble, 32, 2),
			line("Gone-2", 10, 0, 0)))
		head = append(head, output(
			line("Slower-2", 1200*wobble, 64, 1),
			line("Same-2", 500*same, 0, 0),
			line("Alloc-2", 251, 8, 1),
			line("Faster-2", 600*wobble, 16, 1),
			line("New-2", 10, 0, 0)))
	}
	return base, head
}

func fixtureResult(t *testing.T) *Result {
	t.Helper()
	base, head := fixture()
	return analyzed(t, Options{Base: "main", Benchtime: 100 * time.Millisecond}, base, head)
}

// analyzed is analyze of opts (resolved here) with the fixture's two
// revisions.
func analyzed(t *testing.T, opts Options, base, head [][]byte) *Result {
	t.Helper()
	opts, err := opts.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	res, err := analyze(opts, base, head)
	if err != nil {
		t.Fatal(err)
	}
	res.Base = Revision{Name: "main", Commit: "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"}
	res.Head = Revision{Commit: "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432", WorkingTree: true}
	return res
}

func TestParseOutput(t *testing.T) {
	out := output(line("A-2", 12.5, 16, 1), "BenchmarkNoMem-2 \t 50\t 3000 ns/op", "some log line", line("A-2", 13, 16, 1))
	m, order, err := parseOutput(out)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(order, ","); got != "A-2,NoMem-2" {
		t.Errorf("order %s, want A-2,NoMem-2", got)
	}
	if s := m["A-2"]; s.ns != 13 || s.bytes != 16 || s.allocs != 1 || !s.mem {
		t.Errorf("A-2: %+v, want the last line's 13 ns/op, 16 B/op, 1 allocs/op", s)
	}
	if s := m["NoMem-2"]; s.ns != 3000 || s.mem {
		t.Errorf("NoMem-2: %+v, want 3000 ns/op without memory figures", s)
	}
	if hasBenchmarks(output()) {
		t.Error("hasBenchmarks of an output without benchmark lines")
	}
}

func TestAnalyze(t *testing.T) {
	res := fixtureResult(t)
	if got := strings.Join(res.OnlyBase, ","); got != "Gone-2" {
		t.Errorf("OnlyBase %s, want Gone-2", got)
	}
	if got := strings.Join(res.OnlyHead, ","); got != "New-2" {
		t.Errorf("OnlyHead %s, want New-2", got)
	}
	by := map[string]Benchmark{}
	var names []string
	for _, b := range res.Benchmarks {
		by[b.Name] = b
		names = append(names, b.Name)
	}
	if got := strings.Join(names, ","); got != "Slower-2,Same-2,Alloc-2,Faster-2" {
		t.Fatalf("benchmarks %s, want Slower-2,Same-2,Alloc-2,Faster-2 (base's order)", got)
	}
	slower := by["Slower-2"]
	if len(slower.Ratios) != 10 || math.Abs(slower.Change()-0.2) > 1e-9 {
		t.Errorf("Slower-2: %d ratios, change %v; want 10 and +20%%", len(slower.Ratios), slower.Change())
	}
	if want := 2.0 / 1024; math.Abs(slower.P-want) > 1e-12 {
		t.Errorf("Slower-2: p %v, want %v (ten rounds, all slower)", slower.P, want)
	}
	if lo, hi, ok := slower.ChangeInterval(); !ok || math.Abs(lo-0.2) > 1e-9 || math.Abs(hi-0.2) > 1e-9 {
		t.Errorf("Slower-2: interval [%v, %v] (ok %v), want [0.2, 0.2]", lo, hi, ok)
	}
	if slower.BaseNs != 1010 || slower.HeadNs != 1212 {
		t.Errorf("Slower-2: medians %v → %v ns/op, want 1010 → 1212", slower.BaseNs, slower.HeadNs)
	}
	same := by["Same-2"]
	if same.P != 1 || same.Significant(res.Options.Alpha) {
		t.Errorf("Same-2: p %v, significant %v; want 1, false", same.P, same.Significant(res.Options.Alpha))
	}
	alloc := by["Alloc-2"]
	if !alloc.Mem || !alloc.AllocsUp || !alloc.BytesUp || alloc.BaseAllocs != 0 || alloc.HeadAllocs != 1 || alloc.HeadBytes != 8 {
		t.Errorf("Alloc-2: %+v, want allocs 0 → 1 and B/op 0 → 8, up in every round", alloc)
	}
	if slower.AllocsUp || slower.BytesUp || slower.AllocsDown || slower.BytesDown {
		t.Errorf("Slower-2: memory up %v %v, down %v %v, want none", slower.BytesUp, slower.AllocsUp, slower.BytesDown, slower.AllocsDown)
	}
	if f := by["Faster-2"]; !f.BytesDown || !f.AllocsDown || f.BytesUp || f.AllocsUp {
		t.Errorf("Faster-2: %+v, want B/op and allocs/op down in every round", f)
	}
	if lo, hi := slower.HeadNsLo, slower.HeadNsHi; !(lo > 0 && lo <= slower.HeadNs && slower.HeadNs <= hi) {
		t.Errorf("Slower-2: head's interval [%v, %v] does not hold its median %v", lo, hi, slower.HeadNs)
	}
	q := stats.AdjustBH([]float64{slower.P, same.P, alloc.P, by["Faster-2"].P})
	for i, b := range res.Benchmarks {
		if b.Q != q[i] {
			t.Errorf("%s: q %v, want %v", b.Name, b.Q, q[i])
		}
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings %q, want none at 10 rounds", res.Warnings)
	}
}

func TestAnalyzeFewRounds(t *testing.T) {
	opts, err := Options{Base: "main", Rounds: 4}.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	base, head := fixture()
	res, err := analyze(opts, base[:4], head[:4])
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "needs 6 or more") {
		t.Errorf("warnings %q, want one saying the sign test needs 6 rounds", res.Warnings)
	}
	for _, b := range res.Benchmarks {
		if b.Significant(opts.Alpha) {
			t.Errorf("%s significant with 4 rounds (q %v)", b.Name, b.Q)
		}
	}
	// The memory gate needs no test: Alloc-2 still fails it.
	var got []string
	for _, r := range Regressions(res, 0.05) {
		got = append(got, r.Name+" "+r.Metric)
	}
	if want := "Alloc-2 B/op,Alloc-2 allocs/op"; strings.Join(got, ",") != want {
		t.Errorf("regressions %q, want %s", got, want)
	}
}

func TestRegressions(t *testing.T) {
	res := fixtureResult(t)
	for _, tc := range []struct {
		max  float64
		want []string
	}{
		{0.05, []string{
			"Slower-2: ns/op +20.0% [+20.0%, +20.0%] (1,010 → 1,212, q=0.0026), the interval lies beyond 5%",
			"Alloc-2: B/op 0 → 8, higher in every one of 10 rounds",
			"Alloc-2: allocs/op 0 → 1, higher in every one of 10 rounds",
		}},
		{0.25, []string{
			"Alloc-2: B/op 0 → 8, higher in every one of 10 rounds",
			"Alloc-2: allocs/op 0 → 1, higher in every one of 10 rounds",
		}},
	} {
		t.Run(limit(tc.max), func(t *testing.T) {
			var got []string
			for _, r := range Regressions(res, tc.max) {
				got = append(got, r.String())
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("regressions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func TestImprovements(t *testing.T) {
	res := fixtureResult(t)
	var got []string
	for _, c := range Improvements(res, 0.05) {
		got = append(got, c.String())
	}
	want := []string{
		"Faster-2: ns/op -25.0% [-25.0%, -25.0%] (808 → 606, q=0.0026), the interval lies below -5%",
		"Faster-2: B/op 32 → 16, lower in every one of 10 rounds",
		"Faster-2: allocs/op 2 → 1, lower in every one of 10 rounds",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("improvements:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if n := len(Improvements(res, 0.3)); n != 2 {
		t.Errorf("%d improvements beyond 30%%, want the 2 of memory only", n)
	}
}

// TestComment checks the pull request comment of each verdict against its
// golden file: the fixture as it is (slower), without the benchmarks that
// got worse (faster), and with only the one that did not move (unchanged).
func TestComment(t *testing.T) {
	keep := func(names ...string) *Result {
		res := fixtureResult(t)
		var bs []Benchmark
		for _, b := range res.Benchmarks {
			if strings.Contains(strings.Join(names, ","), b.Name) {
				bs = append(bs, b)
			}
		}
		res.Benchmarks, res.OnlyBase, res.OnlyHead = bs, nil, nil
		return res
	}
	for _, tc := range []struct {
		verdict string
		res     *Result
		moved   int
	}{
		{VerdictSlower, fixtureResult(t), 6},
		{VerdictFaster, keep("Same-2", "Faster-2"), 3},
		{VerdictUnchanged, keep("Same-2"), 0},
	} {
		t.Run(tc.verdict, func(t *testing.T) {
			if v := Verdict(tc.res, 0.05); v != tc.verdict {
				t.Errorf("Verdict = %s, want %s", v, tc.verdict)
			}
			var buf bytes.Buffer
			if err := WriteComment(&buf, tc.res, 0.05); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if first, _, _ := strings.Cut(out, "\n"); first != CommentMarker+": "+tc.verdict+" -->" {
				t.Errorf("first line %q, want the marker with verdict %s", first, tc.verdict)
			}
			if n := strings.Count(out, "| worse |") + strings.Count(out, "| better |"); n != tc.moved {
				t.Errorf("%d rows of moved figures, want %d", n, tc.moved)
			}
			if strings.Count(out, "<details>") != 1 || !strings.HasSuffix(out, "</details>\n") {
				t.Errorf("the full table is not folded once at the end")
			}
			golden.Check(t, filepath.Join("testdata", "comment."+tc.verdict+".md"), buf.Bytes())
		})
	}
}

func TestBMF(t *testing.T) {
	res := fixtureResult(t)
	b := BMF(res)
	if len(b) != 4 {
		t.Errorf("%d benchmarks, want the 4 both sides ran", len(b))
	}
	slower := b["Slower-2"]
	if ch := slower[document.BMFChange]; math.Abs(ch.Value-20) > 1e-9 || ch.Lower == nil || ch.Upper == nil {
		t.Errorf("Slower-2 latency-change %+v, want 20 (percent) with bounds", ch)
	}
	// Not significant, still shown: the median and its interval.
	if ch := b["Same-2"][document.BMFChange]; ch.Value != 0 || ch.Lower == nil || math.Abs(*ch.Lower+2) > 1e-9 || math.Abs(*ch.Upper-2) > 1e-9 {
		t.Errorf("Same-2 latency-change %+v, want 0 within [-2, +2]", ch)
	}
	if r := b["Same-2"][BMFResolution]; math.Abs(r.Value-2) > 1e-9 {
		t.Errorf("Same-2 latency-resolution %v, want 2 (percent)", r.Value)
	}
	if l := slower[document.BMFLatency]; l.Value != 1212 || l.Lower == nil || *l.Lower > 1212 || *l.Upper < 1212 {
		t.Errorf("Slower-2 latency %+v, want head's median 1212 inside its bounds", l)
	}
	if a := b["Alloc-2"][document.BMFAllocsPerOp]; a.Value != 1 {
		t.Errorf("Alloc-2 allocs-per-op %v, want head's 1", a.Value)
	}
}

func TestWrite(t *testing.T) {
	res := fixtureResult(t)
	for _, format := range Formats.Names() {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, format, res); err != nil {
				t.Fatal(err)
			}
			if format != "bmf" && !strings.Contains(buf.String(), "head: "+WorkingTreeText) {
				t.Errorf("%s output does not say the head is the working tree", format)
			}
			golden.Check(t, filepath.Join("testdata", "ab."+format), buf.Bytes())
		})
	}
	var unknown *document.UnknownFormatError
	if err := Write(&bytes.Buffer{}, "yaml", res); !errors.As(err, &unknown) || !strings.Contains(err.Error(), "table, markdown, bmf") {
		t.Errorf("unknown format: %v, want an error listing table, markdown", err)
	}
}

func TestResolved(t *testing.T) {
	for _, tc := range []struct {
		name  string
		opts  Options
		field string // "" when valid
	}{
		{"defaults", Options{Base: "main"}, ""},
		{"no base", Options{}, "Base"},
		{"flag as base", Options{Base: "-x"}, "Base"},
		{"flag as head", Options{Base: "main", Head: "--all"}, "Head"},
		{"pattern", Options{Base: "main", Package: "./..."}, "Package"},
		{"one round", Options{Base: "main", Rounds: 1}, "Rounds"},
		{"too many rounds", Options{Base: "main", Rounds: MaxRounds + 1}, "Rounds"},
		{"negative layouts", Options{Base: "main", Layouts: -1}, "Layouts"},
		{"too many layouts", Options{Base: "main", Rounds: 100, Layouts: MaxLayouts + 1}, "Layouts"},
		{"layouts beyond half the rounds", Options{Base: "main", Rounds: 6, Layouts: 4}, "Layouts"},
		{"layouts of instructions", Options{Base: "main", Measure: MeasureInstructions, Layouts: 2}, "Layouts"},
		{"negative benchtime", Options{Base: "main", Benchtime: -time.Second}, "Benchtime"},
		{"negative iterations", Options{Base: "main", Iterations: -1}, "Iterations"},
		{"alpha 1", Options{Base: "main", Alpha: 1}, "Alpha"},
		{"alpha NaN", Options{Base: "main", Alpha: math.NaN()}, "Alpha"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.opts.Resolved()
			if tc.field == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got.Rounds != DefaultRounds || got.Benchtime != DefaultBenchtime || got.Alpha != DefaultAlpha || got.Package != "." || got.Bench != "." || got.Layouts != DefaultLayouts {
					t.Errorf("defaults not filled in: %+v", got)
				}
				return
			}
			var oe *OptionError
			if !errors.As(err, &oe) || oe.Field != tc.field || !strings.HasPrefix(err.Error(), "ab: invalid "+tc.field) {
				t.Errorf("error %v, want an *OptionError on %s", err, tc.field)
			}
		})
	}
}

// TestDefaultLayouts: eight code layouts by default with time, half the
// rounds from 8 to 15 rounds, one below 8 or with instructions, and 1 is
// one build.
func TestDefaultLayouts(t *testing.T) {
	for _, tc := range []struct {
		opts Options
		want int
	}{
		{Options{Base: "m"}, DefaultLayouts},
		{Options{Base: "m", Rounds: 6}, 1},
		{Options{Base: "m", Rounds: 8}, 4},
		{Options{Base: "m", Rounds: 15}, 7},
		{Options{Base: "m", Rounds: 16}, 8},
		{Options{Base: "m", Measure: MeasureInstructions}, 1},
		{Options{Base: "m", Layouts: 1}, 1},
		{Options{Base: "m", Layouts: 2}, 2},
	} {
		got, err := tc.opts.Resolved()
		if err != nil || got.Layouts != tc.want {
			t.Errorf("%+v: layouts %d (%v), want %d", tc.opts, got.Layouts, err, tc.want)
		}
	}
}

func TestFigures(t *testing.T) {
	for _, tc := range []struct {
		x    float64
		want string
	}{
		{0, "0"}, {8, "8"}, {1212, "1,212"}, {1234567.4, "1,234,567"}, {12.34, "12.3"}, {0.2511, "0.251"}, {-1500, "-1,500"},
	} {
		if got := figure(tc.x); got != tc.want {
			t.Errorf("figure(%v) = %q, want %q", tc.x, got, tc.want)
		}
	}
	if got := percent(0.1234); got != "+12.3%" {
		t.Errorf("percent(0.1234) = %q", got)
	}
	if got := minRoundsFor(0.05); got != 6 {
		t.Errorf("minRoundsFor(0.05) = %d, want 6", got)
	}
}

// unsureResult is twenty rounds of one benchmark whose head takes 0% to
// 13.3% longer by turns (1 + 0.007·i in round i): a median of about +7%
// whose interval reaches below 5%.
func unsureResult(t *testing.T) *Result {
	t.Helper()
	var base, head [][]byte
	for i := range 20 {
		base = append(base, output(line("Unsure-2", 1000, 0, 0)))
		head = append(head, output(line("Unsure-2", 1000*(1+0.007*float64(i)), 0, 0)))
	}
	return analyzed(t, Options{Base: "main"}, base, head)
}

func TestInconclusive(t *testing.T) {
	res := unsureResult(t)
	b := res.Benchmarks[0]
	lo, hi, ok := b.ChangeInterval()
	if !ok || !(lo < 0.05 && hi > 0.05 && b.Change() > 0.05) || !b.Significant(res.Options.Alpha) {
		t.Fatalf("fixture: change %v [%v, %v] (significant %v), want a significant median beyond 5%% whose interval straddles it", b.Change(), lo, hi, b.Significant(res.Options.Alpha))
	}
	if regs := Regressions(res, 0.05); len(regs) != 0 {
		t.Errorf("regressions %v: a median beyond the limit whose interval reaches inside it must not fail the gate", regs)
	}
	unsure := Inconclusive(res, 0.05)
	if len(unsure) != 1 {
		t.Fatalf("inconclusive %v, want Unsure-2", unsure)
	}
	got := unsure[0].String()
	for _, want := range []string{"Unsure-2: ns/op +", "inconclusive at 5%: the interval reaches", "points past 5%", "× too wide", "(-rounds ", "-layouts 16 -rounds 32", "-measure instructions", "a quieter runner"} {
		if !strings.Contains(got, want) {
			t.Errorf("%q does not say %q", got, want)
		}
	}
	if v := Verdict(res, 0.05); v != VerdictInconclusive {
		t.Errorf("Verdict %s, want %s", v, VerdictInconclusive)
	}
	// At 20% the whole interval lies within the gate: decided.
	if n := len(Inconclusive(res, 0.2)); n != 0 || Verdict(res, 0.2) != VerdictUnchanged {
		t.Errorf("at 20%%: %d inconclusive, verdict %s; want 0, %s", n, Verdict(res, 0.2), VerdictUnchanged)
	}
	var buf bytes.Buffer
	if err := WriteComment(&buf, res, 0.05); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "| inconclusive | Unsure-2 | ns/op |") {
		t.Errorf("the comment's table has no inconclusive row:\n%s", buf.String())
	}
	golden.Check(t, filepath.Join("testdata", "comment."+VerdictInconclusive+".md"), buf.Bytes())
}

// TestInconclusiveCorrected checks a change whose interval lies beyond the
// limit but that the correction left not significant: inconclusive, and
// the table says the correction made it ~.
func TestInconclusiveCorrected(t *testing.T) {
	res := &Result{Options: Options{Alpha: 0.05, Measure: MeasureTime}, Rounds: 6, Benchmarks: []Benchmark{{
		Name: "Encode-8", Measure: MeasureTime, Ratios: []float64{1.035, 1.06, 1.08, 1.08, 1.1, 1.124},
		BaseNs: 1000, HeadNs: 1080, Ratio: 1.08, RatioLo: 1.06, RatioHi: 1.1, P: 0.031, Q: 0.08,
	}}}
	unsure := Inconclusive(res, 0.05)
	if len(unsure) != 1 || !unsure[0].Judgement.Corrected || !strings.Contains(unsure[0].String(), "the correction left it not significant") {
		t.Fatalf("inconclusive %v, want Encode-8 by the correction", unsure)
	}
	change, _, _, _, _ := cells(res, res.Benchmarks[0])
	if change != "+8.0% ~ (correction)" {
		t.Errorf("change cell %q, want the median and that the correction made it ~", change)
	}
}

// TestLimitDigits checks that a change printed against the limit it is
// held to is never printed equal to it: +5.03% is not "+5.0% ... beyond 5%".
func TestLimitDigits(t *testing.T) {
	res := &Result{Options: Options{Alpha: 0.05, Measure: MeasureTime}, Rounds: 6, Benchmarks: []Benchmark{{
		Name: "Encode-8", Measure: MeasureTime, Ratios: []float64{1.0503, 1.0504, 1.0504, 1.0504, 1.0505, 1.0506},
		BaseNs: 1000, HeadNs: 1050.4, Ratio: 1.0504, RatioLo: 1.0503, RatioHi: 1.0506, P: 0.031, Q: 0.031,
	}}}
	regs := Regressions(res, 0.05)
	if len(regs) != 1 {
		t.Fatalf("regressions %v, want Encode-8", regs)
	}
	if got, want := regs[0].String(), "Encode-8: ns/op +5.04% [+5.03%, +5.1%] (1,000 → 1,050, q=0.031), the interval lies beyond 5%"; got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
