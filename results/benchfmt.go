package results

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/scenario"
	"golang.org/x/perf/benchfmt"
)

// Benchfmt names and units. A cell's samples are written as lines of the Go
// benchmark format (https://golang.org/design/14313-benchmark-format) named
//
//	BenchmarkCodec/codec=<codec>/scenario=<scenario>/op=<op>-<GOMAXPROCS>
//
// so that benchstat can pivot them, e.g. `benchstat -col /codec file`.
const (
	// BenchBase is the base benchmark name of every cell.
	BenchBase = "Codec"
	// BenchPkg is the value of the pkg configuration line.
	BenchPkg = "github.com/serbench/serbench"
	// UnitSize is the unit of the encoded size of one value, in bytes per
	// message. It is written with `Unit B/msg assume=exact better=lower`
	// metadata: the size has no noise, and smaller is better.
	UnitSize = "B/msg"
	// UnitCompressed is the compressed size of one value on compression
	// ops ("compress:<id>", "decompress:<id>"), in bytes per message,
	// written with the same exact/lower metadata as UnitSize.
	UnitCompressed = "compressed-B/msg"
	// UnitPairSpeedup is a paired cell's per-pair speed-up over the
	// baseline (Row.PairRatios), one per sample line, written
	// with `Unit speedup better=higher` metadata; a file read back gives
	// the same paired speed-up and interval as the run.
	UnitPairSpeedup = "speedup"
	// notePrefix starts the comment lines that carry cells without
	// figures and fidelity failures. The benchmark format ignores lines
	// that are neither results, units nor configuration, so benchstat
	// skips them.
	notePrefix = "// serbench: "
)

// Note kinds written after notePrefix (Note).
const (
	NoteFail = "fail" // the cell did not round-trip or failed while timing
	NoteNA   = "n/a"  // the codec cannot do the cell
	// noteScenario carries what the benchmark lines cannot: a list
	// workload's element count and a size-sweep point (scenarioNote).
	noteScenario = "scenario"
)

