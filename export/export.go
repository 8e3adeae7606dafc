// Package export writes a standalone Go module that benchmarks serbench's
// codecs on serbench's scenarios with plain testing.B loops: no serbench
// runner, no serbench statistics. Anyone can run it with
//
//	go mod tidy && go test -bench . -count 10 | tee new.txt && benchstat new.txt
//
// and compare the speed-ups with serbench's. The module holds:
//
//   - go.mod requiring every module of the serbench build that wrote it, at
//     the same versions (`go mod tidy` keeps those the benchmarks need);
//   - types_test.go: copies of the scenario types, written from their
//     reflect.Type with the same field names, types and tags;
//   - testdata/<scenario>.json: each scenario value as encoding/json writes
//     it, decoded into the copied type before timing;
//   - bench_test.go: BenchmarkCodec with one sub-benchmark per (codec,
//     scenario, op), named as serbench's benchfmt output names its cells
//     (Codec/codec=encoding.json/scenario=ws-message/op=marshal), so
//     benchstat can set the two side by side;
//   - adapters_test.go: the cells of adapter codecs (below), or none;
//   - liveheap_test.go: the GC condition (Module.LiveHeap, overridden by
//     the SERBENCH_LIVE_HEAP environment variable): once the scenarios are
//     loaded, a pointer-free ballast raises the live heap to that size for
//     the whole run, as `serbench run -live-heap` does, so that both run
//     with the same GC rhythm.
//
// A codec is exported in one of two ways:
//
//   - A library codec (Library reports it: the adapter states its calls
//     as Go code, codec.Exporter) is written as those calls on the copied
//     types: the module runs no serbench code for it.
//   - Any other codec (codegen codecs, whose generated types live in
//     serbench; serbench's own wire codec; the memmove reference row) is an
//     adapter codec: the module requires serbench, replaced by a local
//     checkout (Module.Serbench), decodes the scenario's JSON into
//     serbench's own type, binds the codec's serbench adapter to it and
//     times the Binding's Marshal and Unmarshal in the same plain loops, as
//     serbench's own loops do (one Binding for each op, a Converter's
//     ToNative before timing). The adapter is then the same code on both
//     sides, and what is compared is the harness. A cell whose Bind fails
//     (a codec without a schema for the scenario) is left out, as
//     serbench's run shows it n/a.
//
// Scenario types with methods are refused, since a copy without the methods
// could encode differently.
package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"sort"
	"strings"
	"sync"

	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/all"
	"github.com/serbench/serbench/scenario"
)

// exportable returns the library codecs, by ID, with their calls: those
// whose adapter gives its Go code (codec.Exporter). The calls are constant
// source text, so the table is made once (all.Registry builds every codec).
var exportable = sync.OnceValue(func() map[string]codec.GoCode {
	out := map[string]codec.GoCode{}
	for _, c := range all.Registry().All() {
		if x, ok := c.(codec.Exporter); ok {
			if code, ok := x.GoCode(); ok {
				out[c.Info().ID] = code
			}
		}
	}
	return out
})

