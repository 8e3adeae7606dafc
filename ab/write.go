package ab

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/gate"
)

// Formats are the ways Write writes a Result: "table" (aligned text, as
// benchstat prints), "markdown" (the same table for GitHub; WriteComment
// writes a pull request comment around it, which needs a gate) and "bmf"
// (the Bencher Metric Format of the head side, see BMF).
var Formats = document.Formats[*Result]{Package: "ab", List: []document.Format[*Result]{
	{Name: "table", Write: writeTable},
	{Name: "markdown", Write: writeMarkdown},
	{Name: "bmf", Write: writeBMF},
}}

// Write writes res to w in the named format (see Formats); an unknown
// format is a *document.UnknownFormatError.
func Write(w io.Writer, format string, res *Result) error {
	return Formats.Write(w, format, res)
}

// header is the line naming both sides and the rounds.
func header(res *Result) string {
	if res.Options.Measure == MeasureInstructions {
		tool := "callgrind"
		if res.Counter != nil {
			tool = res.Counter.Tool
		}
		return fmt.Sprintf("base: %s; head: %s; %d rounds (A B, B A, ...) of instructions counted by %s, each benchmark run for N and 2N iterations",
			res.Base, res.Head, res.Rounds, tool)
	}
	layouts := ""
	if n := res.Options.Layouts; n > 1 {
		layouts = fmt.Sprintf(", over %d code layouts of each revision (-ldflags=-randlayout=1..%d, two rounds each in turn)", n, n)
	}
	h := fmt.Sprintf("base: %s; head: %s; %d rounds (A B, B A, ...) of -benchtime %s%s",
		res.Base, res.Head, res.Rounds, res.Options.benchtime(), layouts)
	if sq := res.Sequential; sq != nil {
		h += "\n" + sq.String()
		for _, l := range sq.BoughtLines() {
			h += "\n" + l
		}
	}
	return h
}

// BoughtLines say, one line a benchmark, what the budget bought it: the
// rounds its figures are from, the look that decided it and its verdict,
// and the width of its interval at the first look and at its last:
// "- Unsure-2: 40 rounds, decided at look 2 of 2 (unchanged); interval:
// 9.1% wide at the first look, 4.2% wide at its last".
func (sq *Sequential) BoughtLines() []string {
	var out []string
	for _, b := range sq.Benchmarks {
		at := fmt.Sprintf("decided at look %d of %d (%s)", b.Look, len(sq.Looks), b.Verdict)
		if b.Look == 0 {
			at = fmt.Sprintf("undecided after %d looks (%s)", len(sq.Looks), b.Verdict)
		}
		w := func(x float64) string {
			if x < 0 {
				return "none"
			}
			return fmt.Sprintf("%.1f%% wide", 100*x)
		}
		wide := fmt.Sprintf("interval: %s at the first look, %s at its last", w(b.FirstWidth), w(b.Width))
		out = append(out, fmt.Sprintf("- %s: %d rounds, %s; %s", b.Name, b.Rounds, at, wide))
	}
	return out
}

// String is the line a sequential run prints under the header:
// "sequential (-budget 2m0s): 40 rounds in 2 looks (20, 40) of at most
// 120 planned, 1m5s used; benchmarks decided at each look: 3, 1;
// O'Brien-Fleming-type alpha spending (Lan-DeMets), each look's interval
// at its own confidence".
func (sq *Sequential) String() string {
	join := func(xs []int) string {
		s := make([]string, len(xs))
		for i, x := range xs {
			s[i] = strconv.Itoa(x)
		}
		return strings.Join(s, ", ")
	}
	looks := "1 look"
	if len(sq.Looks) != 1 {
		looks = fmt.Sprintf("%d looks", len(sq.Looks))
	}
	last := ""
	if sq.LastSpent {
		last = ", the last at all that the looks before it left"
	}
	return fmt.Sprintf("sequential (-budget %v): %d rounds in %s (%s) of at most %d planned, %v used; benchmarks decided at each look: %s; "+
		"O'Brien-Fleming-type alpha spending (Lan-DeMets), each look's interval at its own confidence%s",
		sq.Budget, sq.Looks[len(sq.Looks)-1], looks, join(sq.Looks), sq.Plan, sq.Used.Round(time.Second), join(sq.Decided), last)
}