// WriteBenchfmt writes doc in the Go benchmark text format, through
// golang.org/x/perf/benchfmt:
//
//   - configuration lines goos, goarch, cpu, pkg and go, and one line per
//     codec module (`github.com/bytedance/sonic: v1.15.5`; upper-case
//     letters in a module path are written as '!' and the lower-case
//     letter, as in the Go module cache, because configuration keys may
//     not contain upper case). benchstat puts results whose configuration
//     differs in separate tables, so to compare two runs across a library
//     or Go upgrade use `benchstat -table goos,goarch old new` (or
//     `serbench compare`).
//   - one line per sample of every timed cell, named as BenchName gives,
//     with the GOMAXPROCS suffix `-N` (omitted when N is 1, as the testing
//     package does), the cell's iteration count and the units ns/op (that
//     sample), MB/s (that sample; not for convert), both rounded to six
//     significant digits, B/op and allocs/op (the
//     cell's medians, repeated on every line: the runner keeps no
//     per-sample memory figures) and UnitSize (not for convert), and on
//     compression ops ("compress:zstd") UnitCompressed too; their MB/s
//     and B/msg count the uncompressed bytes; on cells sampled in pairs
//     with the baseline, UnitPairSpeedup (that sample's pair).
//   - comment lines `// serbench: fail <name>: <error>` after the samples
//     of a cell that did not round-trip exactly (its figures are written,
//     since it was timed, but they are not a fair comparison), and
//     `// serbench: fail <name>: <error>` or `// serbench: n/a <name>:
//     <reason>` for cells that were not timed, at the end. <name> is
//     BenchName without the GOMAXPROCS suffix; the text is on one line
//     (NoteText: `\n` between the lines of a reason of several,
//     such as a derive refusal's one per field). benchstat ignores these
//     lines; ReadFile reads them back, the lines split again.
//   - for scenarios with an element count or a size-sweep point, a line
//     `// serbench: scenario <scenario>: elements=N sweep_family=F
//     sweep_target_bytes=N sweep_json_bytes=N sweep_elements=N` (keys
//     present only when set; <scenario> escaped as in names), at the end,
//     so that ReadFile gives back the B/elem column and the sweep's
//     chart and plateaus.
//
// In names, the characters '/' (which separates name parts), '.', '%' and
// white space are escaped in codec and scenario IDs: '/' becomes '.', and
// the others are percent-encoded (`%2E` for '.'), so `sonic/default` is
// written `codec=sonic.default` and ParseBenchName gives back every ID
// exactly.
//
// A cell with a figure no run can have (negative or non-finite ns/op,
// allocs/op beyond MaxAllocsPerOp: the checks Read makes) is an
// *ImplausibleError before anything is written, rather than a line that
// reads back as something else.
func WriteBenchfmt(w io.Writer, doc *Run) error {
	for _, r := range doc.Results {
		if err := checkResult("", r); err != nil {
			return err
		}
	}
	bw := benchfmt.NewWriter(w)
	ew := document.NewErrWriter(w)
	config := benchConfig(doc)
	suffix := ""
	if p := doc.Env.GOMAXPROCS; p > 1 {
		suffix = fmt.Sprintf("-%d", p)
	}
	var later []string // notes of cells without figures
	wroteUnits := false
	for _, r := range doc.Results {
		name := BenchName(r.Codec, r.Scenario, r.Op)
		if !r.Timed() {
			kind := NoteFail
			if r.NA {
				kind = NoteNA
			}
			later = append(later, Note(kind, name, r.Error))
			continue
		}
		if !wroteUnits {
			// Unit metadata before the first result, so it applies to
			// the whole file.
			units := []string{UnitSize}
			if HasCompressed(doc.Results) {
				units = append(units, UnitCompressed)
			}
			if doc.Paired() {
				units = append(units, UnitPairSpeedup)
			}
			for _, u := range units {
				if u == UnitPairSpeedup {
					if err := bw.Write(&benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u, Key: "better"}, OrigUnit: u, Value: "higher"}); err != nil {
						return err
					}
					continue
				}
				if err := bw.Write(&benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u, Key: "assume"}, OrigUnit: u, Value: "exact"}); err != nil {
					return err
				}
				if err := bw.Write(&benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: u, Key: "better"}, OrigUnit: u, Value: "lower"}); err != nil {
					return err
				}
			}
			wroteUnits = true
		}
		for i, ns := range r.Samples {
			res := &benchfmt.Result{Config: config, Name: benchfmt.Name(name + suffix), Iters: max(r.Iterations, 1)}
			res.Values = append(res.Values, benchfmt.Value{Value: sig6(ns), Unit: "ns/op"})
			if r.Op != OpConvert && r.SizeBytes > 0 && ns > 0 {
				res.Values = append(res.Values, benchfmt.Value{Value: sig6(float64(r.SizeBytes) / ns * 1e3), Unit: "MB/s"})
			}
			res.Values = append(res.Values,
				benchfmt.Value{Value: perSample(r.SampleBytes, i, r.BytesPerOp), Unit: "B/op"},
				benchfmt.Value{Value: perSample(r.SampleAllocs, i, r.AllocsPerOp), Unit: "allocs/op"})
			if r.Op != OpConvert && r.SizeBytes > 0 {
				res.Values = append(res.Values, benchfmt.Value{Value: float64(r.SizeBytes), Unit: UnitSize})
			}
			if r.CompressedBytes > 0 {
				res.Values = append(res.Values, benchfmt.Value{Value: float64(r.CompressedBytes), Unit: UnitCompressed})
			}
			if i < len(r.PairRatios) {
				res.Values = append(res.Values, benchfmt.Value{Value: r.PairRatios[i], Unit: UnitPairSpeedup})
			}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
		if !r.OK {
			fmt.Fprintln(ew, Note(NoteFail, name, r.Error))
		}
	}
	for _, si := range doc.Scenarios {
		if l := scenarioNote(si); l != "" {
			later = append(later, l)
		}
	}
	if len(later) > 0 {
		fmt.Fprintln(ew)
		for _, l := range later {
			fmt.Fprintln(ew, l)
		}
	}
	return ew.Err()
}

