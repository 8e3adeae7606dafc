package main

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/serbench/serbench/compare"
	"github.com/serbench/serbench/env"
	"github.com/serbench/serbench/results"
	"github.com/serbench/serbench/stats"
)

// gateRun is a synthetic run of 10 codecs × 3 scenarios × 2 ops: each
// cell's 10 samples are its base time (slowed by the factor slow) times
// log-normal noise of 3%, drawn from a generator seeded with seed.
func gateRun(seed uint64, slow float64) *results.Run {
	rng := rand.New(rand.NewPCG(seed, 25))
	doc := &results.Run{Env: env.Env{Go: "go1.26.8", GOOS: "linux", GOARCH: "amd64",
		Started: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC)}, Count: 10}
	for c := range 10 {
		for _, sc := range []string{"sse-event", "order", "telemetry"} {
			for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
				base := 300 * float64(c+1) * slow
				samples := make([]float64, 10)
				for i := range samples {
					samples[i] = base * math.Exp(0.03*rng.NormFloat64())
				}
				med, lo, hi := stats.Summarize(samples)
				doc.Results = append(doc.Results, results.Row{Codec: "codec" + string(rune('a'+c)), Scenario: sc, Op: op,
					NsPerOp: med, NsPerOpLo: lo, NsPerOpHi: hi, BytesPerOp: 64, AllocsPerOp: 1, SizeBytes: 100,
					OK: true, Samples: samples, Iterations: 1000})
			}
		}
	}
	return doc
}

