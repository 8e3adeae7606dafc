// Package rundoc is `serbench run` as a library: options in, a complete
// results.Run out, with nothing left for the caller to add.
// Selection.Matrix chooses the codecs and scenarios a run measures; New
// measures them in this process (bench.Measure) and records the
// environment, the drop-in classes, the compressors and the noise;
// Processes splits the run over child processes and pools their documents;
// Controls applies the process settings (GOMAXPROCS, the GC target, the CPU
// affinity). It takes typed values only: reading them from the command
// line is cmd/serbench's job. The package never prints: progress goes to
// the callbacks of the options, and non-fatal problems to the document's
// Warnings.
package rundoc

import (
	"context"
	"errors"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/dropin/measure"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/probe"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// DefaultTarget is run's default adaptive target: ±3% for every cell's 95%
// interval. The noise of a run with a fixed count is judged against it.
const DefaultTarget = 0.03

// Options are what one run measures and records.
type Options struct {
	// Bench are the runner's options, as Options.Effective returns them
	// (Progress included); its Compressors are timed on each codec's
	// encoded bytes (-compress) and described in the document.
	Bench bench.Options
	// Codecs and Scenarios are the matrix, in run order (the baseline
	// codec among Codecs).
	Codecs    []codec.Codec
	Scenarios []scenario.Scenario
	// Registry holds the reference codec of each format, against which the
	// drop-in class of every codec of Codecs is measured (package dropin).
	Registry *codec.Registry
	// Warnings come first in the document's Warnings: problems met while
	// choosing the matrix.
	Warnings []string
	// Settings are the command-line flags in effect, NAME=VALUE
	// (env.settings).
	Settings []string
	// GOGC, when not nil, is the GC target the run set (Controls.GOGC: a
	// percentage, or -1 for off), recorded as env.gogc; nil leaves what
	// env.Collect records.
	GOGC *int
	// Serbench is serbench's own module version (env.serbench).
	Serbench string
}

// New measures o's matrix and returns its complete, analyzed document: the
// measurement, the environment (env.Collect at the start), the noise
// advice and the live heap's warning, the drop-in classes, the
// compressors' descriptions and module versions. Errors are a nil
// Registry, the runner's (bench.Measure) and the drop-in probes'; ctx
// stops both.
func New(ctx context.Context, o Options) (*results.Run, error) {
	if o.Registry == nil {
		return nil, errors.New("rundoc: Options.Registry is nil (the drop-in references come from it)")
	}
	started := time.Now()
	m, err := bench.Measure(ctx, o.Codecs, o.Scenarios, o.Bench)
	if err != nil {
		return nil, err
	}
	warnings := append(append([]string(nil), o.Warnings...), NoiseWarnings(m, o.Bench.Target)...)
	if w := m.LiveHeap.Warning(); w != "" {
		warnings = append(warnings, w)
	}
	modules := codec.Modules(o.Codecs)
	if modules == nil && len(o.Bench.Compressors) > 0 {
		modules = map[string]string{}
	}
	for _, a := range o.Bench.Compressors {
		modules[a.Module] = codec.ModuleVersion(a.Module)
	}
	e := env.Collect(started, modules)
	e.Serbench = o.Serbench
	e.Settings = o.Settings
	if o.GOGC != nil {
		e.GOGC = gogcText(*o.GOGC)
	}
	iso := probe.Isolator{}
	classes, err := measure.Classes(ctx, o.Codecs, o.Registry.Lookup, measure.Options{Isolate: iso.Cell})
	if err != nil {
		return nil, err
	}
	var compressors []compressor.Info
	for _, a := range o.Bench.Compressors {
		compressors = append(compressors, a.Info)
	}
	return results.NewRun(results.Inputs{
		Env:         e,
		Codecs:      o.Codecs,
		Scenarios:   o.Scenarios,
		Rows:        m.Results,
		Noise:       &m.Noise,
		LiveHeap:    m.LiveHeap.Env(),
		Warnings:    warnings,
		Baseline:    o.Bench.Baseline,
		Count:       o.Bench.Count,
		Target:      o.Bench.Target,
		DropIn:      classes,
		Compressors: compressors,
	}), nil
}

// NoiseWarnings turns the noise of m into warnings when it exceeds what
// target (a fraction, the adaptive 95% half-width) needs. A fixed count
// (target 0) has no target: its drift and steal are judged against
// DefaultTarget, and the samples it would need are not its concern.
func NoiseWarnings(m *bench.Measurement, target float64) []string {
	if target == 0 {
		return m.Noise.Advice(DefaultTarget, 0)
	}
	var samples, cells int
	for _, r := range m.Results {
		if r.Timed() {
			samples += r.SamplesTaken
			cells++
		}
	}
	perCell := 0.0
	if cells > 0 {
		perCell = float64(samples) / float64(cells)
	}
	return m.Noise.Advice(target, perCell)
}

// CodecWarnings returns the Info.Warning of each codec of cs that has one,
// as "ID: warning", each text once (sonic's three variants share theirs).
func CodecWarnings(cs []codec.Codec) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range cs {
		info := c.Info()
		if info.Warning == "" || seen[info.Warning] {
			continue
		}
		seen[info.Warning] = true
		out = append(out, info.ID+": "+info.Warning)
	}
	return out
}

// WithBaseline returns cs with the baseline codec of reg first when cs
// lacks it, so that every speed-up is measured in the same run; cs itself
// when it has it or reg lacks it.
func WithBaseline(reg *codec.Registry, cs []codec.Codec, baseline string) []codec.Codec {
	for _, c := range cs {
		if c.Info().ID == baseline {
			return cs
		}
	}
	b, ok := reg.Lookup(baseline)
	if !ok {
		return cs
	}
	return append([]codec.Codec{b}, cs...)
}
