package results

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/serbench/serbench/document"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/regfile"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/stats"
	"golang.org/x/perf/benchfmt"
)

// MaxReadBytes caps the size of a results file that Read and ReadFile
// accept: 64 MiB, far above the few hundred KiB of a full matrix.
const MaxReadBytes = 64 << 20

// ErrTooLarge is returned (wrapped, with the file name) for an input over
// MaxReadBytes.
var ErrTooLarge = errors.New("results: results file larger than MaxReadBytes")

// ErrTransportResults is returned (wrapped, with the file name) for a
// serbench/v1 JSON file that holds the transport results of serbench load
// rather than the codec matrix of serbench run; load.ReadReport reads it.
var ErrTransportResults = errors.New("holds serbench load (transport) results, not serbench run results")

// ReadFile reads a results file written by WriteJSON (-format json) or WriteBenchfmt
// (-format benchfmt); see Read. A path that is not a regular file (a FIFO,
// a device, a folder) is an error wrapping regfile.ErrNotRegular, returned
// before reading.
func ReadFile(path string) (*Run, error) {
	f, err := regfile.Open(path, true)
	if err != nil {
		return nil, fmt.Errorf("results: %w", err)
	}
	defer f.Close()
	return Read(f, path)
}

// Read reads a results document from r; name labels errors. The format is
// told by content: input whose first non-space byte is '{' is serbench/v1
// JSON (any other schema is an error), anything else is the Go benchmark
// format: as WriteBenchfmt writes it, as `go test -bench` prints it for
// benchmarks written with package serbench (names without scenario=, see
// ParseBenchName; lossy=true marks a cell that did not round-trip, and the
// notes the library logs, indented and after a "file.go:N: " prefix, give
// the first difference or the n/a reason), or hand-written benchmarks
// whose names carry codec=. From benchmark lines Read rebuilds each
// cell's Samples (ns/op), its median and 95% interval (benchmath, as the
// runner computes them), MB/s, B/op, allocs/op and size; the "// serbench:"
// notes give back fidelity failures and n/a cells; the configuration lines
// give back the environment, and the name suffix GOMAXPROCS; the
// baseline is encoding/json when it has a timed cell. In either format,
// the Derived figures a row lacks are derived from its measured fields
// as NewRun derives them, so that a benchmark file gets its speed-ups and
// documents written before a figure existed or was renamed (Modes, once
// "regimes"; BytesOverJSON, once "json_ratio") show it too; figures a
// JSON document holds are kept as written. Lines that are not
// serbench cells are skipped with a warning in Run.Warnings. Input with
// no serbench cell at all, larger than MaxReadBytes, or not plausible (an
// *ImplausibleError: a start in the future beyond MaxClockSkew, a negative
// or non-finite figure, one beyond MaxNsPerOp, MaxAllocsPerOp or
// MaxBytesPerOp, a p-value beyond 1 + MaxPRounding) is an error; a
// p-value within MaxPRounding past 1 (floating-point rounding in a file
// written before stats.ClampP) is read as 1. The run's own figures
// (Analyze) are likewise derived where the document lacks them.
func Read(r io.Reader, name string) (*Run, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxReadBytes+1))
	if err != nil {
		return nil, fmt.Errorf("results: %s: %w", name, err)
	}
	if len(data) > MaxReadBytes {
		return nil, fmt.Errorf("%w (%d bytes): %s", ErrTooLarge, MaxReadBytes, name)
	}
	read := readBenchfmt
	if trimmed := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(trimmed) > 0 && trimmed[0] == '{' {
		read = readJSON
	}
	doc, err := read(data, name)
	if err != nil {
		return nil, err
	}
	if err := checkPlausible(doc, name); err != nil {
		return nil, err
	}
	doc.derive()
	return doc, nil
}

func readJSON(data []byte, name string) (*Run, error) {
	var doc Run
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("results: %s: not serbench JSON: %w", name, err)
	}
	switch doc.Schema {
	case Schema:
	case document.Load:
		return nil, fmt.Errorf("results: %s: %w", name, ErrTransportResults)
	case "":
		return nil, fmt.Errorf("results: %s: JSON without a \"schema\" field (want %q)", name, Schema)
	default:
		return nil, fmt.Errorf("results: %s: schema %q, want %q", name, doc.Schema, Schema)
	}
	if len(doc.Results) == 0 {
		var probe struct {
			Transport json.RawMessage `json:"transport"`
		}
		if json.Unmarshal(data, &probe) == nil && len(probe.Transport) > 0 {
			return nil, fmt.Errorf("results: %s: %w", name, ErrTransportResults)
		}
		return nil, fmt.Errorf("results: %s: no results", name)
	}
	return &doc, nil
}