// scenarioNote returns the note line of si's element count and sweep
// point, "" when it has neither.
func scenarioNote(si ScenarioInfo) string {
	var kv []string
	if si.Elements > 0 {
		kv = append(kv, "elements="+strconv.Itoa(si.Elements))
	}
	if p := si.Sweep; p != nil {
		kv = append(kv, "sweep_family="+codec.EscapeID(p.Family),
			"sweep_target_bytes="+strconv.FormatInt(p.TargetBytes, 10),
			"sweep_json_bytes="+strconv.FormatInt(p.JSONBytes, 10),
			"sweep_elements="+strconv.Itoa(p.Elements))
	}
	if len(kv) == 0 {
		return ""
	}
	return Note(noteScenario, codec.EscapeID(si.ID), strings.Join(kv, " "))
}

// parseScenarioNote inverts scenarioNote: id is the escaped scenario ID,
// text its key=value fields. An unknown key or a bad number is an error.
func parseScenarioNote(id, text string) (ScenarioInfo, error) {
	var si ScenarioInfo
	var err error
	if si.ID, err = codec.UnescapeID(id); err != nil {
		return si, err
	}
	var p scenario.SweepPoint
	sweep := false
	for _, f := range strings.Fields(text) {
		k, v, ok := strings.Cut(f, "=")
		if !ok {
			return si, fmt.Errorf("field %q is not key=value", f)
		}
		var n int64
		if k != "sweep_family" {
			if n, err = strconv.ParseInt(v, 10, 64); err != nil || n < 0 {
				return si, fmt.Errorf("%s=%q is not a count", k, v)
			}
		}
		switch k {
		case "elements":
			si.Elements = int(n)
		case "sweep_family":
			if p.Family, err = codec.UnescapeID(v); err != nil {
				return si, err
			}
			sweep = true
		case "sweep_target_bytes":
			p.TargetBytes, sweep = n, true
		case "sweep_json_bytes":
			p.JSONBytes, sweep = n, true
		case "sweep_elements":
			p.Elements, sweep = int(n), true
		default:
			return si, fmt.Errorf("unknown key %q", k)
		}
	}
	if sweep {
		si.Sweep = &p
	}
	return si, nil
}

// sig6 rounds x to six significant digits, finer than any benchmark's
// noise, so that lines stay readable.
func sig6(x float64) float64 {
	y, err := strconv.ParseFloat(strconv.FormatFloat(x, 'g', 6, 64), 64)
	if err != nil {
		return x
	}
	return y
}

// Note is a "// serbench:" note line: "// serbench: <kind> <name>:
// <text>", text on one line (NoteText). kind is NoteFail or NoteNA for a
// cell (name: BenchName without the GOMAXPROCS suffix, or the name a go
// test benchmark of package serbench runs under), or the scenario kind
// WriteBenchfmt writes. Read picks these lines out of a benchmark file
// or go test output; benchstat ignores them.
func Note(kind, name, text string) string {
	return notePrefix + kind + " " + name + ": " + NoteText(text)
}

// benchConfig returns the file configuration of doc's results.
func benchConfig(doc *Run) []benchfmt.Config {
	e := doc.Env
	var cfg []benchfmt.Config
	add := func(k, v string) {
		v = strings.Join(strings.Fields(v), " ")
		if v != "" {
			cfg = append(cfg, benchfmt.Config{Key: k, Value: []byte(v), File: true})
		}
	}
	add("goos", e.GOOS)
	add("goarch", e.GOARCH)
	add("pkg", BenchPkg)
	add("cpu", e.CPU)
	add("go", e.Go)
	add("goexperiment", e.GOEXPERIMENT)
	add("json-engine", e.JSONEngine)
	paths := make([]string, 0, len(e.Modules))
	for p := range e.Modules {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		add(configKey(p), e.Modules[p])
	}
	return cfg
}

