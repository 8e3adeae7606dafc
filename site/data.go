package site

import (
	"context"
	"fmt"
	"math"

	"github.com/serbench/serbench/archive"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/results"
)

// Schema names the data document the site's page reads (data.js).
const Schema = document.Site

// Data is everything the page shows, written into data.js as one JSON
// value. Field names are the page's contract (site.js); shapes and units
// are those of serbench/v1 (docs/reference.md, "JSON documents").
type Data struct {
	Schema string `json:"schema"`
	// Runs are the archived runs, oldest first (by archive key).
	Runs []RunInfo `json:"runs"`
	// Codecs describes every codec of any run, with its properties as data
	// (the latest run's Info wins), in first-seen order.
	Codecs []CodecInfo `json:"codecs"`
	// Scenarios lists every scenario ID of any run, in first-seen order.
	Scenarios []string `json:"scenarios"`
	// Ops lists every op of any run, in first-seen order.
	Ops []string `json:"ops"`
	// Cells holds every result of every run.
	Cells []Cell `json:"cells"`
	// Diffs holds compare.Compare of each pair of neighbouring runs:
	// Diffs[i] compares Runs[i] (old) with Runs[i+1] (new), by speed-up
	// over each run's baseline (compare.BySpeedup, serbench compare's
	// default), so the page diffs neighbours with serbench compare's
	// statistics and verdicts. Any other pair the page compares itself,
	// from Cells, by point estimate only, with no test and no verdict (it
	// names the serbench compare command that gives them), so the page never
	// states a verdict serbench compare would not: len(Diffs) is
	// len(Runs)-1, so data.js grows linearly with the archive (a
	// comparison of every pair grew with its square).
	Diffs []Diff `json:"diffs"`
}

// RunInfo is one run's environment, as the page shows it.
type RunInfo struct {
	Key     string `json:"key"`
	Started string `json:"started"`
	Go      string `json:"go"`
	// Engine is the encoding/json engine ("v2", "legacy"), "" where the run
	// did not record it.
	Engine   string `json:"engine,omitempty"`
	GOOS     string `json:"goos"`
	GOARCH   string `json:"goarch"`
	CPU      string `json:"cpu"`
	Serbench string `json:"serbench,omitempty"`
	// NoiseSpread is the noise meter's spread (0.06 is 6%), -1 when the
	// run has no noise reading.
	NoiseSpread float64 `json:"noise_spread"`
	// Emulated is the run's env.emulated: why it appears to have run under
	// an emulator, whose timings measure the emulator; "" otherwise.
	Emulated string `json:"emulated,omitempty"`
	// Versions maps codec ID to the library version the run linked.
	Versions map[string]string `json:"versions"`
	// Baseline is the codec the run's speed-ups are over
	// (results.Run.Baseline; results.DefaultBaseline when unrecorded).
	Baseline string `json:"baseline"`
	// LoopNs is the time of one iteration of the run's calibration loop,
	// in ns (compare.CalibrationLoopNs), 0 when the run did not record it.
	// The page normalises ns/op across runs by it as serbench compare
	// does: ns/op × LoopNs(reference run) / LoopNs(this run).
	LoopNs float64 `json:"loop_ns,omitempty"`
}

