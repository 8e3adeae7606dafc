package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
)

// Table writes doc as aligned plain-text tables, one per scenario, each
// followed by its footnotes, then the recommendations and geomeans, the
// size sweep's MB/s grid with each codec's throughput plateau (when the run
// has a sweep), a legend and the environment. A run with compression ops
// starts with a line stating each compressor's level and format.
//
// Text from the document (names, messages, the env) goes through
// TerminalText: control characters show as escapes.
func Table(w io.Writer, doc *results.Run) error {
	return document.WriteTerminal(w, func(w io.Writer) error { return writeTable(w, doc) })
}

// writeTable is Table before escaping.
func writeTable(w io.Writer, doc *results.Run) error {
	ew := document.NewErrWriter(w)
	for _, warn := range doc.Warnings {
		fmt.Fprintf(ew, "warning: %s\n", warn)
	}
	head := len(doc.Warnings) > 0
	if l := compressorsLine(doc); l != "" {
		fmt.Fprintln(ew, l)
		head = true
	}
	for i, g := range grids(doc) {
		if i > 0 || head {
			fmt.Fprintln(ew)
		}
		fmt.Fprintf(ew, "%s\n", document.TerminalText(g.title))
		for _, line := range g.source {
			fmt.Fprintln(ew, document.TerminalText(line))
		}
		for _, line := range g.Aligned() {
			fmt.Fprintln(ew, line)
		}
		_ = g.notes.WriteTerminal(ew) // the error is ew's too
	}
	writeSummaryTable(ew, doc)
	writeSweepTable(ew, doc)
	fmt.Fprintln(ew)
	fmt.Fprint(ew, legend(doc))
	fmt.Fprint(ew, envText(doc))
	return ew.Err()
}

func legend(doc *results.Run) string {
	var b strings.Builder
	b.WriteString(samplingLegend(doc))
	fmt.Fprintf(&b, "MB/s: encoded bytes per second (10^6). B/op, allocs/op: heap per operation, as go test -benchmem. GC/1k: GC cycles per 1,000 ops. size: encoded bytes.\n")
	if doc.Paired() {
		fmt.Fprintf(&b, "speed-up: how many times faster than %s, same scenario and op: each sample was taken between two of %s's, and this is the median of %s's time (their mean) over this one's, ± half-width of its 95%% interval; a change of the machine's speed cancels in it; ~ = not significant (sign test, p > 0.05).\n", doc.Baseline, doc.Baseline, doc.Baseline)
	} else {
		fmt.Fprintf(&b, "speed-up: %s's median ns/op over this one's, same scenario and op, ± half-width of its 95%% interval (bootstrap of the ratio of medians); ~ = not significant (Mann-Whitney U, p > 0.05).\n", doc.Baseline)
	}
	if hasPerElem(doc.Results) {
		fmt.Fprintf(&b, "B/elem: encoded bytes per element of a list workload (annot/*: matrix entries, boxes, points).\n")
	}
	if hasFloor(doc.Results) {
		fmt.Fprintf(&b, "×floor: median ns/op over the reference row's (memmove: copying the scenario's encoded bytes), same scenario and op.\n")
	}
	if hasParallel(doc.Results) {
		fmt.Fprintf(&b, "scaling: throughput with N goroutines (each with its own codec binding) over throughput with one (xN@N is perfect).\n")
	}
	b.WriteString(compressLegend(doc))
	b.WriteString(modesLegend(doc))
	fmt.Fprintf(&b, "✗: did not round-trip exactly (the note says where); n/a: the codec cannot encode this payload.\n")
	return b.String()
}

func envText(doc *results.Run) string {
	e := doc.Env
	var b strings.Builder
	// A file of go test output has no Go version, CPU count or start
	// time: Summary leaves out what is unknown.
	fmt.Fprintf(&b, "\n%s\n", e.Summary())
	if n := noiseLine(e.Noise); n != "" {
		fmt.Fprintf(&b, "%s\n", n)
	}
	if l := liveHeapLine(e.LiveHeap); l != "" {
		fmt.Fprintf(&b, "%s\n", l)
	}
	b.WriteString(modulesLine(e))
	return b.String()
}

// modulesLine returns "modules: path@version ...\n", or "" when e records
// no module.
func modulesLine(e env.Env) string {
	if ms := e.ModuleList(); len(ms) > 0 {
		return "modules: " + strings.Join(ms, " ") + "\n"
	}
	return ""
}
