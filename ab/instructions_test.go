package ab

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/serbench/serbench/internal/golden"
)

// The out files in testdata are from real runs of callgrind 3.19 on
// /bin/true, cut to their header and totals: callgrind.ir.out of
// `valgrind --tool=callgrind`, callgrind.cache.out of the same with
// --cache-sim=yes, whose totals have nine events with Ir first.
func TestParseCallgrind(t *testing.T) {
	for _, tc := range []struct{ file, text, err string }{
		{file: "callgrind.ir.out"},
		{file: "callgrind.cache.out"},
		{text: "events: Dr Ir\nsummary: 5 9\n", err: ""},
		{text: "events: Dr\ntotals: 5\n", err: "no Ir event"},
		{text: "events: Ir\n", err: "no totals: or summary: line"},
		{text: "events: Dr Ir\ntotals: 5\n", err: "lack the Ir column"},
		{text: "events: Ir\ntotals: many\n", err: `"many" is not a count`},
	} {
		t.Run(tc.file, func(t *testing.T) {
			var r *strings.Reader
			want := int64(9)
			if tc.file != "" {
				b, err := os.ReadFile(filepath.Join("testdata", tc.file))
				if err != nil {
					t.Fatal(err)
				}
				r, want = strings.NewReader(string(b)), 128797
			} else {
				r = strings.NewReader(tc.text)
			}
			n, err := parseCallgrind(r)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Errorf("err %v, want one with %q", err, tc.err)
				}
				return
			}
			if err != nil || n != want {
				t.Errorf("got %d, %v; want %d", n, err, want)
			}
		})
	}
}

func TestPerOp(t *testing.T) {
	// 4,000,000 instructions of start-up and setup, 250 per iteration.
	short, long := int64(4_000_000+250*1000), int64(4_000_000+250*2000)
	if got, err := perOp(short, long, 1000); err != nil || got != 250 {
		t.Errorf("perOp = %v, %v; want 250", got, err)
	}
	if got, err := perOp(10, 10, 3); err != nil || got != 0 {
		t.Errorf("perOp of no growth = %v, %v; want 0", got, err)
	}
	if _, err := perOp(long, short, 1000); err == nil || !strings.Contains(err.Error(), "fewer than") {
		t.Errorf("a shorter count for 2N: err %v", err)
	}
	if _, err := perOp(1, 2, 0); err == nil {
		t.Error("0 iterations: no error")
	}
	for _, tc := range []struct {
		ns   float64
		want int
	}{{0, 2}, {1e9, 2}, {40, 250_000}, {3, 3_333_334}, {1e-9, 1e9}} {
		if got := countedIterations(tc.ns, 10_000_000); got != tc.want {
			t.Errorf("countedIterations(%v ns, 10ms) = %d, want %d", tc.ns, got, tc.want)
		}
	}
}

func TestBenchRegexp(t *testing.T) {
	for _, tc := range []struct{ name, want string }{
		{"Sum-2", `^BenchmarkSum$`},
		{"Sum", `^BenchmarkSum$`},
		{"Codec/codec=sonic/op=marshal-8", `^BenchmarkCodec$/^codec=sonic$/^op=marshal$`},
		{"Parse/in=a.b(c)-4", `^BenchmarkParse$/^in=a\.b\(c\)$`},
	} {
		if got := benchRegexp(tc.name); got != tc.want {
			t.Errorf("benchRegexp(%q) = %q, want %q", tc.name, got, tc.want)
		}
		// The testing package matches each level of the name in turn.
		full := "Benchmark" + regexp.MustCompile(`-\d+$`).ReplaceAllString(tc.name, "")
		for i, level := range strings.Split(tc.want, "/") {
			if part := strings.Split(full, "/")[i]; !regexp.MustCompile(level).MatchString(part) {
				t.Errorf("%s does not match %s", level, part)
			}
		}
	}
}

// instructionResult is the Result of one benchmark, Encode-2, counted in
// rounds: base's and head's instructions/op in each.
func instructionResult(t *testing.T, base, head []float64) *Result {
	t.Helper()
	opts, err := Options{Base: "main", Measure: MeasureInstructions}.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	rounds := make([][2]map[string]sample, len(base))
	for r := range rounds {
		rounds[r] = [2]map[string]sample{
			{"Encode-2": {instr: base[r], mem: true, bytes: 64, allocs: 1}},
			{"Encode-2": {instr: head[r], mem: true, bytes: 64, allocs: 1}},
		}
	}
	res := analyse(opts, rounds, [2][]string{{"Encode-2"}, {"Encode-2"}})
	res.Base = Revision{Name: "main", Commit: "1a2b3c4d5e6f7a8b9c0d1a2b3c4d5e6f7a8b9c0d"}
	res.Head = Revision{Commit: "9f8e7d6c5b4a39281706f5e4d3c2b1a098765432", WorkingTree: true}
	res.Counter = &Counter{Tool: "callgrind (valgrind-3.19.0)", Hardware: "not available (perf_event_open: no such file or directory)",
		CPUFeatures: []string{"avx2", "avx512f"}, EmulatedCPUFeatures: []string{"avx2"}}
	return res
}

