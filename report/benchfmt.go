package report

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/perf/benchfmt"

	"github.com/serbench/serbench/bench"
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
	// notePrefix starts the comment lines that carry cells without
	// figures and fidelity failures. The benchmark format ignores lines
	// that are neither results, units nor configuration, so benchstat
	// skips them.
	notePrefix = "// serbench: "
)

// Note kinds written after notePrefix.
const (
	noteFail = "fail" // the cell did not round-trip or failed while timing
	noteNA   = "n/a"  // the codec cannot do the cell
)

// Benchfmt writes doc in the Go benchmark text format, through
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
//     per-sample memory figures) and UnitSize (not for convert).
//   - comment lines `// serbench: fail <name>: <error>` after the samples
//     of a cell that did not round-trip exactly (its figures are written,
//     since it was timed, but they are not a fair comparison), and
//     `// serbench: fail <name>: <error>` or `// serbench: n/a <name>:
//     <reason>` for cells that were not timed, at the end. <name> is
//     BenchName without the GOMAXPROCS suffix. benchstat ignores these
//     lines; ReadFile reads them back.
//
// In names, the characters '/' (which separates name parts), '.', '%' and
// white space are escaped in codec and scenario IDs: '/' becomes '.', and
// the others are percent-encoded (`%2E` for '.'), so `sonic/default` is
// written `codec=sonic.default` and ParseBenchName gives back every ID
// exactly.
func Benchfmt(w io.Writer, doc *Document) error {
	bw := benchfmt.NewWriter(w)
	ew := &errWriter{w: w}
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
			kind := noteFail
			if r.NA {
				kind = noteNA
			}
			later = append(later, note(kind, name, r.Error))
			continue
		}
		if !wroteUnits {
			// Unit metadata before the first result, so it applies to
			// the whole file.
			if err := bw.Write(&benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: UnitSize, Key: "assume"}, OrigUnit: UnitSize, Value: "exact"}); err != nil {
				return err
			}
			if err := bw.Write(&benchfmt.UnitMetadata{UnitMetadataKey: benchfmt.UnitMetadataKey{Unit: UnitSize, Key: "better"}, OrigUnit: UnitSize, Value: "lower"}); err != nil {
				return err
			}
			wroteUnits = true
		}
		for i, ns := range r.Samples {
			res := &benchfmt.Result{Config: config, Name: benchfmt.Name(name + suffix), Iters: max(r.Iterations, 1)}
			res.Values = append(res.Values, benchfmt.Value{Value: sig6(ns), Unit: "ns/op"})
			if r.Op != bench.OpConvert && r.SizeBytes > 0 && ns > 0 {
				res.Values = append(res.Values, benchfmt.Value{Value: sig6(float64(r.SizeBytes) / ns * 1e3), Unit: "MB/s"})
			}
			res.Values = append(res.Values,
				benchfmt.Value{Value: perSample(r.SampleBytes, i, r.BytesPerOp), Unit: "B/op"},
				benchfmt.Value{Value: perSample(r.SampleAllocs, i, r.AllocsPerOp), Unit: "allocs/op"})
			if r.Op != bench.OpConvert && r.SizeBytes > 0 {
				res.Values = append(res.Values, benchfmt.Value{Value: float64(r.SizeBytes), Unit: UnitSize})
			}
			if err := bw.Write(res); err != nil {
				return err
			}
		}
		if !r.OK {
			fmt.Fprintln(ew, note(noteFail, name, r.Error))
		}
	}
	if len(later) > 0 {
		fmt.Fprintln(ew)
		for _, l := range later {
			fmt.Fprintln(ew, l)
		}
	}
	return ew.err
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

func note(kind, name, text string) string {
	return notePrefix + kind + " " + name + ": " + strings.Join(strings.Fields(text), " ")
}

// benchConfig returns the file configuration of doc's results.
func benchConfig(doc *Document) []benchfmt.Config {
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
// as Benchfmt describes.
func BenchName(codec, scenario, op string) string {
	return BenchBase + "/codec=" + escapeNameValue(codec) + "/scenario=" + escapeNameValue(scenario) + "/op=" + escapeNameValue(op)
}

// ParseBenchName inverts BenchName. It accepts a name with or without the
// "Benchmark" prefix and the GOMAXPROCS suffix, and returns an error naming
// the input when it is not a serbench cell.
func ParseBenchName(name string) (codec, scenario, op string, err error) {
	n := benchfmt.Name(strings.TrimPrefix(name, "Benchmark"))
	base, parts := n.Parts()
	if string(base) != BenchBase {
		return "", "", "", fmt.Errorf("report: benchmark %q is not a serbench cell (want %s/codec=.../scenario=.../op=...)", name, BenchBase)
	}
	vals := map[string]string{}
	for _, p := range parts {
		if p[0] == '-' { // GOMAXPROCS
			continue
		}
		k, v, ok := strings.Cut(string(p[1:]), "=")
		if !ok {
			return "", "", "", fmt.Errorf("report: benchmark %q: part %q is not key=value", name, p[1:])
		}
		if vals[k], err = unescapeNameValue(v); err != nil {
			return "", "", "", fmt.Errorf("report: benchmark %q: %w", name, err)
		}
	}
	codec, scenario, op = vals["codec"], vals["scenario"], vals["op"]
	if codec == "" || scenario == "" || op == "" {
		return "", "", "", fmt.Errorf("report: benchmark %q lacks codec=, scenario= or op=", name)
	}
	return codec, scenario, op, nil
}

// escapeNameValue writes '/' as '.', and '.', '%', white space and
// control characters as %XX of their UTF-8 bytes.
func escapeNameValue(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '/':
			b.WriteByte('.')
		case r == '.' || r == '%' || unicode.IsSpace(r) || unicode.IsControl(r):
			for _, c := range []byte(string(r)) {
				fmt.Fprintf(&b, "%%%02X", c)
			}
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func unescapeNameValue(s string) (string, error) {
	var b bytes.Buffer
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '.':
			b.WriteByte('/')
		case '%':
			if i+2 >= len(s) {
				return "", fmt.Errorf("bad escape %q in %q", s[i:], s)
			}
			x, err := strconv.ParseUint(s[i+1:i+3], 16, 8)
			if err != nil {
				return "", fmt.Errorf("bad escape %q in %q", s[i:i+3], s)
			}
			b.WriteByte(byte(x))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}
