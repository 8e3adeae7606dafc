// Command gatecheck makes the run documents that measure the regression
// gate (serbench compare -max-regression) on this machine: how often it
// flags identical code (false alarms) and how often it catches a real 10%
// slowdown of one codec. scripts/gatecheck.sh counts both from its files.
//
//	go run ./scripts/gatecheck -o DIR [-trials 10] [-codecs ...] [-slow go-json] [-slowdown 0.1]
//
// Each trial is three back-to-back runs, each in a process of its own, of
// the same codecs on the five seed scenarios with adaptive sampling:
// DIR/tN-a1.json and DIR/tN-b1.json run identical code, and
// DIR/tN-slow1.json runs the codec -slow wrapped so that every tenth
// operation (marshal and unmarshal alike) is done twice: 10% more work,
// the same bytes. In a and b the same wrapper repeats nothing, so the
// three runs have the same cells. Comparing a with b counts false alarms;
// b with slow, detections. With -replicates K each trial makes K runs of
// each (a1 b1 slow1 a2 b2 slow2 ...: interleaved, so that a slow drift of
// the machine touches the three alike), for comparisons between sides of
// K runs. With -processes N each run is N processes one after the other,
// merged as serbench run -processes merges them, for the gate between two
// single runs of N processes each.
//
// The wrapper exists only here, for the measurement: it is not a codec of
// serbench's.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

func main() {
	if err := run(context.Background(), os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "gatecheck:", err)
		os.Exit(2)
	}
}

// defaultCodecs is the six-codec set of the measurements in
// docs/findings/noisy.md: two reflection JSON codecs, a JIT one, two binary
// ones and a code generator's.
const defaultCodecs = "go-json,sonic,jsoniter,cbor,msgpack,msgp"