func TestInstructionGate(t *testing.T) {
	for _, tc := range []struct {
		name       string
		base, head []float64
		worse      bool
		warn       bool
	}{
		{"10% more", []float64{1000, 1001, 1000}, []float64{1100, 1101, 1099}, true, false},
		{"same", []float64{1000, 1001, 1000}, []float64{1001, 1000, 1000}, false, false},
		// A median of +10% with one round inside the tolerance: not a
		// change, and base's own counts varied by more than it.
		{"noisy", []float64{1000, 1000, 1100}, []float64{1100, 1100, 1100}, false, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := instructionResult(t, tc.base, tc.head)
			regs := Regressions(res, 0.05)
			if got := len(regs) == 1; got != tc.worse {
				t.Fatalf("regressions %v, want worse=%v", regs, tc.worse)
			}
			if tc.worse {
				want := "Encode-2: instructions/op +10.0% [+9.9%, +10.0% over the rounds] (1,000 → 1,100), the interval lies beyond 5%"
				if got := regs[0].String(); got != want {
					t.Errorf("regression %q, want %q", got, want)
				}
			}
			if got := len(res.Warnings) > 0; got != tc.warn {
				t.Errorf("warnings %q, want some: %v", res.Warnings, tc.warn)
			}
			var sb strings.Builder
			if err := WriteComment(&sb, res, 0.05); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(sb.String(), "The gate: instructions/op whose range over the rounds lies beyond 5%, beyond the tolerance 1% in every round") {
				t.Errorf("comment does not say which measure gated:\n%s", sb.String())
			}
			bmf := BMF(res)["Encode-2"]
			if bmf[BMFInstructions].Value != res.Benchmarks[0].HeadInstructions || bmf[BMFInstructions].Value == 0 {
				t.Errorf("bmf %+v, want head's instructions/op %v", bmf, res.Benchmarks[0].HeadInstructions)
			}
			if _, ok := bmf["latency"]; ok {
				t.Errorf("bmf has a latency without a time measured: %+v", bmf)
			}
		})
	}
}

func TestWriteInstructions(t *testing.T) {
	res := instructionResult(t, []float64{1000, 1001, 1000}, []float64{1100, 1101, 1099})
	res.Benchmarks[0].Iterations = 250000
	for _, format := range Formats.Names() {
		var buf bytes.Buffer
		if err := Write(&buf, format, res); err != nil {
			t.Fatal(err)
		}
		golden.Check(t, filepath.Join("testdata", "ab.instructions."+format), buf.Bytes())
	}
	var comment bytes.Buffer
	if err := WriteComment(&comment, res, 0.05); err != nil {
		t.Fatal(err)
	}
	golden.Check(t, filepath.Join("testdata", "comment.instructions.md"), comment.Bytes())
	var sb strings.Builder
	if err := Write(&sb, "table", res); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"3 rounds (A B, B A, ...) of instructions counted by callgrind (valgrind-3.19.0)",
		"base instructions/op", "250,000", "+10.0%",
		"valgrind's emulated CPU, whose features code that dispatches on them (sonic) sees: avx2\n",
		"this machine's CPU features: avx2 avx512f\n",
		"hardware counters: not available (perf_event_open",
	} {
		if !strings.Contains(sb.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, sb.String())
		}
	}
}

func TestNoValgrind(t *testing.T) {
	old := lookPath
	defer func() { lookPath = old }()
	lookPath = func(string) (string, error) { return "", exec.ErrNotFound }
	dir := t.TempDir() // not even a checkout: valgrind is looked for first
	if _, err := exec.LookPath("git"); err == nil {
		gitInit(t, dir)
	}
	_, err := Run(context.Background(), Options{Dir: dir, Base: "HEAD", Measure: MeasureInstructions})
	if !errors.Is(err, ErrNoValgrind) {
		t.Fatalf("err %v, want ErrNoValgrind", err)
	}
	if msg := err.Error(); strings.Contains(msg, "\n") || !strings.Contains(msg, "the Debian package valgrind") {
		t.Errorf("error %q: want one line naming the package", msg)
	}
}