// counterLines say, with MeasureInstructions, what the counts reflect: the
// CPU features seen under valgrind and natively, and why hardware counters
// were not used.
func counterLines(res *Result) []string {
	c := res.Counter
	if res.Options.Measure != MeasureInstructions || c == nil {
		return nil
	}
	emulated := "not probed"
	if len(c.EmulatedCPUFeatures) > 0 {
		emulated = strings.Join(c.EmulatedCPUFeatures, " ")
	}
	return []string{
		"counts under callgrind reflect valgrind's emulated CPU, whose features code that dispatches on them (sonic) sees: " + emulated,
		"this machine's CPU features: " + strings.Join(c.CPUFeatures, " "),
		"hardware counters: " + c.Hardware,
	}
}

// grid is the comparison's table: a header row, then one row per
// benchmark.
func grid(res *Result) [][]string {
	if res.Options.Measure == MeasureInstructions {
		return instructionGrid(res)
	}
	rows := [][]string{{"benchmark", "base ns/op", "head ns/op", "change", "95% interval", "resolves", "p", "q", "B/op", "allocs/op"}}
	for _, b := range res.Benchmarks {
		change, interval, resolves, bytes, allocs := cells(res, b)
		rows = append(rows, []string{b.Name, figure(b.BaseNs), figure(b.HeadNs), change, interval, resolves,
			pvalue(b.P), pvalue(b.Q), bytes, allocs})
	}
	return rows
}

// cells are a benchmark's change (always its median, followed by "~" when
// not significant, "~ (correction)" when its interval excludes 0 but the
// correction left it not significant), its interval, the smallest change
// the run resolves (the interval's larger half-width: "±4.1%") and its
// B/op and allocs/op, as grid writes them.
func cells(res *Result, b Benchmark) (change, interval, resolves string, bytes, allocs string) {
	change, interval, resolves = percent(b.Change()), "n/a", "n/a"
	lo, hi, ok := b.ChangeInterval()
	switch {
	case len(b.Ratios) == 0:
		change = "n/a"
	case b.Significant(res.Options.Alpha):
	case ok && (lo > 0 || hi < 0):
		change += " ~ (correction)"
	default:
		change += " ~"
	}
	if ok {
		interval = "[" + percent(lo) + ", " + percent(hi) + "]"
		if c := b.Confidence; c > 0 && c != Confidence {
			interval += fmt.Sprintf(" at %.2f%%", 100*c)
		}
		resolves = resolution(max(hi-b.Change(), b.Change()-lo))
	}
	bytes, allocs = "n/a", "n/a"
	if b.Mem {
		bytes = memCell(b.BaseBytes, b.HeadBytes, b.BytesUp)
		allocs = memCell(b.BaseAllocs, b.HeadAllocs, b.AllocsUp)
	}
	return change, interval, resolves, bytes, allocs
}

// instructionGrid is grid with MeasureInstructions.
func instructionGrid(res *Result) [][]string {
	rows := [][]string{{"benchmark", "N", "base instructions/op", "head instructions/op", "change", "range over rounds", "B/op", "allocs/op"}}
	for _, b := range res.Benchmarks {
		change, interval, _, bytes, allocs := cells(res, b)
		rows = append(rows, []string{b.Name, figure(float64(b.Iterations)), figure(b.BaseInstructions), figure(b.HeadInstructions),
			change, interval, bytes, allocs})
	}
	return rows
}

func memCell(base, head float64, up bool) string {
	s := figure(base) + " → " + figure(head)
	if up {
		s += " !"
	}
	return s
}