// TestCompareGate checks -max-regression on raw ns/op (-by ns; gateRun has
// no baseline, so no speed-ups either): a run slowed by 20% fails with one
// inconclusive line per cell (exit status 3: one process a side cannot
// tell a slower build from a slower process, compare.OneProcess), never a
// pass; a re-run of the same code (new noise) has no regression.
func TestCompareGate(t *testing.T) {
	dir := t.TempDir()
	files := map[string]*results.Run{"old.json": gateRun(1, 1), "slow.json": gateRun(2, 1.2), "rerun.json": gateRun(3, 1)}
	for name, doc := range files {
		if err := writeFile(filepath.Join(dir, name), "json", doc); err != nil {
			t.Fatal(err)
		}
	}
	gate := func(newFile string) (string, error) {
		var stdout, stderr bytes.Buffer
		err := run(context.Background(), &stdout, &stderr, []string{"compare", "-by", "ns", "-max-regression", "5%",
			filepath.Join(dir, "old.json"), filepath.Join(dir, newFile)})
		return stderr.String(), err
	}
	stderr, err := gate("slow.json")
	if err == nil || exitCode(err) != 3 {
		t.Fatalf("20%% slower: err %v, want exit status 3", err)
	}
	lines := prefixed(stderr, "inconclusive: ")
	if len(lines) != 60 {
		t.Errorf("20%% slower: %d lines, want 60 (one per cell):\n%s", len(lines), stderr)
	}
	for _, l := range lines {
		if !strings.Contains(l, "ns/op +") || !strings.Contains(l, "with one process a side") {
			t.Errorf("line %q", l)
		}
	}
	// A re-run of the same code: no regression; a cell whose interval
	// reaches past 5% is inconclusive (exit status 3), never regressed.
	if stderr, err := gate("rerun.json"); !passedOrUnsure(err) || len(prefixed(stderr, "regression: ")) > 0 {
		t.Errorf("re-run: err %v, stderr %q; want no regression", err, stderr)
	}
	// Without the correction some of the 60 unchanged cells could pass
	// p <= 0.05; check that the gate's flags come from the corrected q.
	c, err := compare.Compare(files["old.json"], files["rerun.json"], compare.CompareOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range c.Rows {
		if r.Significant != (r.Q <= c.Alpha) || r.Q < r.P {
			t.Errorf("%v: p %v q %v significant %v", r.Cell, r.P, r.Q, r.Significant)
		}
	}
}

func TestCompareBadInput(t *testing.T) {
	dir := t.TempDir()
	a, b := gateRun(1, 1), gateRun(2, 1)
	for i := range b.Results {
		b.Results[i].Codec = "other"
	}
	for name, doc := range map[string]*results.Run{"a.json": a, "b.json": b} {
		if err := writeFile(filepath.Join(dir, name), "json", doc); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		want string
		code int
	}{
		{[]string{"compare", filepath.Join(dir, "a.json"), filepath.Join(dir, "b.json")}, "share no cell", 1},
		{[]string{"compare", "-max-regression", "five", filepath.Join(dir, "a.json"), filepath.Join(dir, "a.json")}, "invalid threshold", 2},
		{[]string{"compare", "-max-regression", "-5%", filepath.Join(dir, "a.json"), filepath.Join(dir, "a.json")}, "invalid threshold", 2},
	} {
		err := run(context.Background(), &bytes.Buffer{}, &bytes.Buffer{}, tc.args)
		if err == nil || !strings.Contains(err.Error(), tc.want) || exitCode(err) != tc.code {
			t.Errorf("%v: err %v (exit %d), want %q exit %d", tc.args, err, exitCode(err), tc.want, tc.code)
		}
	}
}

// driftRun is a synthetic run of encoding/json and three codecs on two
// ops, 10 samples each, sampled in pairs with encoding/json: in pair i
// both cells share the machine's speed of that moment (1% log-normal
// drift within the run) times machine, and each has its own 2% noise.
// slower maps a codec to a factor on its time alone (1.1: its speed-up
// falls by 1/1.1). The calibration loop's iteration time scales with
// machine too. seed seeds the noise.
func driftRun(seed uint64, machine float64, slower map[string]float64) *results.Run {
	rng := rand.New(rand.NewPCG(seed, 27))
	noise := func(sd float64) float64 { return math.Exp(sd * rng.NormFloat64()) }
	doc := &results.Run{Env: env.Env{Go: "go1.27.4", JSONEngine: env.JSONEngineV2, GOOS: "linux", GOARCH: "amd64",
		CPU: "Test CPU", NumCPU: 2, Started: time.Date(2026, 11, 24, 8, 0, 0, 0, time.UTC),
		Noise: &env.Noise{Probes: 33, ProbeNs: 3e6 * machine, Iterations: 1 << 22, Spread: 0.03}},
		Baseline: "encoding/json", Count: 10}
	for _, op := range []string{results.OpMarshal, results.OpUnmarshal} {
		base := make([]float64, 10)
		cells := map[string][]float64{}
		codecs := []string{"codeca", "codecb", "codecc"}
		for i := range base {
			m := machine * noise(0.01)
			base[i] = 1000 * m * noise(0.02)
			for j, c := range codecs {
				f := slower[c]
				if f == 0 {
					f = 1
				}
				cells[c] = append(cells[c], 100*float64(j+1)*f*m*noise(0.02))
			}
		}
		add := func(codec string, samples, ratios []float64) {
			med, lo, hi := stats.Summarize(samples)
			r := results.Row{Codec: codec, Scenario: "order", Op: op, NsPerOp: med, NsPerOpLo: lo, NsPerOpHi: hi,
				BytesPerOp: 64, AllocsPerOp: 1, SizeBytes: 100, OK: true, Samples: samples, Iterations: 1000, Derived: results.Derived{Speedup: 1}}
			if ratios != nil {
				r.PairRatios = ratios
				r.Speedup, r.SpeedupLo, r.SpeedupHi = stats.Summarize(ratios)
			}
			doc.Results = append(doc.Results, r)
		}
		add("encoding/json", base, nil)
		for _, c := range codecs {
			ratios := make([]float64, len(base))
			for i := range base {
				ratios[i] = base[i] / cells[c][i]
			}
			add(c, cells[c], ratios)
		}
	}
	return doc
}

// withoutPairs is doc as a run from before paired sampling: no
// pair_ratios, and no calibration loop iteration count.
func withoutPairs(doc *results.Run) *results.Run {
	for i := range doc.Results {
		doc.Results[i].PairRatios = nil
	}
	doc.Env.Noise.Iterations = 0
	return doc
}

// TestCompareDrift checks that the default comparison is drift-proof: the
// same code on a machine 20% slower passes the gate by speed-up and fails
// it by raw ns/op (-by ns), while a codec whose speed-up fell by 10% fails
// it either way; runs without per-pair speed-ups fall back to same-round
// sample ratios and say so.
func TestCompareDrift(t *testing.T) {
	dir := t.TempDir()
	files := map[string]*results.Run{
		"old.json":             driftRun(1, 1, nil),
		"drift.json":           driftRun(2, 1.2, nil),
		"slower.json":          driftRun(3, 1.2, map[string]float64{"codecb": 1 / 0.9}),
		"old-unpaired.json":    withoutPairs(driftRun(1, 1, nil)),
		"slower-unpaired.json": withoutPairs(driftRun(3, 1.2, map[string]float64{"codecb": 1 / 0.9})),
	}
	for name, doc := range files {
		if err := writeFile(filepath.Join(dir, name), "json", doc); err != nil {
			t.Fatal(err)
		}
	}
	compare := func(args ...string) (stdout, stderr string, err error) {
		var o, e bytes.Buffer
		for i, a := range args {
			if strings.HasSuffix(a, ".json") {
				args[i] = filepath.Join(dir, a)
			}
		}
		err = run(context.Background(), &o, &e, append([]string{"compare"}, args...))
		return o.String(), e.String(), err
	}
	t.Run("drift by speed-up", func(t *testing.T) {
		out, stderr, err := compare("-max-regression", "5%", "old.json", "drift.json")
		if !passedOrUnsure(err) || len(prefixed(stderr, "regression: ")) > 0 {
			t.Errorf("err %v, stderr %q; want no regression", err, stderr)
		}
		want := "compared by speed-up over encoding/json within each run (drift-proof); encoding/json's own cells by ns/op normalised by the calibration loop\n"
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
		// The raw change is still shown: about +20% on every cell and
		// geomean row.
		if n := len(regexp.MustCompile(`\s\+(1[5-9]|2[0-5])\.\d%\s`).FindAllString(out, -1)); n != 10 {
			t.Errorf("raw ns/op change not shown on every cell:\n%s", out)
		}
	})
	t.Run("drift by ns", func(t *testing.T) {
		_, stderr, err := compare("-by", "ns", "-max-regression", "5%", "old.json", "drift.json")
		if exitCode(err) != 3 || strings.Count(stderr, "inconclusive: ") != 8 || strings.Count(stderr, ": ns/op +") != 8 || strings.Contains(stderr, "regression: ") {
			t.Errorf("err %v, stderr:\n%s\nwant exit 3 and 8 ns/op changes inconclusive (one process a side)", err, stderr)
		}
	})
	for _, tc := range []struct{ name, old, new, basis string }{
		{"paired", "old.json", "slower.json", "pairs"},
		{"unpaired", "old-unpaired.json", "slower-unpaired.json", "rounds"},
	} {
		t.Run("speed-up fell by 10% "+tc.name, func(t *testing.T) {
			// One process a side: the slowed cells are inconclusive
			// (exit status 3), never passed; the lines say why.
			out, stderr, err := compare("-max-regression", "5%", tc.old, tc.new)
			if exitCode(err) != 3 || strings.Contains(stderr, "regression: ") {
				t.Fatalf("err %v, want exit status 3 and no regression:\n%s", err, stderr)
			}
			var lines []string
			for _, l := range prefixed(stderr, "inconclusive: ") {
				if strings.Contains(l, "with one process a side") {
					lines = append(lines, l)
				}
			}
			if tc.basis == "rounds" {
				// Without the calibration loop's iteration count, encoding/json's
				// own cells fall back to raw ns/op, and drift shows there.
				var kept []string
				for _, l := range lines {
					if !strings.Contains(l, "codec=encoding/json ") {
						kept = append(kept, l)
					}
				}
				lines = kept
			}
			if len(lines) != 2 {
				t.Fatalf("%d regressions of other codecs, want 2 (codecb marshal, unmarshal):\n%s", len(lines), stderr)
			}
			for _, l := range lines {
				if !strings.Contains(l, "codec=codecb ") || !strings.Contains(l, ": speed-up ") || !strings.Contains(l, "(+1") {
					t.Errorf("line %q", l)
				}
			}
			if !strings.Contains(out, " "+tc.basis+", ±") {
				t.Errorf("table does not name the test's samples %q:\n%s", tc.basis, out)
			}
			if tc.basis == "rounds" {
				for _, want := range []string{
					"tested on same-round sample ratios (rounds: the runs have no per-pair speed-ups)",
					"encoding/json's own cells by raw ns/op (not drift-proof: the runs do not both record the calibration loop's iteration time)",
				} {
					if !strings.Contains(out, want) {
						t.Errorf("output lacks %q:\n%s", want, out)
					}
				}
			}
		})
	}
}

// TestCompareEnvDiff checks that the gate refuses runs from different
// toolchains (exit 2, naming the field), compares them with
// -allow-env-diff and a warning, and that a plain comparison warns.
func TestCompareEnvDiff(t *testing.T) {
	dir := t.TempDir()
	other := driftRun(2, 1, nil)
	other.Env.Go = "go1.26.11"
	oldPath, newPath := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	for path, doc := range map[string]*results.Run{oldPath: driftRun(1, 1, nil), newPath: other} {
		if err := writeFile(path, "json", doc); err != nil {
			t.Fatal(err)
		}
	}
	what := "compare: " + oldPath + " and " + newPath + " differ in env.go (go1.27.4 vs go1.26.11): runs from different machines or toolchains are not comparable"
	var stdout, stderr bytes.Buffer
	err := run(context.Background(), &stdout, &stderr, []string{"compare", "-max-regression", "5%", oldPath, newPath})
	if exitCode(err) != 2 || err.Error() != what+"; -allow-env-diff compares them anyway" || stdout.Len() > 0 {
		t.Errorf("gate: err %v (exit %d), stdout %d bytes; want exit 2 with %q and no table", err, exitCode(err), stdout.Len(), what)
	}
	for _, args := range [][]string{{"-max-regression", "5%", "-allow-env-diff"}, {}} {
		stdout.Reset()
		stderr.Reset()
		err := run(context.Background(), &stdout, &stderr, append(append([]string{"compare"}, args...), oldPath, newPath))
		if !passedOrUnsure(err) || !strings.HasPrefix(stderr.String(), "serbench: warning: "+what+"; compared anyway\n") ||
			len(prefixed(stderr.String(), "regression: ")) > 0 || !strings.Contains(stdout.String(), "codeca") {
			t.Errorf("%v: err %v, stderr %q, stdout %d bytes; want a warning and the comparison", args, err, stderr.String(), stdout.Len())
		}
	}
}

// TestCompareReplicates checks comparisons between sides of several runs
// (comma-separated): a codec whose speed moves from process to process
// (codeca: ±12% between runs, tight within each) fails the gate between
// two single runs but passes between three runs a side, while a codec 10%
// slower in every new run (codecb) fails it either way, and a machine 20%
// slower in the new runs fails nothing.
func TestCompareReplicates(t *testing.T) {
	dir := t.TempDir()
	process := []float64{1, 1.12, 0.93, 1.1, 0.95, 1.02}
	var olds, news []string
	for i, f := range process {
		slower := map[string]float64{"codeca": f}
		machine, name := 1.0, fmt.Sprintf("old%d.json", i)
		if i >= 3 {
			slower["codecb"] = 1 / 0.9
			machine, name = 1.2, fmt.Sprintf("new%d.json", i)
			news = append(news, filepath.Join(dir, name))
		} else {
			olds = append(olds, filepath.Join(dir, name))
		}
		if err := writeFile(filepath.Join(dir, name), "json", driftRun(uint64(10+i), machine, slower)); err != nil {
			t.Fatal(err)
		}
	}
	compare := func(old, new string) (string, string, error) {
		var o, e bytes.Buffer
		err := run(context.Background(), &o, &e, []string{"compare", "-max-regression", "5%", old, new})
		return o.String(), e.String(), err
	}
	_, stderr, err := compare(olds[0], news[0])
	if exitCode(err) != 3 || !strings.Contains(stderr, "inconclusive: "+news[0]+": codec=codeca ") || strings.Contains(stderr, "regression: ") {
		t.Errorf("single runs: err %v, want codeca's process effect (+10%%) inconclusive, not regressed:\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "are one process a side: the gate cannot see how far a cell moves between processes") {
		t.Errorf("single runs: no warning that the gate cannot see between processes:\n%s", stderr)
	}
	out, stderr, err := compare(strings.Join(olds, ","), strings.Join(news, ","))
	if exitCode(err) != 1 {
		t.Fatalf("replicates: err %v, want exit status 1 for codecb", err)
	}
	lines := prefixed(stderr, "regression: ")
	if len(lines) != 2 {
		t.Errorf("%d regressions, want codecb's marshal and unmarshal only:\n%s", len(lines), stderr)
	}
	if strings.Contains(stderr, "one process a side") {
		t.Errorf("replicates: warned of one process a side:\n%s", stderr)
	}
	for _, l := range lines {
		if !strings.Contains(l, "codec=codecb ") || !strings.Contains(l, ": speed-up ") {
			t.Errorf("line %q", l)
		}
	}
	for _, want := range []string{"compared between processes (3 old, 3 new: separate runs, or the processes of run -processes)", "n=3+3 runs, ±", "n=3+3 runs-ns, ±"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The same three processes a side, as one run each of run -processes
	// (results.MergeProcesses): the same verdict from one file a side.
	merged := func(paths []string, name string) string {
		docs := make([]*results.Run, len(paths))
		for i, p := range paths {
			var err error
			if docs[i], err = results.ReadFile(p); err != nil {
				t.Fatal(err)
			}
		}
		doc, err := results.MergeProcesses(docs)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := writeFile(path, "json", doc); err != nil {
			t.Fatal(err)
		}
		return path
	}
	out2, stderr2, err := compare(merged(olds, "old-processes.json"), merged(news, "new-processes.json"))
	verdict := func(s string) string {
		return regexp.MustCompile(`(regression|inconclusive): \S+: `).ReplaceAllString(s, "")
	}
	if exitCode(err) != 1 || verdict(stderr2) != verdict(stderr) {
		t.Errorf("-processes runs: err %v, regressions:\n%s\nwant exit 1 and the replicates' lines:\n%s", err, stderr2, stderr)
	}
	if !strings.Contains(out2, "n=3+3 runs, ±") {
		t.Errorf("-processes runs not tested between processes:\n%s", out2)
	}
	if _, _, err := compare(olds[0]+",", news[0]); exitCode(err) != 2 {
		t.Errorf("an empty name in a list: err %v, want exit status 2", err)
	}
}

// prefixed returns the lines of stderr that start with prefix
// ("regression: ", "inconclusive: ").
func prefixed(stderr, prefix string) []string {
	var out []string
	for _, l := range strings.Split(stderr, "\n") {
		if strings.HasPrefix(l, prefix) {
			out = append(out, l)
		}
	}
	return out
}

// passedOrUnsure reports whether a gate found no regression: it passed
// (nil) or was inconclusive (exit status 3).
func passedOrUnsure(err error) bool { return err == nil || exitCode(err) == 3 }