// cellAcc accumulates the benchmark lines of one cell.
type cellAcc struct {
	res                   Row
	mb, bytes, allocs, sz []float64
	csz                   []float64 // UnitCompressed
}

func readBenchfmt(data []byte, name string) (*Run, error) {
	doc := &Run{Schema: Schema}
	cells := &cellSet{byKey: map[string]*cellAcc{}}
	if err := readBenchLines(data, name, doc, cells); err != nil {
		return nil, err
	}
	if err := readNotes(data, name, doc, cells); err != nil {
		return nil, err
	}
	if len(cells.order) == 0 {
		return nil, fmt.Errorf("results: %s: not a serbench results file (neither %s JSON nor benchmark lines named %s)", name, Schema, BenchName("<codec>", "<scenario>", "<op>"))
	}
	elements := map[string]int{}
	for _, si := range doc.Scenarios {
		elements[si.ID] = si.Elements
	}
	for _, c := range cells.order {
		if err := c.check(name); err != nil {
			return nil, err
		}
		r := c.finish()
		if n := elements[r.Scenario]; n > 0 && r.SizeBytes > 0 && r.Op != OpConvert {
			r.BytesPerElem = scenario.ElementBytes(r.SizeBytes, n)
		}
		doc.Results = append(doc.Results, r)
		doc.Count = max(doc.Count, len(c.res.Samples))
	}
	if slices.ContainsFunc(doc.Results, func(r Row) bool { return r.Codec == DefaultBaseline && r.Timed() }) {
		doc.Baseline = DefaultBaseline
	}
	return doc, nil
}

// cellSet holds the cells of a benchmark file in first-seen order.
type cellSet struct {
	order []*cellAcc
	byKey map[string]*cellAcc
}

func (s *cellSet) get(codec, scenario, op string) *cellAcc {
	k := codec + "\x00" + scenario + "\x00" + op
	c, ok := s.byKey[k]
	if !ok {
		c = &cellAcc{res: Row{Codec: codec, Scenario: scenario, Op: op}}
		s.byKey[k] = c
		s.order = append(s.order, c)
	}
	return c
}

// readBenchLines adds every benchmark line that names a cell to cells; the
// first one's configuration gives doc.Env, and other lines are counted in a
// warning.
func readBenchLines(data []byte, name string, doc *Run, cells *cellSet) error {
	foreign, firstForeign := 0, ""
	envSet := false
	rd := benchfmt.NewReader(bytes.NewReader(data), name)
	for rd.Scan() {
		switch rec := rd.Result().(type) {
		case *benchfmt.SyntaxError:
			doc.Warnings = append(doc.Warnings, rec.Error())
		case *benchfmt.Result:
			cn, err := parseCellName(rec.Name.String())
			if err != nil {
				if foreign == 0 {
					firstForeign = "Benchmark" + rec.Name.String()
				}
				foreign++
				continue
			}
			if !envSet {
				doc.Env = envFromResult(rec)
				envSet = true
			}
			c := cells.get(cn.codec, cn.scenario, cn.op)
			if cn.lossy && c.res.Error == "" {
				c.res.Error = lossyText
			}
			c.add(rec)
		}
	}
	if err := rd.Err(); err != nil {
		return fmt.Errorf("results: %s: %w", name, err)
	}
	if foreign > 0 {
		doc.Warnings = append(doc.Warnings, fmt.Sprintf("%s: skipped %d benchmark lines that are not serbench cells, the first %s", name, foreign, firstForeign))
	}
	return nil
}

// add takes one benchmark line's iterations and values (one sample).
func (c *cellAcc) add(rec *benchfmt.Result) {
	c.res.Iterations = rec.Iters
	for _, v := range rec.Values {
		val, unit := v.Value, v.Unit
		if v.OrigUnit != "" {
			val, unit = v.OrigValue, v.OrigUnit
		}
		switch unit {
		case "ns/op":
			c.res.Samples = append(c.res.Samples, val)
		case "sec/op":
			c.res.Samples = append(c.res.Samples, val*1e9)
		case "MB/s":
			c.mb = append(c.mb, val)
		case "B/op":
			c.bytes = append(c.bytes, val)
		case "allocs/op":
			c.allocs = append(c.allocs, val)
		case UnitSize:
			c.sz = append(c.sz, val)
		case UnitCompressed:
			c.csz = append(c.csz, val)
		case UnitPairSpeedup:
			c.res.PairRatios = append(c.res.PairRatios, val)
		}
	}
}

