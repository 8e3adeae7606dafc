package bench_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/google/pprof/profile"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/bench/profiler"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/fastjson"
	"github.com/serbench/serbench/codec/memmove"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/internal/codectest"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// fast keeps the tests quick: the figures themselves are not asserted.
var fast = bench.Options{Benchtime: time.Millisecond, Count: 2}

// lossy is a JSON codec that drops the WSMessage's Content on the way back.
func lossy() codec.Codec {
	return codec.Funcs{
		Meta:    codec.Info{ID: "lossy", Module: "std", Format: "JSON", Kind: codec.Reflect, Options: "drops Content"},
		Marshal: json.Marshal,
		Unmarshal: func(data []byte, v any) error {
			if err := json.Unmarshal(data, v); err != nil {
				return err
			}
			if m, ok := v.(*scenario.WSMessage); ok {
				m.Content = ""
			}
			return nil
		},
	}
}

// converting works on its own copy of WSMessage, as codegen codecs do.
type converting struct{}

type nativeMsg struct {
	U, C string
	T    int64
}

func (converting) Info() codec.Info {
	return codec.Info{ID: "converting", Module: "std", Format: "JSON", Kind: codec.Codegen, Options: "test"}
}
func (converting) Bind(sample any) (codec.Binding, error) {
	if _, ok := sample.(*scenario.WSMessage); !ok {
		return nil, codec.Unsupported("converting", "no schema for %T", sample)
	}
	return convBinding{}, nil
}

type convBinding struct{}

func (convBinding) Marshal(v any) ([]byte, error) { return json.Marshal(v.(*nativeMsg)) }
func (convBinding) Unmarshal(b []byte) (any, error) {
	var m nativeMsg
	return &m, json.Unmarshal(b, &m)
}
func (convBinding) ToNative(v any) (any, error) {
	m := v.(*scenario.WSMessage)
	return &nativeMsg{m.Uid, m.Content, m.Timestamp}, nil
}
func (convBinding) FromNative(v any) (any, error) {
	m := v.(*nativeMsg)
	return &scenario.WSMessage{Uid: m.U, Content: m.C, Timestamp: m.T}, nil
}

func find(t *testing.T, rs []results.Row, codecID, scen, op string) results.Row {
	t.Helper()
	for _, r := range rs {
		if r.Codec == codecID && r.Scenario == scen && r.Op == op {
			return r
		}
	}
	t.Fatalf("no result for %s %s %s", codecID, scen, op)
	return results.Row{}
}

// paired is the number of timed results of other codecs than the
// baseline on scenario and op: the cells sampled between its samples.
func paired(rs []results.Row, scenario, op string) int {
	n := 0
	for _, r := range rs {
		if r.Codec != results.DefaultBaseline && r.Scenario == scenario && r.Op == op && r.Timed() {
			n++
		}
	}
	return n
}

func seeds(t *testing.T, ids ...string) []scenario.Scenario {
	ss, err := scenario.Select(scenario.Seeds(), ids)
	if err != nil {
		t.Fatal(err)
	}
	return ss
}

// built returns the rows of the run NewRun builds of the measured rows
// rs and codecs, over the default baseline: the rows with their Derived
// figures.
func built(rs []results.Row, codecs ...codec.Codec) []results.Row {
	return results.NewRun(results.Inputs{Rows: rs, Codecs: codecs, Baseline: results.DefaultBaseline}).Results
}

func TestMatrix(t *testing.T) {
	rs, err := bench.Matrix(context.Background(),
		[]codec.Codec{stdjson.New(), lossy(), converting{}}, seeds(t, "ws-message", "annotation"), fast)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("faithful codec is timed and ok", func(t *testing.T) {
		for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
			r := find(t, rs, "encoding/json", "ws-message", op)
			// The baseline's own 2 samples and one more per round next to
			// each cell paired with it (paired.go).
			want := 2 * (1 + paired(rs, "ws-message", op))
			if !r.OK || r.NsPerOp <= 0 || len(r.Samples) != want || r.Iterations < 1 || r.SizeBytes == 0 || r.PairRatios != nil {
				t.Errorf("%s: want %d samples: %+v", op, want, r)
			}
			if r.Derived != (results.Derived{}) {
				t.Errorf("%s: the runner derived figures (%+v): they are results.NewRun's", op, r.Derived)
			}
		}
	})
	t.Run("lossy codec is a finding, still timed", func(t *testing.T) {
		r := find(t, rs, "lossy", "ws-message", results.OpUnmarshal)
		if r.OK || !strings.Contains(r.Error, ".Content") || r.NsPerOp <= 0 {
			t.Errorf("%+v", r)
		}
		if r := find(t, built(rs), "lossy", "ws-message", results.OpUnmarshal); r.Speedup <= 0 {
			t.Errorf("no speed-up against the baseline: %+v", r)
		}
	})
	t.Run("converting codec has a convert op", func(t *testing.T) {
		r := find(t, rs, "converting", "ws-message", results.OpConvert)
		if !r.OK || r.NsPerOp <= 0 || r.MBPerS != 0 {
			t.Errorf("%+v", r)
		}
	})
	t.Run("unsupported is n/a with the reason", func(t *testing.T) {
		r := find(t, rs, "converting", "annotation", results.OpMarshal)
		if !r.NA || r.OK || !strings.Contains(r.Error, "no schema for *scenario.Annotation") || r.Timed() {
			t.Errorf("%+v", r)
		}
	})
}