// Supported returns the IDs of the library codecs, sorted: the built-in
// codecs whose adapter gives its calls as Go code (codec.Exporter), which
// Write exports without serbench. Every other built-in codec is exported
// through its adapter, which needs Module.Serbench.
func Supported() []string {
	libraries := exportable()
	ids := make([]string, 0, len(libraries))
	for id := range libraries {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Library reports whether the codec id is a library codec: one Write
// exports as its own Go calls, with no serbench code (Supported lists them).
func Library(id string) bool {
	_, ok := exportable()[id]
	return ok
}

// SerbenchModule is the module path of serbench, which an exported module
// requires (replaced by Module.Serbench) when it holds adapter codecs.
const SerbenchModule = "github.com/serbench/serbench"

// Module describes the module to write.
type Module struct {
	// Codecs are codec IDs of built-in codecs (all.Registry). Those that
	// are not library codecs (Library) need Serbench.
	Codecs []string
	// Serbench is the folder of a serbench checkout (its module root, an
	// absolute path): the module requires serbench, replaced by it, when
	// Codecs holds an adapter codec. "" allows library codecs only.
	Serbench string
	// Scenarios are the scenarios to benchmark.
	Scenarios []scenario.Scenario
	// Go is the go directive's version ("1.26.8"); "" is this binary's
	// (runtime.Version).
	Go string
	// Requires maps module paths to the versions go.mod requires; nil is
	// BuildModules().
	Requires map[string]string
	// BenchName returns the sub-benchmark name of a cell without the
	// "Benchmark" prefix, as serbench's benchfmt output writes it.
	BenchName func(codec, scenario, op string) string
	// LiveHeap is the live heap in bytes the benchmarks keep by default
	// (see bench.Options.LiveHeap); the environment variable
	// SERBENCH_LIVE_HEAP (a size such as 64MiB, or 0) overrides it when
	// the benchmarks run. 0: no ballast.
	LiveHeap int64
}

// Skipped is a scenario Write left out, and why; with Codec set, only that
// codec's cells of the scenario were left out.
type Skipped struct {
	Scenario string
	Codec    string
	Err      error
}

// Write writes the module into dir, which must not exist or be empty: no
// file of the user's is overwritten. It returns the scenarios it had to
// leave out (types it cannot copy, message corpora); an error for an unsupported codec, an
// unusable dir, or when no scenario is left.
func (m Module) Write(dir string) ([]Skipped, error) {
	if len(m.Codecs) == 0 {
		return nil, fmt.Errorf("export: no codecs")
	}
	if m.Go == "" {
		m.Go = strings.TrimPrefix(runtime.Version(), "go")
	}
	if m.Requires == nil {
		m.Requires = BuildModules()
	}
	libraries := exportable()
	var libIDs []string
	var adapted []codec.Codec
	reg := all.Registry()
	for _, id := range m.Codecs {
		if _, ok := libraries[id]; ok {
			libIDs = append(libIDs, id)
			continue
		}
		c, ok := reg.Lookup(id)
		if !ok {
			return nil, fmt.Errorf("export: unknown codec %q", id)
		}
		if m.Serbench == "" {
			return nil, fmt.Errorf("export: codec %q has no Go calls of its own (its code is generated into serbench, or is serbench's): it is exported through its serbench adapter, which needs a serbench checkout (Module.Serbench; serbench export -serbench DIR); library codecs: %s", id, strings.Join(Supported(), ", "))
		}
		if !filepath.IsAbs(m.Serbench) {
			return nil, fmt.Errorf("export: Module.Serbench %q is not an absolute path", m.Serbench)
		}
		adapted = append(adapted, c)
	}
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return nil, fmt.Errorf("export: %s is not empty", dir)
	} else if err != nil && !os.IsNotExist(err) {
		return nil, fmt.Errorf("export: %w", err)
	}
	tw := newTypeWriter()
	type scen struct{ id, typ, file string }
	var scens []scen
	var skipped []Skipped
	ow := newOwnWriter()
	var acells []adapterCell
	files := map[string][]byte{}
	for _, s := range m.Scenarios {
		if len(s.Messages) > 0 {
			skipped = append(skipped, Skipped{Scenario: s.ID, Err: fmt.Errorf("export: %s is a message corpus (%d messages, JSON Lines); the exported benchmarks time one value per scenario", s.ID, len(s.Messages))})
			continue
		}
		v := s.Value()
		t := reflect.TypeOf(v)
		if t.Kind() != reflect.Pointer {
			skipped = append(skipped, Skipped{Scenario: s.ID, Err: fmt.Errorf("export: value of %s is %v, not a pointer", s.ID, t)})
			continue
		}
		// Try on a copy of the writer, so a failure leaves no half-written types.
		trial := tw.clone()
		name, err := trial.expr(t.Elem())
		if err != nil {
			skipped = append(skipped, Skipped{Scenario: s.ID, Err: err})
			continue
		}
		data, err := json.Marshal(v)
		if err != nil {
			skipped = append(skipped, Skipped{Scenario: s.ID, Err: fmt.Errorf("export: encoding/json cannot write %s: %w", s.ID, err)})
			continue
		}
		tw = trial
		file := "testdata/" + strings.ReplaceAll(s.ID, "/", "_") + ".json"
		files[file] = data
		scens = append(scens, scen{s.ID, name, file})
		if len(adapted) > 0 {
			cells, skips := ow.adapterCells(s, v, adapted)
			acells = append(acells, cells...)
			skipped = append(skipped, skips...)
		}
	}
	if len(scens) == 0 {
		return skipped, fmt.Errorf("export: no scenario can be exported")
	}
	if len(adapted) > 0 {
		src, err := ow.source(acells)
		if err != nil {
			return skipped, err
		}
		files["adapters_test.go"] = src
	} else {
		files["adapters_test.go"] = []byte(noAdapters)
	}

	var types bytes.Buffer
	types.WriteString("// Code generated by serbench export. DO NOT EDIT.\n\npackage serbenchexport\n\n")
	if len(tw.imports) > 0 {
		types.WriteString("import (\n")
		for _, p := range sortedKeys(tw.imports) {
			fmt.Fprintf(&types, "\t%q\n", p)
		}
		types.WriteString(")\n\n")
	}
	types.WriteString("// Copies of the scenario types, with their field names, types and tags.\n\n")
	types.WriteString(tw.source())

	imports := map[string]bool{"os": true, "testing": true, "encoding/json": true, "runtime": true}
	var setup []string
	for _, id := range libIDs {
		code := libraries[id]
		for _, imp := range code.Imports {
			imports[imp] = true
		}
		if code.Setup != "" && !contains(setup, code.Setup) {
			setup = append(setup, code.Setup)
		}
	}
	var b bytes.Buffer
	b.WriteString("// Code generated by serbench export. DO NOT EDIT.\n\n")
	b.WriteString("// Package serbenchexport benchmarks codecs on serbench's scenarios with plain\n// testing.B loops, to check serbench's figures independently.\npackage serbenchexport\n\nimport (\n")
	for _, imp := range sortedKeys(imports) {
		if alias, path, ok := strings.Cut(imp, " "); ok {
			fmt.Fprintf(&b, "\t%s %q\n", alias, path)
		} else {
			fmt.Fprintf(&b, "\t%q\n", imp)
		}
	}
	b.WriteString(")\n\n")
	for _, s := range setup {
		b.WriteString(s + "\n\n")
	}
	b.WriteString("type codecFuncs struct {\n\tname      string\n\tmarshal   func(any) ([]byte, error)\n\tunmarshal func([]byte, any) error\n}\n\n")
	b.WriteString("var codecs = []codecFuncs{\n")
	for _, id := range libIDs {
		code := libraries[id]
		fmt.Fprintf(&b, "\t{%q, %s, %s},\n", id, code.Marshal, code.Unmarshal)
	}
	b.WriteString("}\n\n")
	b.WriteString("type scenarioData struct {\n\tname, file string\n\tnew        func() any\n}\n\n")
	b.WriteString("var scenarios = []scenarioData{\n")
	for _, s := range scens {
		fmt.Fprintf(&b, "\t{%q, %q, func() any { return new(%s) }},\n", s.id, s.file, s.typ)
	}
	b.WriteString("}\n\n")
	// Names: computed here with serbench's own function, so they match.
	b.WriteString("// names[codec][scenario][op] is the sub-benchmark name serbench's benchfmt output gives the cell.\nvar names = map[string]map[string]map[string]string{\n")
	for _, id := range m.Codecs {
		fmt.Fprintf(&b, "\t%q: {\n", id)
		for _, s := range scens {
			fmt.Fprintf(&b, "\t\t%q: {\"marshal\": %q, \"unmarshal\": %q},\n", s.id, trimBase(m.BenchName(id, s.id, "marshal")), trimBase(m.BenchName(id, s.id, "unmarshal")))
		}
		b.WriteString("\t},\n")
	}
	b.WriteString("}\n\n")
	b.WriteString(benchBody)
	src, err := format.Source(b.Bytes())
	if err != nil {
		return skipped, fmt.Errorf("export: generated bench_test.go does not parse: %w", err)
	}
	typesSrc, err := format.Source(types.Bytes())
	if err != nil {
		return skipped, fmt.Errorf("export: generated types_test.go does not parse: %w", err)
	}
	var mod bytes.Buffer
	fmt.Fprintf(&mod, "module serbenchexport\n\ngo %s\n\nrequire (\n", m.Go)
	for _, p := range sortedKeys(m.Requires) {
		fmt.Fprintf(&mod, "\t%s %s\n", p, m.Requires[p])
	}
	if len(adapted) > 0 {
		fmt.Fprintf(&mod, "\t%s v0.0.0-00010101000000-000000000000\n", SerbenchModule)
	}
	mod.WriteString(")\n")
	if len(adapted) > 0 {
		fmt.Fprintf(&mod, "\n// The adapter codecs' serbench code: the checkout serbench export ran from.\nreplace %s => %s\n", SerbenchModule, m.Serbench)
	}
	files["go.mod"] = mod.Bytes()
	lh, err := format.Source([]byte(fmt.Sprintf(liveHeapSource, m.LiveHeap)))
	if err != nil {
		return skipped, fmt.Errorf("export: generated liveheap_test.go does not parse: %w", err)
	}
	files["liveheap_test.go"] = lh
	files["bench_test.go"] = src
	files["types_test.go"] = typesSrc
	files["README.md"] = []byte(readme)
	for _, name := range sortedKeys(files) {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return skipped, fmt.Errorf("export: %w", err)
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return skipped, fmt.Errorf("export: %w", err)
		}
	}
	return skipped, nil
}

