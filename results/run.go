package results

import (
	"slices"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/compressor"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/dropin"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/scenario"
)

// Schema is the version of the JSON results format (docs/reference.md, "JSON documents").
const Schema = document.Run

// Run is one serbench run: its environment, selection and rows as
// measured, and the figures they imply (Recommendations, Geomeans,
// Plateaus, and each Row's Derived). It is the serbench/v1
// JSON document of docs/reference.md, "JSON documents". NewRun and Read
// build it analysed; the writers (WriteJSON, WriteBenchfmt and package
// report's) only read it.
type Run struct {
	Schema string  `json:"schema"`
	Env    env.Env `json:"env"`
	// Codecs describes the codecs of the run, in run order.
	Codecs []CodecInfo `json:"codecs,omitempty"`
	// Scenarios describes the scenarios of the run, in run order.
	Scenarios []ScenarioInfo `json:"scenarios,omitempty"`
	Results   []Row          `json:"results"`
	// Warnings are non-fatal problems of the run (a corpus folder missing, say).
	Warnings []string `json:"warnings,omitempty"`
	// Baseline is the codec ID speed-ups are relative to.
	Baseline string `json:"baseline,omitempty"`
	// Count is the number of samples per cell; with Target set, the first
	// round's (cells then took more, see Row.SamplesTaken).
	Count int `json:"count,omitempty"`
	// Target is the adaptive sampling goal for each cell's 95% half-width,
	// as a fraction of the median (0.03 is ±3%); 0 for a fixed Count.
	Target float64 `json:"target,omitempty"`
	// Recommendations and Geomeans are derived from Results (see Recommend
	// and Geomeans); Analyze fills them in when empty. The writers show
	// them, and Plateaus, as they are and compute none: a document that
	// was not analysed shows no recommendation, geomean or plateau.
	// Compressors describes the compressors of `-compress`, in run order
	// (levels and formats); absent when none ran.
	Compressors     []compressor.Info `json:"compressors,omitempty"`
	Recommendations []Recommendation  `json:"recommendations,omitempty"`
	Geomeans        []Geomean         `json:"geomeans,omitempty"`
	// Plateaus is where each codec's throughput stops rising over the size
	// sweep (see Plateaus); derived from Results and Scenarios, filled in
	// by Analyze when empty, absent without a sweep.
	Plateaus []Plateau `json:"plateaus,omitempty"`
}

// Inputs are everything a run is built from: the environment, the
// selection and the measurement.
type Inputs struct {
	// Env is env.Collect's, with what the command adds (the Serbench
	// version, Settings, GOGC, the compressors' modules).
	Env env.Env
	// Codecs and Scenarios are the run's selection, in run order.
	Codecs    []codec.Codec
	Scenarios []scenario.Scenario
	// Rows are the measured cells (bench.Measurement.Results).
	Rows []Row
	// Noise and LiveHeap are the machine's noise during the run and the
	// GC condition of the cells (bench.Measurement); nil when not measured.
	Noise    *env.Noise
	LiveHeap *env.LiveHeap
	// Warnings are the run's non-fatal problems so far.
	Warnings []string
	// Baseline, Count and Target are the runner's options in effect
	// (bench.Options.Effective).
	Baseline string
	Count    int
	Target   float64
	// DropIn holds the measured drop-in class of each codec by ID
	// (dropin/measure.Classes); a codec absent from it has none.
	DropIn map[string]*dropin.Verdict
	// Compressors describes the compressors of -compress, in run order.
	Compressors []compressor.Info
}

// NewRun builds the analysed run of in, the document `serbench run`
// writes: in.Env gains the noise and GC condition and, where the run
// appears emulated (Env.Emulated), a warning after in.Warnings; each row
// gets its codec's Engine; the codecs' Info with each codec's folded
// AliasesInput and drop-in class, and the scenarios, in run order. The
// figures the rows imply are derived last from their measured fields,
// whatever Derived figures in.Rows carry: each row's (Derived), then the
// run's (recommendations, plateaus, geomeans: Analyze). The rows are
// copied: nothing of in is changed.
func NewRun(in Inputs) *Run {
	doc := &Run{
		Env:         in.Env,
		Results:     slices.Clone(in.Rows),
		Warnings:    slices.Clone(in.Warnings),
		Baseline:    in.Baseline,
		Count:       in.Count,
		Target:      in.Target,
		Compressors: slices.Clone(in.Compressors),
	}
	doc.Env.Noise = in.Noise
	doc.Env.LiveHeap = in.LiveHeap
	if doc.Env.Emulated != "" {
		doc.Warnings = append(doc.Warnings, "emulated: "+doc.Env.Emulated+"; its timings measure the emulator, not the CPU: only the round-trip checks count")
	}
	engines := map[string]string{}
	aliases := map[string][]*bool{}
	for _, c := range in.Codecs {
		engines[c.Info().ID] = c.Info().Engine
	}
	for i := range doc.Results {
		r := &doc.Results[i]
		r.Derived = Derived{} // derived from the measured fields below
		r.Engine = engines[r.Codec]
		aliases[r.Codec] = append(aliases[r.Codec], r.AliasesInput)
	}
	for _, c := range in.Codecs {
		info := c.Info()
		info.AliasesInput = codec.FoldAliases(aliases[info.ID])
		doc.Codecs = append(doc.Codecs, CodecInfo{Info: info, DropIn: in.DropIn[info.ID]})
	}
	for _, s := range in.Scenarios {
		doc.Scenarios = append(doc.Scenarios, ScenarioInfo{ID: s.ID, Type: s.Type, Doc: s.Doc, Source: s.Source, Sweep: s.Sweep, Elements: s.Elements})
	}
	doc.derive()
	return doc
}

// CodecInfo describes one codec in a document: what the codec states
// (codec.Info) and its measured drop-in class, which package dropin
// measures and serbench run and serbench list add.
type CodecInfo struct {
	codec.Info
	// DropIn is the codec's drop-in class against the reference codec of
	// its format. Nil for the reference codecs themselves, for formats
	// without one (only JSON, MessagePack and CBOR have one), for
	// parse-only and reference rows, and where it was not measured.
	DropIn *dropin.Verdict `json:"drop_in,omitempty"`
}

// ScenarioInfo describes one scenario of a run.
type ScenarioInfo struct {
	ID   string `json:"id"`
	Type string `json:"type"`
	Doc  string `json:"doc,omitempty"`
	// Source is the source-fidelity finding of a user's JSON file
	// (scenario.Scenario.Source): what encoding/json into any loses of it,
	// one entry per kind. Absent when nothing is lost, and for built-in
	// scenarios.
	Source []scenario.SourceLoss `json:"source_fidelity,omitempty"`
	// Sweep describes a size-sweep point (scenario.SweepPoint): its target
	// and actual encoding/json size. Absent for other scenarios.
	Sweep *scenario.SweepPoint `json:"sweep,omitempty"`
	// Elements is the element count of a list workload
	// (scenario.Scenario.Elements), absent for other scenarios.
	Elements int `json:"elements,omitempty"`
}

// ByScenario groups results by scenario in first-seen order.
func ByScenario(rs []Row) (order []string, groups map[string][]Row) {
	groups = map[string][]Row{}
	for _, r := range rs {
		if _, ok := groups[r.Scenario]; !ok {
			order = append(order, r.Scenario)
		}
		groups[r.Scenario] = append(groups[r.Scenario], r)
	}
	return order, groups
}
