package ab

import (
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/gate"
	"github.com/serbench/serbench/verdict"
)

// CommentMarker starts the first line of every comment WriteComment
// writes, an HTML comment that GitHub does not show: a workflow finds the
// comment it posted before by it, to update it in place.
const CommentMarker = "<!-- serbench-ab"

// Verdicts of a comment, in its first line after CommentMarker.
const (
	VerdictSlower       = "slower"       // a figure got worse beyond the gate (Regressions)
	VerdictInconclusive = "inconclusive" // none got worse, a change of time could not be resolved at the gate (Inconclusive)
	VerdictFaster       = "faster"       // none got worse or is unresolved, a figure got better beyond the gate (Improvements)
	VerdictUnchanged    = "unchanged"    // every change of time lies within the gate, no memory figure rose
)

// Verdict is VerdictSlower, VerdictInconclusive, VerdictFaster or
// VerdictUnchanged for res under a gate of maxRegression (a fraction: 0.05
// for 5%), in that order of precedence.
func Verdict(res *Result, maxRegression float64) string {
	switch {
	case len(Regressions(res, maxRegression)) > 0:
		return VerdictSlower
	case len(Inconclusive(res, maxRegression)) > 0:
		return VerdictInconclusive
	case len(Improvements(res, maxRegression)) > 0:
		return VerdictFaster
	default:
		return VerdictUnchanged
	}
}

// WriteComment writes res as a pull request comment in GitHub-flavoured
// Markdown, judged by a gate of maxRegression (a fraction: 0.05 for 5%;
// see Regressions and Improvements). In order:
//
//   - the line "<!-- serbench-ab: VERDICT -->" (CommentMarker; VERDICT as
//     Verdict returns it), which GitHub does not show;
//   - a heading that gives the verdict and a sentence that counts the
//     figures worse, better and inconclusive and names the gate;
//   - the warnings of the run, if any, and the line naming both sides;
//   - a table of the figures that moved beyond the gate, worse first, then
//     those the run could not resolve, when there are any: benchmark,
//     figure, base, head, change with its interval, and why it counts
//     (for an inconclusive one, by how much the interval is too wide and
//     what would resolve it);
//   - the benchmarks only one side ran;
//   - the full comparison (the "markdown" format's table and legend,
//     and with MeasureInstructions the CPU features seen under valgrind
//     and natively) folded in a <details> element.
func WriteComment(w io.Writer, res *Result, maxRegression float64) error {
	worse, better := Regressions(res, maxRegression), Improvements(res, maxRegression)
	unsure := Inconclusive(res, maxRegression)
	v := Verdict(res, maxRegression)
	var sb strings.Builder
	fmt.Fprintf(&sb, "%s: %s -->\n", CommentMarker, v)
	switch v {
	case VerdictSlower:
		fmt.Fprintf(&sb, "### serbench ab: slower, %s worse at head\n\n", figures(len(worse)))
	case VerdictInconclusive:
		fmt.Fprintf(&sb, "### serbench ab: inconclusive, %s not resolved at %s, none worse\n\n", benchmarks(len(unsure)), limit(max(maxRegression, 0)))
	case VerdictFaster:
		fmt.Fprintf(&sb, "### serbench ab: faster, %s better at head, none worse\n\n", figures(len(better)))
	default:
		fmt.Fprintf(&sb, "### serbench ab: unchanged, every interval within the gate\n\n")
	}
	fmt.Fprintf(&sb, "%s worse, %s better, %s inconclusive over %s compared. The gate: %s; B/op and allocs/op by any amount, in every round.\n\n",
		figures(len(worse)), figures(len(better)), figures(len(unsure)), benchmarks(len(res.Benchmarks)), GateText(res, maxRegression))
	for _, warn := range res.Warnings {
		fmt.Fprintf(&sb, "> warning: %s\n\n", warn)
	}
	sb.WriteString(header(res) + "\n\n")
	if moved := append(append(worse, better...), unsure...); len(moved) > 0 {
		rows := [][]string{{"", "benchmark", "figure", "base", "head", "change", "why"}}
		for _, c := range moved {
			rows = append(rows, row(c))
		}
		markdownTable(&sb, rows)
		sb.WriteString("\n")
	}
	for _, l := range only(res) {
		sb.WriteString(l + "\n\n")
	}
	fmt.Fprintf(&sb, "<details><summary>The full comparison (%s)</summary>\n\n", benchmarks(len(res.Benchmarks)))
	markdownTable(&sb, grid(res))
	fmt.Fprintf(&sb, "\n%s\n", legend(res))
	for _, l := range counterLines(res) {
		sb.WriteString("\n" + l + "\n")
	}
	sb.WriteString("\n</details>\n")
	if _, err := io.WriteString(w, sb.String()); err != nil {
		return fmt.Errorf("ab: write comment: %w", err)
	}
	return nil
}

// GateText says what the gate of maxRegression (a fraction) fails on for
// the figure res compares, and so which measure gated: "time whose 95%
// interval lies beyond 5%, significant after benjamini-hochberg at alpha
// 0.05" or "instructions/op whose range over the rounds lies beyond 5%,
// beyond the tolerance 1% in every round".
func GateText(res *Result, maxRegression float64) string {
	if res.Options.Measure == MeasureInstructions {
		return fmt.Sprintf("instructions/op whose range over the rounds lies beyond %s, beyond the tolerance %s in every round", limit(maxRegression), limit(res.Options.Tolerance))
	}
	return fmt.Sprintf("time whose 95%% interval lies beyond %s, significant after %s at alpha %v", limit(maxRegression), compare.Correction, res.Options.Alpha)
}

// row is f's row of the comment's table of moved figures.
func row(f gate.Figure) []string {
	mark := "worse"
	switch f.Judgement.Verdict {
	case verdict.Inconclusive:
		mark = "inconclusive"
	case verdict.Improved:
		mark = "better"
	}
	change, why := "", f.Why()
	switch {
	case !f.Counts:
		change = f.ChangeText()
		if f.Q > 0 {
			why = "q=" + pvalue(f.Q) + ", " + why
		}
	case f.Base > 0:
		change = percent(f.Head/f.Base - 1)
	default:
		change = "n/a" // from 0
	}
	return []string{mark, f.Name, f.Metric, figure(f.Base), figure(f.Head), change, why}
}

// figures is "1 figure" or "N figures".
func figures(n int) string {
	if n == 1 {
		return "1 figure"
	}
	return fmt.Sprintf("%d figures", n)
}

// markdownTable writes rows as a GitHub table (document.Table), the first
// row its header.
func markdownTable(sb *strings.Builder, rows [][]string) {
	_ = document.Table{Header: rows[0], Rows: rows[1:]}.WriteMarkdown(sb) // a strings.Builder does not fail
}
