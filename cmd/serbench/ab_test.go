package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/serbench/serbench/ab"
)

// abRepo makes a git checkout of a module without dependencies whose Sum
// has a benchmark, at four revisions: tag base; tag same, base with a
// comment added; tag alloc (also the working tree, on main), where Sum
// allocates once per call; and branch broken, which does not compile. It
// skips the test when git or go is missing.
func abRepo(t *testing.T) string {
	t.Helper()
	for _, tool := range []string{"git", "go"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: %v", tool, err)
		}
	}
	dir := t.TempDir()
	sum := func(body string) {
		writeText(t, filepath.Join(dir, "sum.go"), "package sum\n\n"+body)
	}
	writeText(t, filepath.Join(dir, "go.mod"), "module example.com/sum\n\ngo 1.22\n")
	writeText(t, filepath.Join(dir, "sum_test.go"), `package sum

import "testing"

var sink int

func BenchmarkSum(b *testing.B) {
	xs := []int{1, 2, 3, 4, 5, 6, 7, 8}
	for i := 0; i < b.N; i++ {
		sink = Sum(xs)
	}
}
`)
	const plain = "func Sum(xs []int) int {\n\tt := 0\n\tfor _, x := range xs {\n\t\tt += x\n\t}\n\treturn t\n}\n"
	sum(plain)
	gitRun(t, dir, "init", "-q", "-b", "main")
	commit := func(msg string) {
		gitRun(t, dir, "add", "-A")
		gitRun(t, dir, "-c", "commit.gpgsign=false", "commit", "-q", "-m", msg)
	}
	commit("base")
	gitRun(t, dir, "tag", "base")
	sum("// Sum adds xs up.\n" + plain)
	commit("same")
	gitRun(t, dir, "tag", "same")
	sum("var last []int\n\n// Sum adds xs up and keeps a copy of them.\nfunc Sum(xs []int) int {\n\tlast = append([]int(nil), xs...)\n\tt := 0\n\tfor _, x := range last {\n\t\tt += x\n\t}\n\treturn t\n}\n")
	commit("alloc")
	gitRun(t, dir, "tag", "alloc")
	gitRun(t, dir, "checkout", "-q", "-b", "broken")
	sum("func Sum(xs []int) int { return undefinedTotal }\n")
	commit("broken")
	gitRun(t, dir, "checkout", "-q", "main")
	return dir
}

// gitRun runs git in dir with a fixed identity and no user or system
// configuration.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+os.DevNull,
		"GIT_AUTHOR_NAME=serbench", "GIT_AUTHOR_EMAIL=serbench@example.com",
		"GIT_COMMITTER_NAME=serbench", "GIT_COMMITTER_EMAIL=serbench@example.com")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestAB runs serbench ab end to end on a scratch checkout: identical code