// trimBase drops the base name ("Codec/") from a benchfmt cell name.
func trimBase(name string) string {
	_, rest, _ := strings.Cut(name, "/")
	return rest
}

func (w *typeWriter) clone() *typeWriter {
	c := newTypeWriter()
	for k, v := range w.defs {
		c.defs[k] = v
	}
	for k, v := range w.origin {
		c.origin[k] = v
	}
	for k := range w.imports {
		c.imports[k] = true
	}
	return c
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

const benchBody = `// BenchmarkCodec times marshal and unmarshal of every codec on every
// scenario. The scenario values are decoded from testdata with encoding/json
// into the copied types (serbench's own, for the adapter codecs of
// adapters_test.go), and each codec's encoding of each is made and
// decoded once, before any timing; then the live heap is raised to the GC condition
// (liveheap_test.go) for the whole run. Unmarshal decodes into a new value
// each time. No result is kept past its loop. Each loop takes the codec's
// functions and its input from locals, as serbench's own loop does, rather
// than from the cell on every iteration: on memmove's 5 ns copies that is a
// visible share (docs/agreement.md in the serbench repository, "Loop
// overhead"). Besides the testing package's
// figures, each reports the GC cycles per 1,000 operations (GC/1k-ops),
// read outside the timed loop.
func BenchmarkCodec(b *testing.B) {
	type input struct {
		s   scenarioData
		v   any
		enc [][]byte // per codec, in the order of codecs
	}
	var inputs []input
	for _, s := range scenarios {
		data, err := os.ReadFile(s.file)
		if err != nil {
			b.Fatal(err)
		}
		in := input{s: s, v: s.new()}
		if err := json.Unmarshal(data, in.v); err != nil {
			b.Fatalf("%s: %v", s.file, err)
		}
		for _, c := range codecs {
			enc, err := c.marshal(in.v)
			if err != nil {
				b.Fatalf("%s on %s: %v", c.name, s.name, err)
			}
			// One unmarshal before timing, as serbench's round trip: a
			// library that compiles its decoder on first use (sonic)
			// does so here, not in the timed loop.
			if err := c.unmarshal(enc, s.new()); err != nil {
				b.Fatalf("%s on %s: unmarshal: %v", c.name, s.name, err)
			}
			in.enc = append(in.enc, enc)
		}
		inputs = append(inputs, in)
	}
	acells, err := adapterCells()
	if err != nil {
		b.Fatal(err)
	}
	heap := holdLiveHeap(b)
	defer heap.release()
	for _, in := range inputs {
		for i, c := range codecs {
			v, enc := in.v, in.enc[i]
			b.Run(names[c.name][in.s.name]["marshal"], func(b *testing.B) {
				b.SetBytes(int64(len(enc)))
				b.ReportAllocs()
				marshal := c.marshal
				var out []byte
				var err error
				gc := gcCycles()
				for b.Loop() {
					if out, err = marshal(v); err != nil {
						b.Fatal(err)
					}
				}
				runtime.KeepAlive(out)
				reportGC(b, gc)
			})
			b.Run(names[c.name][in.s.name]["unmarshal"], func(b *testing.B) {
				b.SetBytes(int64(len(enc)))
				b.ReportAllocs()
				unmarshal, newValue := c.unmarshal, in.s.new
				gc := gcCycles()
				for b.Loop() {
					if err := unmarshal(enc, newValue()); err != nil {
						b.Fatal(err)
					}
				}
				reportGC(b, gc)
			})
		}
	}
	for _, c := range acells {
		b.Run(names[c.codec][c.scenario]["marshal"], func(b *testing.B) {
			b.SetBytes(int64(len(c.enc)))
			b.ReportAllocs()
			m, in := c.m, c.in
			var out []byte
			var err error
			gc := gcCycles()
			for b.Loop() {
				if out, err = m.Marshal(in); err != nil {
					b.Fatal(err)
				}
			}
			runtime.KeepAlive(out)
			reportGC(b, gc)
		})
		b.Run(names[c.codec][c.scenario]["unmarshal"], func(b *testing.B) {
			b.SetBytes(int64(len(c.enc)))
			b.ReportAllocs()
			u, enc := c.u, c.enc
			var v any
			var err error
			gc := gcCycles()
			for b.Loop() {
				if v, err = u.Unmarshal(enc); err != nil {
					b.Fatal(err)
				}
			}
			runtime.KeepAlive(v)
			reportGC(b, gc)
		})
	}
}

// binding is the method set of serbench's codec.Binding that the adapter
// codecs' loops call.
type binding interface {
	Marshal(v any) ([]byte, error)
	Unmarshal(data []byte) (any, error)
}

// An adapterCell is an adapter codec on one scenario (adapters_test.go):
// serbench's Binding of the codec for each loop, the value Marshal takes
// and the encoding Unmarshal decodes.
type adapterCell struct {
	codec, scenario string
	m, u            binding
	in              any
	enc             []byte
}
`

// liveHeapSource is liveheap_test.go, with the default live heap in bytes
// to fill in. It measures and raises the live heap as bench.HoldLiveHeap
// does, written out so that the module needs no serbench code.
const liveHeapSource = `// Code generated by serbench export. DO NOT EDIT.

package serbenchexport

import (
	"fmt"
	"os"
	"runtime"
	"runtime/metrics"
	"strconv"
	"strings"
	"testing"
)

// defaultLiveHeap is the live heap, in bytes, serbench export was asked for
// (-live-heap); the environment variable SERBENCH_LIVE_HEAP overrides it.
const defaultLiveHeap = %d

// liveHeap is the GC condition of the run: the live heap is raised to
// target bytes with a pointer-free ballast while the benchmarks run.
type liveHeap struct {
	target, own, live int64
	ballast           []byte
}

// holdLiveHeap measures the live heap after two collections (a sync.Pool
// keeps its objects through one) and allocates the ballast that brings it
// to the target, then prints the condition.
func holdLiveHeap(b *testing.B) *liveHeap {
	target, err := liveHeapTarget()
	if err != nil {
		b.Fatal(err)
	}
	h := &liveHeap{target: target, own: liveHeapBytes()}
	if h.own < target {
		h.ballast = make([]byte, target-h.own)
	}
	h.live = liveHeapBytes()
	// A comment line, which benchstat skips: the live heap, measured.
	fmt.Printf("// serbench export: live heap %%d bytes (own %%d, target %%d)\n", h.live, h.own, h.target)
	return h
}

func (h *liveHeap) release() {
	runtime.KeepAlive(h.ballast)
	h.ballast = nil
}

// liveHeapTarget reads SERBENCH_LIVE_HEAP: a whole number of bytes, or one
// followed by B, KiB, MiB, GiB, KB, MB or GB.
func liveHeapTarget() (int64, error) {
	s, ok := os.LookupEnv("SERBENCH_LIVE_HEAP")
	if !ok || s == "" {
		return defaultLiveHeap, nil
	}
	for _, u := range []struct {
		suffix string
		mult   int64
	}{{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"B", 1}, {"", 1}} {
		if num, ok := strings.CutSuffix(s, u.suffix); ok {
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil || n < 0 || n > (16<<30)/u.mult {
				break
			}
			return n * u.mult, nil
		}
	}
	return 0, fmt.Errorf("SERBENCH_LIVE_HEAP=%%q: want a size in [0, 16GiB] such as 64MiB, or 0", s)
}

// gcCycles returns the number of GC cycles completed so far.
func gcCycles() uint64 {
	s := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// reportGC reports the garbage collections per 1,000 operations since
// before (read outside the timed loop), as serbench's gc_per_1k_ops.
func reportGC(b *testing.B, before uint64) {
	if b.N > 0 {
		b.ReportMetric(float64(gcCycles()-before)*1000/float64(b.N), "GC/1k-ops")
	}
}

func liveHeapBytes() int64 {
	runtime.GC()
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
`

const readme = `# serbench export

Plain ` + "`go test`" + ` benchmarks of the codecs and scenarios serbench measured,
written by ` + "`serbench export`" + `: no serbench runner or statistics run here.
Library codecs (bench_test.go) are called as their libraries' own functions
on copies of the scenario types. Adapter codecs (adapters_test.go: codegen
codecs, whose generated types live in serbench, serbench's wire codec and
the memmove reference row), if any, are timed through serbench's adapter of
the codec, bound as serbench binds it, from the serbench checkout go.mod's
replace directive names.

    go mod tidy
    go test -run '^$' -bench . -count 10 | tee export.txt
    benchstat export.txt

The GC condition: the benchmarks raise the live heap of the test process to
the size ` + "`serbench export -live-heap`" + ` was given (0: no ballast) once
the scenarios are loaded; the environment variable SERBENCH_LIVE_HEAP (such
as 64MiB, or 0) overrides it. Run serbench with the same ` + "`-live-heap`" + `
to compare like with like.

The sub-benchmark names are those of ` + "`serbench run -format benchfmt`" + `, so
benchstat can compare the two files: ` + "`benchstat -col .file serbench.txt export.txt`" + `
(serbench's file has the name key ` + "`Codec`" + ` as here).
`