// readNotes applies the "// serbench:" note lines (fidelity failures and
// n/a cells) to cells; an unreadable note is a warning.
func readNotes(data []byte, name string, doc *Run, cells *cellSet) error {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, MaxReadBytes)
	line := 0
	for sc.Scan() {
		line++
		rest, ok := noteText(sc.Text())
		if !ok {
			continue
		}
		kind, rest, _ := strings.Cut(rest, " ")
		cellName, text, _ := strings.Cut(rest, " ")
		cellName = strings.TrimSuffix(cellName, ":")
		if kind == noteScenario {
			si, err := parseScenarioNote(cellName, text)
			if err != nil {
				doc.Warnings = append(doc.Warnings, fmt.Sprintf("%s:%d: unreadable serbench scenario note: %v", name, line, err))
				continue
			}
			doc.Scenarios = append(doc.Scenarios, si)
			continue
		}
		codec, scenario, op, err := ParseBenchName(cellName)
		if err != nil || (kind != NoteFail && kind != NoteNA) {
			doc.Warnings = append(doc.Warnings, fmt.Sprintf("%s:%d: unreadable serbench note", name, line))
			continue
		}
		c := cells.get(codec, scenario, op)
		c.res.Error = UnnoteText(text)
		c.res.NA = kind == NoteNA
		c.res.OK = false
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("results: %s: %w", name, err)
	}
	return nil
}

// finish summarises the cell's samples as the runner does.
func (c *cellAcc) finish() Row {
	r := c.res
	if len(r.Samples) == 0 {
		r.Iterations = 0
		return r
	}
	r.NsPerOp, r.NsPerOpLo, r.NsPerOpHi = stats.Summarize(r.Samples)
	r.BytesPerOp = int64(stats.Median(c.bytes))
	r.AllocsPerOp = int64(stats.Median(c.allocs))
	if len(c.bytes) == len(r.Samples) && len(c.allocs) == len(r.Samples) {
		r.SampleBytes, r.SampleAllocs = c.bytes, c.allocs
	}
	r.SizeBytes = int(stats.Median(c.sz))
	if r.CompressedBytes = int(stats.Median(c.csz)); r.CompressedBytes > 0 && r.SizeBytes > 0 {
		r.CompressRatio = float64(r.CompressedBytes) / float64(r.SizeBytes)
	}
	switch {
	case r.SizeBytes > 0 && r.Op != OpConvert && r.NsPerOp > 0:
		r.MBPerS = float64(r.SizeBytes) / r.NsPerOp * 1e3
	default:
		r.MBPerS = stats.Median(c.mb)
	}
	r.OK = r.Error == ""
	return r
}

// lossyText is the error of a cell whose name carries lossy=true when no
// note gave the difference.
const lossyText = "lossy=true: the value did not round-trip exactly (the first difference is in the go test log)"

// noteText returns what follows notePrefix on a note line: one Benchfmt
// wrote (the prefix at the start), or one package serbench logged in go
// test output, where the testing package indents it and puts the file and
// line in front ("    benchmark.go:108: // serbench: fail ...").
func noteText(line string) (string, bool) {
	t := strings.TrimLeft(line, " \t")
	if rest, ok := strings.CutPrefix(t, notePrefix); ok {
		return rest, true
	}
	i := strings.Index(t, ": "+notePrefix)
	if i <= 0 || strings.ContainsAny(t[:i], " \t") || !strings.Contains(t[:i], ".go:") {
		return "", false
	}
	return t[i+2+len(notePrefix):], true
}

// envFromResult rebuilds the environment from a result's configuration and
// its name's GOMAXPROCS suffix.
func envFromResult(rec *benchfmt.Result) env.Env {
	e := env.Env{GOMAXPROCS: 1}
	for _, cfg := range rec.Config {
		v := strings.TrimSpace(string(cfg.Value))
		switch cfg.Key {
		case "goos":
			e.GOOS = v
		case "goarch":
			e.GOARCH = v
		case "cpu":
			e.CPU = v
		case "go":
			e.Go = v
		case "goexperiment":
			e.GOEXPERIMENT = v
		case "json-engine":
			e.JSONEngine = v
		case "pkg":
		default:
			if strings.Contains(cfg.Key, "/") {
				if e.Modules == nil {
					e.Modules = map[string]string{}
				}
				e.Modules[moduleFromKey(cfg.Key)] = v
			}
		}
	}
	_, parts := rec.Name.Parts()
	if n := len(parts); n > 0 && parts[n-1][0] == '-' {
		if p, err := strconv.Atoi(string(parts[n-1][1:])); err == nil {
			e.GOMAXPROCS = p
		}
	}
	return e
}
