package toolchain_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/bench"
	"github.com/serbench/serbench/codec"
	"github.com/serbench/serbench/codec/stdjson"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/internal/childproc"
	"github.com/serbench/serbench/scenario"
	"github.com/serbench/serbench/toolchain"
)

// TestMain makes the test binary its own worker: the fake builder below
// "builds" every toolchain by linking to it.
func TestMain(m *testing.M) {
	os.Exit(childproc.RunTests(m, map[string]childproc.Role{toolchain.ChildRole: worker}))
}

// worker measures encoding/json on ws-message; a Config naming the codec
// "refuse" makes it fail to prepare.
func worker(string) error {
	return toolchain.Serve(context.Background(), os.Stdin, os.Stdout, func(ctx context.Context, cfg toolchain.Config) (toolchain.Prepared, error) {
		if slices.Equal(cfg.Codecs, []string{"refuse"}) {
			return toolchain.Prepared{}, errors.New("no codec refuse in this build")
		}
		ss, err := scenario.Select(scenario.Seeds(), []string{"ws-message"})
		if err != nil {
			return toolchain.Prepared{}, err
		}
		s, err := bench.NewSession(ctx, []codec.Codec{stdjson.New()}, ss, bench.Options{Benchtime: cfg.Benchtime, Baseline: cfg.Baseline})
		if err != nil {
			return toolchain.Prepared{}, err
		}
		return toolchain.Prepared{Session: s, Env: env.Collect(time.Now(), nil), Absent: map[string]string{"encoding/json/v2": "not here"}}, nil
	})
}

// fakeBuilder links this test binary as every build, except for a
// toolchain named go1.99.0, which "does not exist".
var fakeBuilder = toolchain.BuilderFunc(func(ctx context.Context, s toolchain.Spec, out string) error {
	if s.Go == "go1.99.0" {
		return fmt.Errorf("toolchain %s: build failed: go: download go1.99.0: toolchain not available", s)
	}
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	return os.Symlink(exe, out)
})

// checkParsed checks what parse (named fn) makes of in: an error containing
// wantErr when that is not "", else items whose names (name) joined by
// spaces are want.
func checkParsed[T any](t *testing.T, fn, in, want, wantErr string, parse func(string) ([]T, error), name func(T) string) {
	t.Helper()
	items, err := parse(in)
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("%s(%q) = %v, %v; want error containing %q", fn, in, items, err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, it := range items {
		names = append(names, name(it))
	}
	if got := strings.Join(names, " "); got != want {
		t.Errorf("%s(%q) = %s, want %s", fn, in, got, want)
	}
}

func TestParse(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "go1.26.11,go1.27.4", want: "go1.26.11 go1.27.4"},
		{in: " go1.27.4+nojsonv2 , local,go1.27rc1", want: "go1.27.4+nojsonv2 local go1.27rc1"},
		{in: "go1.27.4+nojsonv2+foo", want: "go1.27.4+nojsonv2+foo"},
		{in: "1.27.4", err: `"1.27.4": not a Go toolchain name`},
		{in: "go1.27.4+NoJSON", err: `"NoJSON" is not a GOEXPERIMENT name`},
		{in: "go1.27.4,go1.27.4", err: "named twice"},
		{in: ",", err: "no toolchain"},
		{in: "go1.1,go1.2,go1.3,go1.4,go1.5,go1.6,go1.7,go1.8,go1.9", err: "9 builds"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			checkParsed(t, "Parse", tc.in, tc.want, tc.err, toolchain.Parse, toolchain.Spec.String)
		})
	}
	specs, _ := toolchain.Parse("go1.27.4+nojsonv2+foo")
	if specs[0].Experiment != "nojsonv2,foo" {
		t.Errorf("Experiment = %q, want GOEXPERIMENT's comma-separated form", specs[0].Experiment)
	}
}

func TestMeasure(t *testing.T) {
	specs, err := toolchain.Parse("go1.26.11,go1.99.0,go1.27.4+nojsonv2")
	if err != nil {
		t.Fatal(err)
	}
	var rounds []int
	runs, err := toolchain.Measure(context.Background(), toolchain.Options{Specs: specs, Builder: fakeBuilder, Rounds: 3,
		Config:   toolchain.Config{Benchtime: time.Millisecond, Baseline: stdjson.ID},
		Progress: func(done, total int) { rounds = append(rounds, done, total) }})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != 3 {
		t.Fatalf("%d runs, want 3", len(runs))
	}
	if e := runs[1].Err; e == nil || !strings.Contains(e.Error(), "go1.99.0") || strings.Contains(e.Error(), "\n") {
		t.Errorf("failed build: %v, want one line naming go1.99.0", e)
	}
	for _, i := range []int{0, 2} {
		r := runs[i]
		if r.Err != nil || r.Env.Go == "" || r.Absent["encoding/json/v2"] != "not here" || len(r.Results) != 2 {
			t.Fatalf("run %s: err %v, env %+v, absent %v, %d results", r.Spec, r.Err, r.Env, r.Absent, len(r.Results))
		}
		for _, res := range r.Results {
			if !res.OK || len(res.Samples) != 3 || res.Speedup != 1 {
				t.Errorf("run %s, %s %s: ok %v, %d samples, speed-up %v", r.Spec, res.Scenario, res.Op, res.OK, len(res.Samples), res.Speedup)
			}
		}
	}
	if len(rounds) != 2*6 || rounds[len(rounds)-2] != 6 || rounds[len(rounds)-1] != 6 {
		t.Errorf("progress %v, want 6 rounds of 6 (3 rounds × 2 builds that ran)", rounds)
	}
}