func run(ctx context.Context, args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("gatecheck", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var (
		out      = fs.String("o", "", "folder for the run documents (created; existing files are not overwritten)")
		trials   = fs.Int("trials", 10, "trials, each three runs: a, b (identical code) and slow")
		reps     = fs.Int("replicates", 1, "runs of each of a, b and slow per trial, interleaved")
		procs    = fs.Int("processes", 1, "split each run over this many processes, one after the other, each with its share of -max-time, and merge them as serbench run -processes does")
		codecs   = fs.String("codecs", defaultCodecs, "codecs besides encoding/json")
		slow     = fs.String("slow", "go-json", "the codec slowed down in the third run of each trial")
		slowdown = fs.Float64("slowdown", 0.1, "the share of operations done twice in the slow run: 0.1 is 10% more work")
		maxTime  = fs.Duration("max-time", 30*time.Second, "each run's adaptive sampling budget")
		target   = fs.Float64("target", 0.03, "each run's adaptive sampling target")
		worker   = fs.String("worker", "", "internal: make one run document at this path")
		repeat   = fs.Float64("repeat", 0, "internal: the worker's share of operations done twice")
	)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *slowdown <= 0 || *slowdown > 1 {
		return fmt.Errorf("invalid -slowdown %v (range is (0, 1])", *slowdown)
	}
	if *worker != "" {
		return measure(ctx, *worker, *codecs, *slow, *repeat, *maxTime, *target)
	}
	if *out == "" {
		return errors.New("-o DIR is required")
	}
	if *trials < 1 {
		return fmt.Errorf("invalid -trials %d (at least 1)", *trials)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return err
	}
	if *reps < 1 {
		return fmt.Errorf("invalid -replicates %d (at least 1)", *reps)
	}
	if *procs < 1 || *procs > results.MaxProcesses {
		return fmt.Errorf("invalid -processes %d (range is [1, %d])", *procs, results.MaxProcesses)
	}
	for t := 1; t <= *trials; t++ {
		for k := 1; k <= *reps; k++ {
			if err := trial(ctx, stderr, self, *out, t, k, *trials, *procs, *codecs, *slow, *slowdown, *maxTime, *target); err != nil {
				return err
			}
		}
	}
	return nil
}

// trial makes replicate k of trial t: its runs a, b and slow, each in
// procs processes one after the other (merged into one document as
// serbench run -processes merges them).
func trial(ctx context.Context, stderr io.Writer, self, out string, t, k, trials, procs int, codecs, slow string, slowdown float64, maxTime time.Duration, target float64) error {
	for _, r := range []struct {
		name   string
		repeat float64
	}{{"a", 0}, {"b", 0}, {"slow", slowdown}} {
		path := filepath.Join(out, fmt.Sprintf("t%d-%s%d.json", t, r.name, k))
		if _, err := os.Stat(path); err == nil {
			return fmt.Errorf("%s exists: not overwritten", path)
		}
		parts := []string{path}
		if procs > 1 {
			parts = nil
			for p := 1; p <= procs; p++ {
				parts = append(parts, fmt.Sprintf("%s.process%d", path, p))
			}
		}
		for i, part := range parts {
			fmt.Fprintf(stderr, "gatecheck: trial %d/%d, run %s%d, process %d of %d\n", t, trials, r.name, k, i+1, len(parts))
			cmd := exec.CommandContext(ctx, self, "-worker", part, "-repeat", fmt.Sprint(r.repeat),
				"-codecs", codecs, "-slow", slow, "-max-time", (maxTime / time.Duration(len(parts))).String(), "-target", fmt.Sprint(target))
			cmd.Stdout, cmd.Stderr = stderr, stderr
			if err := cmd.Run(); err != nil {
				return fmt.Errorf("trial %d run %s%d: %w", t, r.name, k, err)
			}
		}
		if procs > 1 {
			if err := mergeParts(path, parts); err != nil {
				return fmt.Errorf("trial %d run %s%d: %w", t, r.name, k, err)
			}
		}
	}
	return nil
}

// mergeParts writes at path the run of the processes' documents parts
// (results.MergeProcesses) and removes them.
func mergeParts(path string, parts []string) error {
	docs := make([]*results.Run, len(parts))
	for i, p := range parts {
		var err error
		if docs[i], err = results.ReadFile(p); err != nil {
			return err
		}
	}
	docs[0].Env.Settings = append(docs[0].Env.Settings, fmt.Sprintf("processes=%d", len(parts)))
	doc, err := results.MergeProcesses(docs)
	if err != nil {
		return err
	}
	if err := writeNew(path, doc); err != nil {
		return err
	}
	for _, p := range parts {
		os.Remove(p)
	}
	return nil
}

// measure makes one run document at path: encoding/json and codecs on the
// seed scenarios, slow wrapped to repeat that share of its operations.
func measure(ctx context.Context, path, codecList, slow string, repeat float64, maxTime time.Duration, target float64) error {
	reg := all.Registry()
	names := append([]string{results.DefaultBaseline}, strings.Split(codecList, ",")...)
	cs, err := reg.Resolve(names)
	if err != nil {
		return err
	}
	found := false
	for i, c := range cs {
		if c.Info().ID == slow {
			cs[i], found = repeating{c, repeat}, true
		}
	}
	if !found {
		return fmt.Errorf("-slow %s is not among -codecs", slow)
	}
	opts, err := bench.Options{Target: target, MaxTime: maxTime, Baseline: results.DefaultBaseline, LiveHeap: bench.DefaultLiveHeap}.Effective()
	if err != nil {
		return err
	}
	started := time.Now()
	m, err := bench.Measure(ctx, cs, scenario.Seeds(), opts)
	if err != nil {
		return err
	}
	e := env.Collect(started, nil)
	e.Settings = []string{fmt.Sprintf("gatecheck.repeat=%v", repeat), "gatecheck.slow=" + slow}
	return writeNew(path, results.NewRun(results.Inputs{
		Env: e, Codecs: cs, Scenarios: scenario.Seeds(), Rows: m.Results,
		Noise: &m.Noise, LiveHeap: m.LiveHeap.Env(),
		Baseline: opts.Baseline, Count: opts.Count, Target: opts.Target,
	}))
}

// writeNew writes doc as JSON to path, which must not exist yet.
func writeNew(path string, doc *results.Run) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	if err := results.WriteJSON(f, doc); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// repeating is a codec whose Bindings do a share of their operations
// twice.
type repeating struct {
	codec.Codec
	share float64
}

func (r repeating) Bind(sample any) (codec.Binding, error) { return r.BindNew(sample, nil) }

// BindNew passes newValue on to the wrapped codec (codec.BindNew), so that
// the slowed codec makes its values as the unwrapped one does.
func (r repeating) BindNew(sample any, newValue func() any) (codec.Binding, error) {
	b, err := codec.BindNew(r.Codec, sample, newValue)
	if err != nil {
		return nil, err
	}
	return &repeatBinding{b: b, share: r.share}, nil
}

type repeatBinding struct {
	b     codec.Binding
	share float64
	// marshals and unmarshals count the calls of each operation.
	marshals, unmarshals int
}

// again reports whether call n (from 1) of an operation is done twice: once
// every 1/share calls, evenly spread.
func (r *repeatBinding) again(n int) bool {
	return int(float64(n)*r.share) > int(float64(n-1)*r.share)
}

func (r *repeatBinding) Marshal(v any) ([]byte, error) {
	r.marshals++
	if r.again(r.marshals) {
		if _, err := r.b.Marshal(v); err != nil {
			return nil, err
		}
	}
	return r.b.Marshal(v)
}

func (r *repeatBinding) Unmarshal(data []byte) (any, error) {
	r.unmarshals++
	if r.again(r.unmarshals) {
		if _, err := r.b.Unmarshal(data); err != nil {
			return nil, err
		}
	}
	return r.b.Unmarshal(data)
}