// CodecInfo is one codec's properties, each a filter on the page.
type CodecInfo struct {
	ID     string `json:"id"`
	Module string `json:"module"`
	Format string `json:"format"`
	Kind   string `json:"kind"`
	// API is codec.Info.API: typed, any or tree.
	API    string `json:"api"`
	Binary bool   `json:"binary"`
	// Codegen is Kind "codegen": code generated ahead of time.
	Codegen      bool `json:"codegen"`
	ReusesOutput bool `json:"reuses_output"`
	ZeroCopy     bool `json:"zero_copy"`
	// Unsafe is codec.Info.Unsafe: the library's module imports package
	// unsafe.
	Unsafe bool `json:"unsafe"`
	// AliasesInput is codec.Info.AliasesInput, measured by the alias probe
	// (a decoded value that changed when its input bytes were overwritten);
	// absent when the run did not probe the codec. The page's "safe only"
	// uses it, falling back to ZeroCopy where it is absent.
	AliasesInput *bool `json:"aliases_input,omitempty"`
	// Maintained is codec.Maintained: the library's last release
	// (LastRelease) is at most two years older than the date the releases
	// were checked, and upstream has not archived it.
	Maintained  bool   `json:"maintained"`
	LastRelease string `json:"last_release,omitempty"`
	Status      string `json:"status,omitempty"`
	// DropIn is the measured dropin.Verdict class ("drop-in", "same-bytes",
	// "no") against DropInOf, the reference codec of the format; ""
	// where not measured. DropInProbes lists the probes decoded
	// differently.
	DropIn       string   `json:"drop_in,omitempty"`
	DropInOf     string   `json:"drop_in_of,omitempty"`
	DropInProbes []string `json:"drop_in_probes,omitempty"`
	Default      bool     `json:"default"`
}

// Cell is one result of one run, with indexes into Data's lists.
type Cell struct {
	Run      int `json:"r"`
	Codec    int `json:"c"`
	Scenario int `json:"s"`
	Op       int `json:"o"`
	// NsPerOp is the median ns/op; Lo and Hi bound its 95% interval.
	NsPerOp float64 `json:"ns"`
	Lo      float64 `json:"lo,omitempty"`
	Hi      float64 `json:"hi,omitempty"`
	// BytesPerOp, AllocsPerOp, SizeBytes and Speedup as in serbench/v1;
	// XLo and XHi bound the speed-up's 95% interval (0: not recorded).
	BytesPerOp  int64   `json:"b"`
	AllocsPerOp int64   `json:"a"`
	SizeBytes   int     `json:"size"`
	Speedup     float64 `json:"x,omitempty"`
	XLo         float64 `json:"xl,omitempty"`
	XHi         float64 `json:"xh,omitempty"`
	// OK is the round-trip check on this payload ("fidelity ok").
	OK    bool   `json:"ok"`
	NA    bool   `json:"na,omitempty"`
	Error string `json:"err,omitempty"`
}

// DiffThreshold is the threshold, a fraction, at which the page shows the
// verdict of each change of time in a diff of neighbouring runs (package
// verdict, as serbench compare -max-regression 5% judges it).
const DiffThreshold = 0.05

// Diff is a comparison of two runs as serbench compare makes it.
type Diff struct {
	Alpha      float64 `json:"alpha"`
	Correction string  `json:"correction"`
	// Threshold is DiffThreshold: the gate the rows' verdicts are at.
	Threshold float64 `json:"threshold"`
	// Basis is compare.Comparison.Basis: one line naming what the rows were
	// compared by ("compared by speed-up over encoding/json within each
	// run (drift-proof); ...").
	Basis string    `json:"basis"`
	Rows  []DiffRow `json:"rows"`
}

// DiffRow is one cell of a Diff (compare.CompareRow, reduced). The raw
// ns/op of each side are the runs' Cells.
type DiffRow struct {
	Codec    int  `json:"c"`
	Scenario int  `json:"s"`
	Op       int  `json:"o"`
	Compared bool `json:"compared"`
	// Basis is compare.CompareRow.Basis: "pairs" or "rounds" (the speed-up
	// over the baseline, drift-proof), "meter" (ns/op normalised by the
	// calibration loop), "ns" (raw ns/op).
	Basis string `json:"basis,omitempty"`
	// Old and New are the compared medians (compare.CompareRow.OldValue,
	// NewValue): speed-ups, or ns/op.
	Old    float64 `json:"old,omitempty"`
	New    float64 `json:"new,omitempty"`
	Change float64 `json:"change"`
	P      float64 `json:"p"`
	Q      float64 `json:"q"`
	// Delta is benchstat's form ("-25.00%" or "~"), Stat "p=0.002 n=6".
	Delta string `json:"delta"`
	Stat  string `json:"stat"`
	// Bytes and Allocs are the B/op and allocs/op deltas ("" when not
	// tested); SizeChanged as compare.CompareRow.
	Bytes       string `json:"bytes,omitempty"`
	Allocs      string `json:"allocs,omitempty"`
	SizeChanged bool   `json:"size_changed,omitempty"`
	// Verdict is compare.CompareRow.Verdict at Diff.Threshold, the older run
	// as old; Reverse the verdict with the newer run as old (serbench
	// compare NEW OLD), which the page shows when the pair is reversed.
	// "" for a row whose time does not gate.
	Verdict string `json:"v,omitempty"`
	Reverse string `json:"rv,omitempty"`
}

