// Command cellcount runs serbench's own measurement path (bench.Measure:
// prepare and round-trip, calibrate, samples) on the unmarshal cell of one
// codec and one scenario, alone, so that an instruction-counting tool sees
// that cell's costs and nothing else but the runner's. It exists for
// docs/agreement.md, "Instruction counts": under
//
//	valgrind --tool=callgrind go-built-cellcount -codec sonic -scenario sse-event
//
// the self cost of each function divided by the calls into the codec's
// Unmarshal is the cell's instructions per operation, to set beside the
// same from the plain loop of `serbench export`.
//
// The codec's marshal side is replaced by its own encoding, made once: the
// marshal cell that Measure times next to the unmarshal cell then returns
// the same bytes without work, so its loop adds a few instructions per
// call and no allocation. The unmarshal cell decodes exactly what serbench
// run decodes (the codec's own marshal output) through the same Binding
// and loop.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

func main() {
	if err := run(os.Args[1:], os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "cellcount:", err)
		os.Exit(2)
	}
}

func run(args []string, w io.Writer) error {
	fs := flag.NewFlagSet("cellcount", flag.ContinueOnError)
	codecID := fs.String("codec", "sonic", "codec ID (a codec.Funcs adapter: Marshal and Unmarshal functions)")
	scenarioID := fs.String("scenario", "sse-event", "seed scenario ID")
	count := fs.Int("count", 6, "samples")
	benchtime := fs.Duration("benchtime", 100*time.Millisecond, "target duration of one sample (wall time: under valgrind, operations run about 50 times slower)")
	liveHeap := fs.Int64("live-heap", 0, "the GC condition in bytes, as serbench run -live-heap")
	if err := fs.Parse(args); err != nil {
		return err
	}
	c, ok := all.Registry().Lookup(*codecID)
	if !ok {
		return fmt.Errorf("no codec %q", *codecID)
	}
	f, ok := c.(codec.Funcs)
	if !ok {
		return fmt.Errorf("codec %q is a %T, not a codec.Funcs adapter: its marshal side cannot be replaced", *codecID, c)
	}
	scens, err := scenario.Select(scenario.Seeds(), []string{*scenarioID})
	if err != nil {
		return err
	}
	enc, err := f.Marshal(scens[0].Value())
	if err != nil {
		return fmt.Errorf("%s: marshal: %w", *codecID, err)
	}
	f.Marshal = func(any) ([]byte, error) { return enc, nil }
	m, err := bench.Measure(context.Background(), []codec.Codec{f}, scens,
		bench.Options{Count: *count, Benchtime: *benchtime, LiveHeap: *liveHeap})
	if err != nil {
		return err
	}
	for _, r := range m.Results {
		if r.Op == results.OpUnmarshal {
			fmt.Fprintf(w, "%s %s %s: %d samples of %d operations, %.0f ns/op, %d B/op, %.2f GC/1k ops\n",
				r.Codec, r.Scenario, r.Op, len(r.Samples), r.Iterations, r.NsPerOp, r.BytesPerOp, r.GCPer1kOps)
		}
	}
	return nil
}
