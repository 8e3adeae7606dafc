package rundoc

import (
	"context"
	"errors"
	"runtime/debug"
	"slices"
	"testing"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/compressor/algorithms"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/scenario"
)

// A codec's Info.Warning becomes a run warning, once per text.
func TestCodecWarnings(t *testing.T) {
	c := func(id, warning string) codec.Codec {
		return codec.Funcs{Meta: codec.Info{ID: id, Warning: warning}}
	}
	got := CodecWarnings([]codec.Codec{c("a", ""), c("s", "too old"), c("s/v", "too old"), c("t", "other")})
	if want := []string{"s: too old", "t: other"}; !slices.Equal(got, want) {
		t.Errorf("CodecWarnings = %q, want %q", got, want)
	}
}

// New returns the complete document: the settings, GC target and
// compressor a run gives end up in it, and Analyze has run.
func TestNew(t *testing.T) {
	json := stdjson.New()
	reg, err := codec.NewRegistry(json)
	if err != nil {
		t.Fatal(err)
	}
	ss, err := scenario.Select(scenario.Seeds(), []string{"ws-message"})
	if err != nil {
		t.Fatal(err)
	}
	algs, err := algorithms.Select([]string{"gzip"})
	if err != nil {
		t.Fatal(err)
	}
	opts, err := bench.Options{Benchtime: time.Millisecond, Count: 1, Baseline: "encoding/json", Compressors: algs}.Effective()
	if err != nil {
		t.Fatal(err)
	}
	off := -1
	doc, err := New(context.Background(), Options{Bench: opts, Codecs: []codec.Codec{json}, Scenarios: ss, Registry: reg,
		Warnings: []string{"first"}, Settings: []string{"count=1"}, GOGC: &off, Serbench: "v9"})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(doc.Env.Settings, []string{"count=1"}) || doc.Env.GOGC != "off" || doc.Env.Serbench != "v9" {
		t.Errorf("env settings %q, GOGC %q, serbench %q", doc.Env.Settings, doc.Env.GOGC, doc.Env.Serbench)
	}
	if len(doc.Compressors) != 1 || doc.Compressors[0].ID != "gzip" {
		t.Errorf("compressors %+v, want gzip", doc.Compressors)
	}
	if len(doc.Warnings) == 0 || doc.Warnings[0] != "first" {
		t.Errorf("warnings %q, want the selection's first", doc.Warnings)
	}
	if len(doc.Results) == 0 || len(doc.Codecs) != 1 || len(doc.Scenarios) != 1 || doc.Env.Noise == nil {
		t.Errorf("results %d, codecs %d, scenarios %d, noise %v", len(doc.Results), len(doc.Codecs), len(doc.Scenarios), doc.Env.Noise)
	}
}

// Apply refuses values out of range and changes nothing.
func TestControlsRange(t *testing.T) {
	low := -2
	for _, c := range []Controls{{GOMAXPROCS: -1}, {GOGC: &low}, {Pin: []int{0, -1}}} {
		if _, err := c.Apply(); err == nil {
			t.Errorf("Apply(%+v): no error", c)
		}
	}
}

// Apply changes the GC percentage and restore puts it back.
func TestControlsRestore(t *testing.T) {
	pct := 321
	restore, err := Controls{GOGC: &pct}.Apply()
	if err != nil {
		t.Fatal(err)
	}
	if old := debug.SetGCPercent(321); old != 321 {
		t.Errorf("GC percent %d after Apply, want 321", old)
	}
	restore()
	before := debug.SetGCPercent(100)
	debug.SetGCPercent(before)
	if before == 321 {
		t.Error("restore left the GC percent at 321")
	}
}

// Selection.Sizes adds sweep points after the named scenarios, or in
// place of every scenario when none is named.
func TestSelectionSizes(t *testing.T) {
	reg, err := codec.NewRegistry(stdjson.New())
	if err != nil {
		t.Fatal(err)
	}
	ids := func(sel Selection) []string {
		t.Helper()
		sel.Registry, sel.Codecs = reg, []string{"encoding/json"}
		_, ss, _, err := sel.Matrix()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range ss {
			out = append(out, s.ID)
		}
		return out
	}
	if got, want := ids(Selection{Sizes: []int64{1 << 10}}), []string{"sweep/user-event@1KiB"}; !slices.Equal(got, want) {
		t.Errorf("sizes alone: %v, want %v", got, want)
	}
	if got, want := ids(Selection{Scenarios: []string{"ws-message"}, Sizes: []int64{1 << 10, 4 << 10}}), []string{"ws-message", "sweep/user-event@1KiB", "sweep/user-event@4KiB"}; !slices.Equal(got, want) {
		t.Errorf("with -scenarios: %v, want %v", got, want)
	}
	var se *ScenarioError
	if _, _, _, err := (Selection{Registry: reg, Sizes: []int64{1}}).Matrix(); !errors.As(err, &se) {
		t.Errorf("size out of range: err = %v, want a *ScenarioError", err)
	}
}

// Options a library caller can get wrong are errors, not panics.
func TestBadOptions(t *testing.T) {
	ctx := context.Background()
	if _, err := New(ctx, Options{}); err == nil {
		t.Error("New without a Registry: no error")
	}
	if _, _, _, err := (Selection{}).Matrix(); err == nil {
		t.Error("Matrix without a Registry: no error")
	}
	for _, o := range []ProcessOptions{{N: 0, Role: "r", Args: func(string) []string { return nil }}, {N: results.MaxProcesses + 1, Role: "r", Args: func(string) []string { return nil }}, {N: 2}} {
		if _, err := Processes(ctx, o); err == nil {
			t.Errorf("Processes(N %d, role %q): no error", o.N, o.Role)
		}
	}
}