// index interns strings in first-seen order.
type index struct {
	list []string
	pos  map[string]int
}

func (x *index) of(s string) int {
	if x.pos == nil {
		x.pos = map[string]int{}
	}
	if i, ok := x.pos[s]; ok {
		return i
	}
	x.pos[s] = len(x.list)
	x.list = append(x.list, s)
	return len(x.list) - 1
}

// Build gathers runs (oldest first) into the page's data, with a
// comparison of each run with the next. Figures are kept to sigFigs
// significant digits (p-values to 3), well beyond what the page shows. No
// runs is an error, and so is ctx's, checked before each comparison.
func Build(ctx context.Context, runs []*archive.Run) (*Data, error) {
	if len(runs) == 0 {
		return nil, fmt.Errorf("site: no runs")
	}
	d := &Data{Schema: Schema, Diffs: []Diff{}}
	var codecs, scenarios, ops index
	infos := map[string]results.CodecInfo{}
	for i, r := range runs {
		e := r.Doc.Env
		ri := RunInfo{Key: r.Key, Started: e.Started.UTC().Format("2006-01-02 15:04 UTC"), Go: e.Go, Engine: r.Engine,
			GOOS: e.GOOS, GOARCH: e.GOARCH, CPU: e.CPU, Serbench: e.Serbench, NoiseSpread: -1, Emulated: e.Emulated,
			Versions: map[string]string{}, Baseline: r.Doc.Baseline, LoopNs: round(compare.CalibrationLoopNs(e), sigFigs)}
		if ri.Baseline == "" {
			ri.Baseline = results.DefaultBaseline
		}
		if e.Noise != nil && e.Noise.Probes > 0 {
			ri.NoiseSpread = e.Noise.Spread
		}
		for _, ci := range r.Doc.Codecs {
			infos[ci.ID] = ci
			codecs.of(ci.ID)
			v := ci.Version
			if v == "" {
				v = e.Modules[ci.Module]
			}
			ri.Versions[ci.ID] = v
		}
		d.Runs = append(d.Runs, ri)
		for _, x := range r.Doc.Results {
			d.Cells = append(d.Cells, cellOf(i, x, codecs.of(x.Codec), scenarios.of(x.Scenario), ops.of(x.Op)))
		}
	}
	for _, id := range codecs.list {
		ci, ok := infos[id]
		if !ok {
			ci = results.CodecInfo{Info: codec.Info{ID: id}}
		}
		x := CodecInfo{ID: id, Module: ci.Module, Format: ci.Format, Kind: string(ci.Kind), API: string(ci.API), Binary: ci.Binary,
			Codegen: ci.Kind == codec.Codegen, ReusesOutput: ci.ReusesOutput, ZeroCopy: ci.ZeroCopy, Unsafe: ci.Unsafe, AliasesInput: ci.AliasesInput,
			Maintained: codec.Maintained(ci.Info), LastRelease: ci.LastRelease, Status: ci.Status, Default: ci.Default}
		if ci.DropIn != nil {
			x.DropIn, x.DropInOf = string(ci.DropIn.Class), ci.DropIn.Of
			for _, p := range ci.DropIn.Probes {
				x.DropInProbes = append(x.DropInProbes, p.Probe)
			}
		}
		d.Codecs = append(d.Codecs, x)
	}
	d.Scenarios, d.Ops = scenarios.list, ops.list
	for i := 1; i < len(runs); i++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// As serbench compare OLD NEW: a run of -processes N is N runs.
		c, err := gatedCompare(runs[i-1], runs[i])
		if err != nil {
			return nil, err
		}
		rc, err := gatedCompare(runs[i], runs[i-1])
		if err != nil {
			return nil, err
		}
		d.Diffs = append(d.Diffs, diffOf(c, rc, &codecs, &scenarios, &ops))
	}
	return d, nil
}