// A codec that reuses its output (codec.Info.ReusesOutput) overwrites its
// previous Marshal bytes and Unmarshal value on the next call: the runner
// must round-trip-check before that, so the cells are ok.
func TestReusedOutputCheckedBeforeNextCall(t *testing.T) {
	rs, err := bench.Matrix(context.Background(), []codec.Codec{codectest.Scribble()}, seeds(t, "ws-message"), fast)
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
		if r := find(t, rs, codectest.ScribbleID, "ws-message", op); !r.OK || !r.Timed() {
			t.Errorf("%s: %+v", op, r)
		}
	}
}

func TestMarshalAndUnmarshalFailures(t *testing.T) {
	failing := codec.Funcs{
		Meta:      codec.Info{ID: "enc-fails", Module: "std", Format: "JSON", Kind: codec.Reflect},
		Marshal:   func(any) ([]byte, error) { return nil, errors.New("boom") },
		Unmarshal: json.Unmarshal,
	}
	garbled := codec.Funcs{
		Meta:      codec.Info{ID: "dec-fails", Module: "std", Format: "JSON", Kind: codec.Reflect},
		Marshal:   func(any) ([]byte, error) { return []byte("{"), nil },
		Unmarshal: json.Unmarshal,
	}
	rs, err := bench.Matrix(context.Background(), []codec.Codec{failing, garbled}, seeds(t, "ws-message"), fast)
	if err != nil {
		t.Fatal(err)
	}
	if r := find(t, rs, "enc-fails", "ws-message", results.OpMarshal); !r.NA || !strings.Contains(r.Error, "boom") {
		t.Errorf("marshal failure: %+v", r)
	}
	if r := find(t, rs, "dec-fails", "ws-message", results.OpUnmarshal); r.OK || r.Timed() || !strings.Contains(r.Error, "unmarshal") {
		t.Errorf("unmarshal failure: %+v", r)
	}
	if r := find(t, rs, "dec-fails", "ws-message", results.OpMarshal); !r.Timed() {
		t.Errorf("marshal should still be timed when unmarshal fails: %+v", r)
	}
}

func TestParallelAndProfiles(t *testing.T) {
	cpu, mem := t.TempDir(), t.TempDir()
	opts := fast
	opts.Parallel, opts.Profiler = true, profiler.Dirs{CPU: cpu, Mem: mem}
	opts.ProfileTime = 20 * time.Millisecond
	var calls int
	var last bench.Progress
	opts.Progress = func(p bench.Progress) {
		if calls > 0 && (p.Done < last.Done || p.Done > last.Done+1 || p.Cells != last.Cells || p.CellsDone < last.CellsDone) {
			t.Errorf("progress went from %+v to %+v", last, p)
		}
		calls++
		last = p
	}
	rs, err := bench.Matrix(context.Background(), []codec.Codec{stdjson.New()}, seeds(t, "ws-message"), opts)
	if err != nil {
		t.Fatal(err)
	}
	r := find(t, rs, "encoding/json", "ws-message", results.OpMarshal)
	if len(r.Parallel) < 1 || r.Parallel[0].Goroutines != 1 || r.Parallel[0].Scaling != 1 || r.Parallel[0].OpsPerS <= 0 ||
		(runtime.GOOS == "linux" && r.Parallel[0].CPUNsPerOp <= 0) {
		t.Errorf("parallel: %+v", r.Parallel)
	}
	for _, dir := range []string{cpu, mem} {
		name := filepath.Join(dir, bench.ProfileName("encoding/json", "ws-message", "unmarshal"))
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := profile.Parse(f); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		f.Close()
	}
	if want := (bench.Progress{Phase: bench.PhaseProfile, Cells: 2, CellsDone: 2, Done: calls - 1}); last != want {
		t.Errorf("progress: last %+v after %d calls, want %+v", last, calls, want)
	}
}

func TestOptions(t *testing.T) {
	o, err := bench.Options{}.Effective()
	if err != nil || o.Count != bench.DefaultCount || o.Benchtime != bench.DefaultBenchtime || o.Baseline != results.DefaultBaseline || o.ProfileTime != bench.DefaultProfileTime {
		t.Errorf("defaults: %+v %v", o, err)
	}
	for _, bad := range []bench.Options{{Count: -1}, {Count: bench.MaxCount + 1}, {Benchtime: -time.Second}, {ProfileTime: -time.Second}} {
		if _, err := bad.Effective(); err == nil || !strings.Contains(err.Error(), "range") {
			t.Errorf("%+v: err = %v", bad, err)
		}
	}
}

func TestCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := bench.Matrix(ctx, []codec.Codec{stdjson.New()}, seeds(t, "ws-message"), fast); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v", err)
	}
}

func TestProfileName(t *testing.T) {
	if got := bench.ProfileName("sonic/fastest", "corpus/citm_catalog", "marshal"); got != "sonic.fastest_corpus.citm_catalog_marshal.pprof" {
		t.Error(got)
	}
}

// With a reference row in the matrix, every timed cell gets its time as a
// multiple of the reference's on the same scenario and op; without one,
// none does.
func TestFloorRatio(t *testing.T) {
	codecs := []codec.Codec{stdjson.New(), memmove.New()}
	rs, err := bench.Matrix(context.Background(), codecs, seeds(t, "ws-message"), fast)
	if err != nil {
		t.Fatal(err)
	}
	rs = built(rs, codecs...)
	for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
		ref, js := find(t, rs, "memmove", "ws-message", op), find(t, rs, "encoding/json", "ws-message", op)
		if ref.FloorRatio != 1 {
			t.Errorf("memmove %s: floor ratio %v, want 1", op, ref.FloorRatio)
		}
		if want := js.NsPerOp / ref.NsPerOp; js.FloorRatio != want {
			t.Errorf("encoding/json %s: floor ratio %v, want %v", op, js.FloorRatio, want)
		}
	}
	rs, err = bench.Matrix(context.Background(), []codec.Codec{stdjson.New()}, seeds(t, "ws-message"), fast)
	if err != nil {
		t.Fatal(err)
	}
	if r := find(t, built(rs, stdjson.New()), "encoding/json", "ws-message", results.OpMarshal); r.FloorRatio != 0 {
		t.Errorf("no reference row: floor ratio %v, want 0", r.FloorRatio)
	}
}

// A cell that allocates nothing reports 0 B/op and 0 allocs/op even with a
// single iteration per sample, where any allocation of the runner's own
// inside the measured window would show in full.
func TestRunnerAllocationsNotCounted(t *testing.T) {
	rs, err := bench.Matrix(context.Background(), []codec.Codec{memmove.New()}, seeds(t, "ws-message"),
		bench.Options{Benchtime: time.Nanosecond, Count: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
		r := find(t, rs, "memmove", "ws-message", op)
		if r.Iterations != 1 || r.BytesPerOp != 0 || r.AllocsPerOp != 0 {
			t.Errorf("%s: %d iterations, %d B/op, %d allocs/op; want 1, 0, 0", op, r.Iterations, r.BytesPerOp, r.AllocsPerOp)
		}
	}
}

// A parse-only codec has one row, op parse, with no speed-up (the
// baseline has no parse row); a tree that differs from encoding/json's
// reading of the input is a finding, still timed; a Binding without
// codec.DOM is a failure, not timed.
func TestParseOnly(t *testing.T) {
	rs, err := bench.Matrix(context.Background(),
		[]codec.Codec{stdjson.New(), fastjson.New(), codectest.LossyDOM(false)}, seeds(t, "user-event"), fast)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range rs {
		if (r.Codec == "fastjson" || r.Codec == codectest.DOMID) && r.Op != results.OpParse {
			t.Errorf("parse-only codec with op %s: %+v", r.Op, r)
		}
	}
	if r := find(t, built(rs), "fastjson", "user-event", results.OpParse); !r.OK || !r.Timed() || r.Speedup != 0 || r.MBPerS <= 0 || r.SizeBytes == 0 {
		t.Errorf("fastjson parse: %+v", r)
	}
	if r := find(t, rs, codectest.DOMID, "user-event", results.OpParse); r.OK || !r.Timed() || !strings.Contains(r.Error, "fidelity") {
		t.Errorf("lossy tree: %+v", r)
	}
	ops := bench.Prepare(codectest.LossyDOM(true), scenario.Seeds()[0].Value(), nil, nil)
	if len(ops) != 1 || ops[0].Name != results.OpParse || ops[0].Run != nil || ops[0].Err == nil || !strings.Contains(ops[0].Err.Error(), "codec.DOM") {
		t.Errorf("no DOM: %+v", ops)
	}
}

// Prepare records the alias probe on the unmarshal op only.
func TestPrepareAliases(t *testing.T) {
	for _, tc := range []struct {
		c    codec.Codec
		want bool
	}{{codectest.Alias(true), true}, {codectest.Alias(false), false}} {
		for _, op := range bench.Prepare(tc.c, scenario.NewWSMessage(), nil, nil) {
			switch {
			case op.Err != nil:
				t.Errorf("%s %s: %v", tc.c.Info().ID, op.Name, op.Err)
			case op.Name == results.OpUnmarshal && (op.AliasesInput == nil || *op.AliasesInput != tc.want):
				t.Errorf("%s: unmarshal AliasesInput %v, want %v", tc.c.Info().ID, op.AliasesInput, tc.want)
			case op.Name != results.OpUnmarshal && op.AliasesInput != nil:
				t.Errorf("%s %s: AliasesInput set on a non-unmarshal op", tc.c.Info().ID, op.Name)
			}
		}
	}
}