// footer is the lines under the table: the benchmarks of one side only
// (only), then what the columns mean (legend).
func footer(res *Result) []string {
	return append(append(only(res), legend(res)), counterLines(res)...)
}

// only names the benchmarks of one side only, a line per side that has any.
func only(res *Result) []string {
	var lines []string
	if len(res.OnlyBase) > 0 {
		lines = append(lines, "only in base: "+strings.Join(res.OnlyBase, ", "))
	}
	if len(res.OnlyHead) > 0 {
		lines = append(lines, "only in head: "+strings.Join(res.OnlyHead, ", "))
	}
	return lines
}

// legend says what the table's columns mean.
func legend(res *Result) string {
	if res.Options.Measure == MeasureInstructions {
		return "instructions/op: (the instructions of a run of 2N iterations minus those of a run of N) / N, all threads, median over the rounds; " +
			"change: the median over the rounds of head instructions/op / base instructions/op, minus 1, and its range over the rounds; " +
			fmt.Sprintf("~: not beyond the tolerance %s in every round (~ (correction): every round on one side, but not all beyond it); B/op, allocs/op: medians over the rounds; !: higher at head in every round", limit(res.Options.Tolerance))
	}
	interval := "and the 95% distribution-free interval of that median"
	if n := res.Options.Layouts; n > 1 {
		interval += fmt.Sprintf(", widened where Student's t interval between the %d code layouts' medians is wider", n)
	}
	return "ns/op, B/op, allocs/op: medians over the rounds; change: the median over the rounds of head ns/op / base ns/op, minus 1, " +
		interval + "; resolves: the smallest change this run tells from none, the interval's larger half-width; p: exact sign test over the rounds; " +
		fmt.Sprintf("q: p adjusted over the %s (%s); ~: q > %v; ~ (correction): the interval excludes 0, but the correction over the %s left q > %v; !: higher at head in every round",
			benchmarks(len(res.Benchmarks)), compare.Correction, res.Options.Alpha, benchmarks(len(res.Benchmarks)), res.Options.Alpha)
}

// benchmarks is "1 benchmark" or "N benchmarks".
func benchmarks(n int) string {
	if n == 1 {
		return "1 benchmark"
	}
	return fmt.Sprintf("%d benchmarks", n)
}

func writeTable(w io.Writer, res *Result) error {
	if _, err := fmt.Fprintf(w, "%s\n\n", header(res)); err != nil {
		return fmt.Errorf("ab: write table: %w", err)
	}
	rows := grid(res)
	lines := document.Table{Header: rows[0], Rows: rows[1:]}.Aligned()
	if _, err := fmt.Fprintf(w, "%s\n\n%s\n", strings.Join(lines, "\n"), strings.Join(footer(res), "\n")); err != nil {
		return fmt.Errorf("ab: write table: %w", err)
	}
	return nil
}

func writeMarkdown(w io.Writer, res *Result) error {
	var sb strings.Builder
	sb.WriteString(header(res) + "\n\n")
	markdownTable(&sb, grid(res))
	for _, l := range footer(res) {
		sb.WriteString("\n" + l + "\n")
	}
	if _, err := io.WriteString(w, sb.String()); err != nil {
		return fmt.Errorf("ab: write markdown: %w", err)
	}
	return nil
}

// figure prints a median: whole numbers in full with thousands separated
// (1,146), others with three significant digits (12.3, 0.251).
func figure(x float64) string { return gate.Amount(x) }

// percent prints a fraction as a signed percentage: 0.123 is "+12.3%".
func percent(f float64) string {
	if math.Abs(f) < 0.0005 {
		return "0.0%"
	}
	return fmt.Sprintf("%+.1f%%", 100*f)
}

// resolution prints the smallest change a run resolves, a fraction, as
// "±4.1%".
func resolution(f float64) string { return gate.Resolution(f) }

// pvalue prints a p- or q-value with two significant digits.
func pvalue(p float64) string { return gate.PValue(p) }