func TestOptionsMeasure(t *testing.T) {
	o, err := Options{Base: "main", Measure: MeasureInstructions}.Resolved()
	if err != nil {
		t.Fatal(err)
	}
	if o.Rounds != DefaultInstructionRounds || o.Benchtime != DefaultInstructionBenchtime || o.Tolerance != DefaultTolerance {
		t.Errorf("instruction defaults not filled in: %+v", o)
	}
	for _, bad := range []Options{{Base: "main", Measure: "cycles"}, {Base: "main", Tolerance: 1}, {Base: "main", Tolerance: -0.1}} {
		var oe *OptionError
		if _, err := bad.Resolved(); !errors.As(err, &oe) {
			t.Errorf("%+v: err %v, want an *OptionError", bad, err)
		}
	}
}

// gitInit makes dir a git checkout with a one-file module committed.
func gitInit(t *testing.T, dir string, files ...string) {
	t.Helper()
	run := func(args ...string) {
		cmd := exec.Command("git", args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
			"GIT_AUTHOR_NAME=serbench", "GIT_AUTHOR_EMAIL=serbench@example.com",
			"GIT_COMMITTER_NAME=serbench", "GIT_COMMITTER_EMAIL=serbench@example.com")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".git")); err != nil {
		run("init", "-q", "-b", "main")
	}
	for i := 0; i+1 < len(files); i += 2 {
		if err := os.WriteFile(filepath.Join(dir, files[i]), []byte(files[i+1]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	run("add", "-A")
	run("-c", "commit.gpgsign=false", "commit", "-q", "--allow-empty", "-m", "commit")
}

// TestRunInstructions counts a scratch module's benchmark at a base
// revision and at a head whose Sum adds 10% more numbers: the gate at 5%
// fails on instructions/op, and identical code passes. It runs callgrind
// 16 times (about 20 s on 2 cores), so not in -short mode, and is skipped
// without valgrind unless CI=true, where valgrind is installed
// (scripts/install-codegen-tools.sh).
func TestRunInstructions(t *testing.T) {
	if testing.Short() {
		t.Skip("runs test binaries under callgrind (about 20 s)")
	}
	for _, tool := range []string{"git", "go", "valgrind"} {
		if _, err := exec.LookPath(tool); err != nil {
			if tool == "valgrind" && os.Getenv("CI") == "true" {
				t.Fatalf("valgrind is not on PATH in CI: %v", err)
			}
			t.Skipf("%s is not on PATH (Debian package %s): %v", tool, tool, err)
		}
	}
	dir := t.TempDir()
	const bench = "package sum\n\nimport \"testing\"\n\nvar sink int\n\nfunc BenchmarkSum(b *testing.B) {\n\txs := make([]int, 100)\n\tfor i := 0; i < b.N; i++ {\n\t\tsink = Sum(xs)\n\t}\n}\n"
	const loop = "\tfor _, x := range xs {\n\t\tt += x\n\t}\n"
	gitInit(t, dir, "go.mod", "module example.com/sum\n\ngo 1.22\n", "sum_test.go", bench,
		"sum.go", "package sum\n\nfunc Sum(xs []int) int {\n\tt := 0\n"+loop+"\treturn t\n}\n")
	gitInit(t, dir) // same code, a second commit
	// The working tree: also the first tenth of xs again.
	if err := os.WriteFile(filepath.Join(dir, "sum.go"), []byte("package sum\n\nfunc Sum(xs []int) int {\n\tt := 0\n"+loop+
		"\tfor _, x := range xs[:len(xs)/10] {\n\t\tt -= x\n\t}\n\treturn t\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	opts := Options{Dir: dir, Measure: MeasureInstructions, Rounds: 2, Iterations: 50000}

	opts.Base = "HEAD~1"
	opts.Head = "HEAD"
	res, err := Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Benchmarks) != 1 || res.Benchmarks[0].BaseInstructions <= 0 {
		t.Fatalf("benchmarks %+v, want Sum counted", res.Benchmarks)
	}
	if regs := Regressions(res, 0.05); len(regs) != 0 {
		t.Errorf("identical code: regressions %v", regs)
	}
	if res.Counter == nil || !strings.HasPrefix(res.Counter.Tool, "callgrind (valgrind-") || res.Counter.Hardware == "" {
		t.Errorf("counter %+v, want callgrind named and hardware counters said", res.Counter)
	}

	opts.Base, opts.Head = "HEAD", ""
	res, err = Run(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	regs := Regressions(res, 0.05)
	if len(regs) != 1 || regs[0].Metric != "instructions/op" {
		t.Fatalf("10%% more work: regressions %v, want one of instructions/op\n%+v", regs, res.Benchmarks)
	}
	// Sum of 100 numbers against 110: about 10% more, counted.
	if c := res.Benchmarks[0].Change(); c < 0.05 || c > 0.15 {
		t.Errorf("change %+.3f, want about +0.10", c)
	}
}