func TestMeasureNothingRan(t *testing.T) {
	specs, err := toolchain.Parse("go1.99.0,go1.27.4")
	if err != nil {
		t.Fatal(err)
	}
	runs, err := toolchain.Measure(context.Background(), toolchain.Options{Specs: specs, Builder: fakeBuilder, Rounds: 2,
		Config: toolchain.Config{Codecs: []string{"refuse"}, Benchtime: time.Millisecond, Baseline: stdjson.ID}})
	if !errors.Is(err, toolchain.ErrNothingRan) {
		t.Fatalf("err = %v, want ErrNothingRan", err)
	}
	if len(runs) != 2 || runs[1].Err == nil || !strings.Contains(runs[1].Err.Error(), "toolchain go1.27.4: no codec refuse in this build") {
		t.Errorf("runs = %+v", runs)
	}
}

func TestParseModule(t *testing.T) {
	for _, tc := range []struct {
		in, want, err string
	}{
		{in: "github.com/bytedance/sonic@v1.15.4,v1.15.5", want: "sonic@v1.15.4 sonic@v1.15.5"},
		{in: " github.com/go-json-experiment/json/v2@v2.0.1 , v2.1.0-rc.1", want: "json/v2@v2.0.1 json/v2@v2.1.0-rc.1"},
		{in: "gopkg.in/yaml.v3@v3.0.1", want: "yaml.v3@v3.0.1"},
		{in: "github.com/x/y@v2.0.0+incompatible,v0.0.0-20240101000000-abcdefabcdef", want: "y@v2.0.0+incompatible y@v0.0.0-20240101000000-abcdefabcdef"},
		{in: "github.com/bytedance/sonic", err: "want MODULE@VERSION"},
		{in: "@v1.0.0", err: "want MODULE@VERSION"},
		{in: "Not A Path@v1.0.0", err: "is not a module path"},
		{in: "github.com/bytedance/sonic@latest", err: `"latest" is not a version`},
		{in: "github.com/bytedance/sonic@v1.15", err: `"v1.15" is not a version`},
		{in: "github.com/bytedance/sonic@v1.15.4,v1.15.4", err: "named twice"},
		{in: "github.com/bytedance/sonic@,", err: "no version"},
		{in: "a.com/b@v1.0.1,v1.0.2,v1.0.3,v1.0.4,v1.0.5,v1.0.6,v1.0.7,v1.0.8,v1.0.9", err: "9 versions"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			checkParsed(t, "ParseModule", tc.in, tc.want, tc.err, toolchain.ParseModule, toolchain.Module.Short)
		})
	}
}

func TestCross(t *testing.T) {
	mods, err := toolchain.ParseModule("github.com/bytedance/sonic@v1.15.4,v1.15.5")
	if err != nil {
		t.Fatal(err)
	}
	builds, err := toolchain.Parse("go1.26.11,go1.27.4+nojsonv2")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		builds []toolchain.Spec
		mods   []toolchain.Module
		want   string
	}{
		{builds, mods, "go1.26.11 sonic@v1.15.4|go1.26.11 sonic@v1.15.5|go1.27.4+nojsonv2 sonic@v1.15.4|go1.27.4+nojsonv2 sonic@v1.15.5"},
		{nil, mods, "sonic@v1.15.4|sonic@v1.15.5"},
		{builds, nil, "go1.26.11|go1.27.4+nojsonv2"},
	} {
		specs, err := toolchain.Cross(tc.builds, tc.mods)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range specs {
			names = append(names, s.String())
		}
		if got := strings.Join(names, "|"); got != tc.want {
			t.Errorf("Cross = %s, want %s", got, tc.want)
		}
	}
	specs, _ := toolchain.Cross(nil, mods)
	if specs[1].Go != "" || specs[1].Module.String() != "github.com/bytedance/sonic@v1.15.5" {
		t.Errorf("-mod alone: %+v, want no toolchain and the full module version", specs[1])
	}
	five, _ := toolchain.ParseModule("a.com/b@v1.0.1,v1.0.2,v1.0.3,v1.0.4,v1.0.5")
	if _, err := toolchain.Cross(builds, five); err == nil || !strings.Contains(err.Error(), "2 toolchains × 5 versions = 10 builds") {
		t.Errorf("Cross of 10 builds: %v, want an error counting them", err)
	}
}

// TestMeasureModules measures two module versions as two builds with the
// fake builder; a version that does not exist fails alone.
func TestMeasureModules(t *testing.T) {
	mods, err := toolchain.ParseModule("example.com/lib@v1.0.0,v9.9.9,v1.1.0")
	if err != nil {
		t.Fatal(err)
	}
	specs, err := toolchain.Cross(nil, mods)
	if err != nil {
		t.Fatal(err)
	}
	builder := toolchain.BuilderFunc(func(ctx context.Context, s toolchain.Spec, out string) error {
		if s.Module.Version == "v9.9.9" {
			return fmt.Errorf("toolchain %s: go get %s failed: unknown revision v9.9.9", s, s.Module)
		}
		return fakeBuilder(ctx, s, out)
	})
	runs, err := toolchain.Measure(context.Background(), toolchain.Options{Specs: specs, Builder: builder, Rounds: 2,
		Config: toolchain.Config{Benchtime: time.Millisecond, Baseline: stdjson.ID}})
	if err != nil {
		t.Fatal(err)
	}
	if e := runs[1].Err; e == nil || !strings.Contains(e.Error(), "toolchain lib@v9.9.9: go get example.com/lib@v9.9.9 failed") {
		t.Errorf("missing version: %v", e)
	}
	for _, i := range []int{0, 2} {
		if runs[i].Err != nil || len(runs[i].Results) != 2 {
			t.Errorf("run %s: err %v, %d results", runs[i].Spec, runs[i].Err, len(runs[i].Results))
		}
	}
}