// sigFigs is the number of significant digits data.js keeps of a figure.
const sigFigs = 4

// round rounds v to n significant digits; 0, NaN and infinities unchanged.
func round(v float64, n int) float64 {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return v
	}
	p := math.Pow(10, float64(n)-math.Ceil(math.Log10(math.Abs(v))))
	if r := math.Round(v*p) / p; !math.IsInf(r, 0) && !math.IsNaN(r) {
		return r
	}
	return v
}

func cellOf(run int, x results.Row, c, s, o int) Cell {
	return Cell{Run: run, Codec: c, Scenario: s, Op: o, NsPerOp: round(x.NsPerOp, sigFigs), Lo: round(x.NsPerOpLo, sigFigs), Hi: round(x.NsPerOpHi, sigFigs),
		BytesPerOp: x.BytesPerOp, AllocsPerOp: x.AllocsPerOp, SizeBytes: x.SizeBytes,
		Speedup: round(x.Speedup, sigFigs), XLo: round(x.SpeedupLo, sigFigs), XHi: round(x.SpeedupHi, sigFigs),
		OK: x.OK, NA: x.NA, Error: x.Error}
}

// gatedCompare compares run b with run a as serbench compare
// -max-regression 5% a b does (compare.CompareRuns, compare.ApplyGate at
// DiffThreshold).
func gatedCompare(a, b *archive.Run) (*compare.Comparison, error) {
	c, err := compare.CompareRuns([]*results.Run{a.Doc}, []*results.Run{b.Doc}, compare.CompareOptions{OldName: a.Key, NewName: b.Key, By: compare.BySpeedup})
	if err == nil {
		err = compare.ApplyGate([]*compare.Comparison{c}, DiffThreshold)
	}
	if err != nil {
		return nil, fmt.Errorf("site: compare %s with %s: %w", a.Key, b.Key, err)
	}
	return c, nil
}

// diffOf reduces c to a Diff, with each row's verdict reversed from rc,
// the comparison the other way round.
func diffOf(c, rc *compare.Comparison, codecs, scenarios, ops *index) Diff {
	d := Diff{Alpha: c.Alpha, Correction: c.Correction, Threshold: DiffThreshold, Basis: c.Basis, Rows: []DiffRow{}}
	reverse := map[compare.Cell]string{}
	for _, r := range rc.Rows {
		reverse[r.Cell] = string(r.Verdict)
	}
	for _, r := range c.Rows {
		row := DiffRow{Codec: codecs.of(r.Codec), Scenario: scenarios.of(r.Scenario), Op: ops.of(r.Op), Compared: r.Compared, Basis: r.Basis,
			Old: round(r.OldValue, sigFigs), New: round(r.NewValue, sigFigs), Change: round(r.Change, sigFigs),
			P: round(r.P, 3), Q: round(r.Q, 3), Delta: r.Delta, Stat: r.Stat, SizeChanged: r.SizeChanged,
			Verdict: string(r.Verdict), Reverse: reverse[r.Cell]}
		if r.Bytes != nil {
			row.Bytes = r.Bytes.Delta
		}
		if r.Allocs != nil {
			row.Allocs = r.Allocs.Delta
		}
		d.Rows = append(d.Rows, row)
	}
	return d
}