// configKey makes a module path usable as a configuration key, which may
// hold no upper case or space: 'X' becomes "!x" as in the module cache.
func configKey(path string) string {
	var b strings.Builder
	for _, r := range path {
		switch {
		case unicode.IsUpper(r):
			b.WriteByte('!')
			b.WriteRune(unicode.ToLower(r))
		case unicode.IsSpace(r):
			b.WriteByte('_')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// moduleFromKey inverts configKey (spaces aside).
func moduleFromKey(key string) string {
	var b strings.Builder
	up := false
	for _, r := range key {
		switch {
		case r == '!':
			up = true
		case up:
			b.WriteRune(unicode.ToUpper(r))
			up = false
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// BenchName returns the benchmark name of a cell, without the "Benchmark"
// prefix and the GOMAXPROCS suffix:
// "Codec/codec=sonic.default/scenario=sse-event/op=marshal". IDs are escaped
// as WriteBenchfmt describes.
func BenchName(codecID, scenarioID, op string) string {
	return BenchBase + "/codec=" + codec.EscapeID(codecID) + "/scenario=" + codec.EscapeID(scenarioID) + "/op=" + codec.EscapeID(op)
}

// ParseBenchName inverts BenchName, and also reads the names of go test
// benchmarks written with package serbench (github.com/serbench/serbench)
// or by hand in the same style. It accepts a name with or without the
// "Benchmark" prefix and the GOMAXPROCS suffix; every part after the base
// must be key=value, and a codec= part is required. Then:
//
//   - base "Codec" (serbench run): scenario= and op= are required too.
//   - any other base with op= (package serbench:
//     "Codecs/codec=cbor/op=marshal"): the scenario is the scenario= value,
//     or else the base name followed by the parts other than codec=, op=
//     and lossy= ("Codecs", "Order/size=1k").
//   - no op= ("Marshal/codec=cbor", one benchmark function per
//     operation): the op is the base name in lower case and the scenario
//     is the scenario= value, or else the other parts, or else "go-test".
//
// It returns an error naming the input when the name is not a cell.
func ParseBenchName(name string) (codec, scenario, op string, err error) {
	c, err := parseCellName(name)
	return c.codec, c.scenario, c.op, err
}

// cellName is a benchmark name taken apart by parseCellName.
type cellName struct {
	codec, scenario, op string
	// lossy is true for the key LossyKey of package serbench (lossy=true):
	// the codec did not round-trip the value exactly.
	lossy bool
}

func parseCellName(name string) (cellName, error) {
	var c cellName
	n := benchfmt.Name(strings.TrimPrefix(name, "Benchmark"))
	base, parts := n.Parts()
	vals := map[string]string{}
	var others []string
	for _, p := range parts {
		if p[0] == '-' { // GOMAXPROCS
			continue
		}
		k, v, ok := strings.Cut(string(p[1:]), "=")
		if !ok {
			return c, fmt.Errorf("results: benchmark %q: part %q is not key=value", name, p[1:])
		}
		val, err := codec.UnescapeID(v)
		if err != nil {
			return c, fmt.Errorf("results: benchmark %q: %w", name, err)
		}
		vals[k] = val
		switch k {
		case "codec", "op", "scenario":
		case "lossy":
			c.lossy = v == "true"
		default:
			others = append(others, k+"="+v)
		}
	}
	c.codec, c.scenario, c.op = vals["codec"], vals["scenario"], vals["op"]
	if c.codec == "" {
		return c, fmt.Errorf("results: benchmark %q has no codec= part (want %s/codec=.../scenario=.../op=..., or codec=... in a go test benchmark)", name, BenchBase)
	}
	switch {
	case string(base) == BenchBase:
		if c.scenario == "" || c.op == "" {
			return c, fmt.Errorf("results: benchmark %q lacks codec=, scenario= or op=", name)
		}
	case c.op != "":
		if c.scenario == "" {
			c.scenario = strings.Join(append([]string{string(base)}, others...), "/")
		}
	default:
		c.op = strings.ToLower(string(base))
		if c.scenario == "" {
			c.scenario = strings.Join(others, "/")
		}
		if c.scenario == "" {
			c.scenario = "go-test"
		}
	}
	return c, nil
}

// Paired reports whether any row of doc was sampled in pairs with the
// baseline (Row.PairRatios).
func (doc *Run) Paired() bool {
	for _, r := range doc.Results {
		if len(r.PairRatios) > 0 {
			return true
		}
	}
	return false
}

// HasCompressed reports whether any of rs is a compression cell (one
// with CompressedBytes).
func HasCompressed(rs []Row) bool {
	for _, r := range rs {
		if r.CompressedBytes > 0 {
			return true
		}
	}
	return false
}

// perSample returns sample i of xs as `go test -benchmem` prints it (the
// integer part), or median when xs lacks it (older documents).
func perSample(xs []float64, i int, median int64) float64 {
	if i < len(xs) {
		return float64(int64(xs[i]))
	}
	return float64(median)
}