// passes the gate, an allocation added per call fails it by allocs/op, an
// interrupted run stops with the context's error, each bad input is one
// clear error, and no worktree is left behind. No timing is asserted.
func TestAB(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs test binaries in a scratch git checkout (about 10 s)")
	}
	dir := abRepo(t)
	quick := []string{"ab", "-C", dir, "-rounds", "4", "-benchtime", "1000x", "-max-regression", "5%"}

	// Four rounds give no interval: the gate cannot say unchanged, and
	// says so with exit status 3.
	t.Run("identical", func(t *testing.T) {
		out, stderr, err := serbench(t, append(quick, "-base", "base", "-head", "same")...)
		if exitCode(err) != 3 || !strings.Contains(err.Error(), "inconclusive at 5%, none worse") {
			t.Fatalf("exit %d: %v, want 3, inconclusive\n%s", exitCode(err), err, stderr)
		}
		if !strings.Contains(stderr, "inconclusive: Sum") || !strings.Contains(stderr, "4 rounds give no interval; -rounds 6 or more do") {
			t.Errorf("stderr does not say why the run is inconclusive:\n%s", stderr)
		}
		// "Sum-2" on two CPUs; "Sum" alone where GOMAXPROCS is 1.
		for _, want := range []string{"base: base (", "head: same (", "4 rounds", "\nSum", "0 → 0"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if strings.Contains(stderr, "regression:") {
			t.Errorf("regression lines for identical code:\n%s", stderr)
		}
	})

	// Two code layouts of each revision: each is built and runs two of
	// the four rounds, and the header says so.
	t.Run("layouts", func(t *testing.T) {
		out, stderr, err := serbench(t, append(quick, "-base", "base", "-head", "same", "-layouts", "2")...)
		if exitCode(err) != 3 {
			t.Fatalf("exit %d: %v\n%s", exitCode(err), err, stderr)
		}
		for _, want := range []string{"4 rounds", "over 2 code layouts of each revision (-ldflags=-randlayout=1..2, two rounds each in turn)", "\nSum"} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
	})

	t.Run("allocation", func(t *testing.T) {
		out, stderr, err := serbench(t, append(quick, "-base", "same")...)
		if err == nil || exitCode(err) != 1 {
			t.Fatalf("err %v, want the gate to fail with exit status 1\n%s\n%s", err, out, stderr)
		}
		if !strings.Contains(out, "head: the working tree (uncommitted changes included) at ") {
			t.Errorf("output does not name the working tree as head:\n%s", out)
		}
		if !strings.Contains(stderr, "regression: Sum") || !strings.Contains(stderr, "allocs/op 0 → 1, higher in every one of 4 rounds") {
			t.Errorf("stderr lacks the allocs/op regression of Sum:\n%s", stderr)
		}
	})

	// What the pull request workflow runs: a comment and a BMF file, both
	// written even when the gate fails.
	t.Run("comment and bmf", func(t *testing.T) {
		files := t.TempDir()
		comment, bmf := filepath.Join(files, "comment.md"), filepath.Join(files, "ab.json")
		for _, tc := range []struct {
			base, verdict string
			code          int
		}{{"alloc", ab.VerdictInconclusive, 3}, {"same", ab.VerdictSlower, 1}} {
			_, stderr, err := serbench(t, append(quick, "-base", tc.base, "-format", "comment", "-o", comment, "-bmf", bmf)...)
			code := 0
			if err != nil {
				code = exitCode(err)
			}
			if code != tc.code {
				t.Fatalf("-base %s: exit status %d, want %d (%v)\n%s", tc.base, code, tc.code, err, stderr)
			}
			text, err := os.ReadFile(comment)
			if err != nil {
				t.Fatal(err)
			}
			if want := ab.CommentMarker + ": " + tc.verdict + " -->\n"; !strings.HasPrefix(string(text), want) {
				t.Errorf("-base %s: comment starts %.60q, want %q", tc.base, text, want)
			}
			var doc map[string]map[string]struct{ Value float64 }
			raw, err := os.ReadFile(bmf)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatalf("-bmf: %v\n%s", err, raw)
			}
			for name, m := range doc {
				if !strings.HasPrefix(name, "Sum") || m["latency"].Value <= 0 {
					t.Errorf("-bmf: %s: %+v, want Sum with a latency", name, m)
				}
				if want := map[string]float64{ab.VerdictInconclusive: 1, ab.VerdictSlower: 1}[tc.verdict]; m["allocs-per-op"].Value != want {
					t.Errorf("-bmf: %s allocs-per-op %v, want head's %v", name, m["allocs-per-op"].Value, want)
				}
			}
		}
	})

	// -measure instructions through the command line: the allocation at
	// head fails the allocs/op gate, and the output says how it counted.
	t.Run("instructions", func(t *testing.T) {
		if _, err := exec.LookPath("valgrind"); err != nil {
			t.Skipf("valgrind is not on PATH (Debian package valgrind): %v", err)
		}
		out, stderr, err := serbench(t, "ab", "-C", dir, "-base", "same", "-head", "alloc", "-measure", "instructions",
			"-rounds", "2", "-benchtime", "20000x", "-max-regression", "5%")
		if err == nil || exitCode(err) != 1 {
			t.Fatalf("err %v, want the gate to fail with exit status 1\n%s\n%s", err, out, stderr)
		}
		for _, want := range []string{"2 rounds (A B, B A, ...) of instructions counted by callgrind (valgrind-", "base instructions/op", "\nSum", "20,000",
			"counts under callgrind reflect valgrind's emulated CPU", "hardware counters: "} {
			if !strings.Contains(out, want) {
				t.Errorf("output lacks %q:\n%s", want, out)
			}
		}
		if !strings.Contains(stderr, "allocs/op 0 → 1, higher in every one of 2 rounds") || !strings.Contains(err.Error(), "instructions/op whose range over the rounds lies beyond 5%") {
			t.Errorf("stderr and error do not name the allocs/op regression and the instructions gate: %v\n%s", err, stderr)
		}
	})

	t.Run("interrupted", func(t *testing.T) {
		// As Ctrl-C does (main's context), once the first binary has run.
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		opts := ab.Options{Dir: dir, Base: "base", Head: "same", Rounds: 4, Iterations: 1000,
			Progress: func(ab.Progress) { cancel() }}
		if _, err := ab.Run(ctx, opts); !errors.Is(err, context.Canceled) {
			t.Errorf("err %v, want context.Canceled", err)
		}
	})

	for _, tc := range []struct {
		name string
		args []string
		want []string
		code int
	}{
		{"no base", []string{"ab", "-C", dir}, []string{"-base is required"}, 2},
		{"bad rounds", []string{"ab", "-C", dir, "-base", "base", "-rounds", "1"}, []string{"-rounds 1", "range is [2, 1000]"}, 2},
		{"bad benchtime", []string{"ab", "-C", dir, "-base", "base", "-benchtime", "fast"}, []string{`invalid benchtime "fast"`}, 2},
		{"comment without a gate", []string{"ab", "-C", dir, "-base", "base", "-format", "comment"}, []string{"-format comment needs -max-regression"}, 2},
		{"bad layouts", []string{"ab", "-C", dir, "-base", "base", "-layouts", "-1"}, []string{"-layouts -1", "range is [0, 16]"}, 2},
		{"layouts beyond the rounds", []string{"ab", "-C", dir, "-base", "base", "-rounds", "4", "-layouts", "3"}, []string{"-layouts 3", "at most half of the 4 rounds"}, 2},
		{"layouts of instructions", []string{"ab", "-C", dir, "-base", "base", "-measure", "instructions", "-layouts", "2"}, []string{"-layouts 2", "time only"}, 2},
		{"bad measure", []string{"ab", "-C", dir, "-base", "base", "-measure", "cycles"}, []string{"-measure cycles", "time or instructions"}, 2},
		{"budget without a gate", []string{"ab", "-C", dir, "-base", "base", "-budget", "1m"}, []string{"-budget needs -max-regression"}, 2},
		{"budget below one batch", []string{"ab", "-C", dir, "-base", "base", "-max-regression", "5%", "-budget", "500ms"}, []string{"-budget 500ms", "too small for the first 20 rounds: at least 800ms"}, 2},
		{"tolerance of time", []string{"ab", "-C", dir, "-base", "base", "-tolerance", "2%"}, []string{"-tolerance applies to -measure instructions only"}, 2},
		{"two packages", []string{"ab", "-C", dir, "-base", "base", ".", "./x"}, []string{"at most one package"}, 2},
		{"missing revision", []string{"ab", "-C", dir, "-base", "v9.9.9"}, []string{`revision "v9.9.9" does not exist`}, 1},
		{"not a checkout", []string{"ab", "-C", t.TempDir(), "-base", "main"}, []string{"is not in a git checkout"}, 1},
		{"no benchmarks", append(quick, "-base", "base", "-bench", "NoSuchBenchmark"), []string{"no benchmarks matched", `"NoSuchBenchmark"`}, 1},
		{"build fails", append(quick, "-base", "base", "-head", "broken"), []string{"head broken (", "build failed", "undefined: undefinedTotal"}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := serbench(t, tc.args...)
			if err == nil {
				t.Fatalf("no error; output:\n%s", out)
			}
			if code := exitCode(err); code != tc.code {
				t.Errorf("exit status %d, want %d (%v)", code, tc.code, err)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error of more than one line: %q", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
			if out != "" {
				t.Errorf("output for a failed comparison:\n%s", out)
			}
		})
	}

	if list := strings.TrimSpace(gitRun(t, dir, "worktree", "list")); strings.Count(list, "\n") != 0 {
		t.Errorf("worktrees left behind:\n%s", list)
	}
}

// TestABCPUFeatures checks the line that -measure instructions runs under
// valgrind to learn the emulated CPU's features: this process's own, one
// line, without -base.
func TestABCPUFeatures(t *testing.T) {
	out, stderr, err := serbench(t, "ab", "-cpu-features")
	if err != nil {
		t.Fatalf("%v\n%s", err, stderr)
	}
	if want := strings.Join(ab.CPUFeatures(), " ") + "\n"; out != want {
		t.Errorf("output %q, want %q", out, want)
	}
	if runtime.GOARCH == "amd64" && !strings.Contains(out, "sse2") {
		t.Errorf("output %q lacks sse2, which every amd64 CPU has", out)
	}
}
